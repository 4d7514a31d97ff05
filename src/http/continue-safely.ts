import type { FastifyRequest } from "fastify";

/**
 * Runs a hook's `done` from a promise's callback. Fastify carries on with the request inside
 * `done` (the next hooks, writing the answer); a throw there would reject the callback's promise
 * with no one to handle it, which ends the process. It is logged instead.
 */
export function continueSafely(request: FastifyRequest, next: () => void): void {
  try {
    next();
  } catch (error) {
    request.log.error({ err: error }, "request could not be carried on after an asynchronous check");
  }
}
