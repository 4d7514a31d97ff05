import type { FastifyReply, FastifyRequest } from "fastify";
import "./request-context.js";

/**
 * One log line per answered request (every `every`-th with sampling): method, route, status,
 * error code, latency, and the team; the request ID comes with the request's logger (`reqId`,
 * the `req_` ID the client sees). Never the key or any header.
 */
export function accessLogHook(every: number) {
  let count = 0;
  return function accessLog(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    count = (count + 1) % every;
    if (count === 0) {
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? null,
          status: reply.statusCode,
          error: request.errorCode,
          latencyMs: Math.round(reply.elapsedTime * 1000) / 1000,
          teamId: request.situs?.key.teamId ?? null,
        },
        "request",
      );
    }
    done();
  };
}
