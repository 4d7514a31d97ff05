import type { FastifyReply, FastifyRequest } from "fastify";
import "./request-context.js";

/** What the HTTP edge reports of each answer, for metrics (src/app/metrics.ts). */
export interface RequestMetrics {
  /** An answered request: its route (or null), status, error code, seconds, and billed operation. */
  answered(
    route: string | null,
    status: number,
    error: string | null,
    seconds: number,
    billed: string | null,
  ): void;
  /** A request refused at once because the service is overloaded (503 `overloaded`). */
  shed(): void;
}

/** The onResponse hook that reports every answer; a 200 of an operation route is a billed request. */
export function requestMetricsHook(metrics: RequestMetrics) {
  return function report(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const operation = request.routeOptions.config.operation ?? null;
    const status = reply.statusCode;
    metrics.answered(
      request.routeOptions.url ?? null,
      status,
      request.errorCode,
      reply.elapsedTime / 1000,
      status === 200 ? operation : null,
    );
    done();
  };
}
