import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiError } from "../errors.js";

/**
 * Load shedding: when the event loop lags past `maxEventLoopDelayMs`, new requests are answered
 * 503 `overloaded` at once (with Retry-After) instead of joining a queue that only grows. The
 * delay is sampled every `sampleIntervalMs` by @fastify/under-pressure, which checks it in an
 * `onRequest` hook registered before authentication, so a refused request costs almost nothing.
 */
export interface SheddingOptions {
  maxEventLoopDelayMs: number;
  sampleIntervalMs?: number;
  /** Called for each request refused (metrics). */
  onShed?: () => void;
}

export const RETRY_AFTER_SECONDS = 1;

export function registerLoadShedding(app: FastifyInstance, options: SheddingOptions): void {
  if (options.maxEventLoopDelayMs <= 0) return;
  void app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    sampleInterval: options.sampleIntervalMs ?? 100,
    retryAfter: RETRY_AFTER_SECONDS,
    // Written straight to the socket and the reply hijacked: under-pressure carries on with the
    // request after its handler, and a reply sent through Fastify leaves only at the end of the
    // turn (batched-sends.ts), so the request would be authenticated, parsed and answered again.
    // A hijacked reply stops it here, and a shed request costs no hook, parse or bill.
    pressureHandler: (_request, reply: FastifyReply) => {
      options.onShed?.();
      const body = JSON.stringify(
        new ApiError("overloaded", "The service is overloaded; retry shortly with backoff.").toBody(),
      );
      reply.hijack();
      reply.raw.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        "retry-after": String(RETRY_AFTER_SECONDS),
      });
      reply.raw.end(body);
    },
  });
}
