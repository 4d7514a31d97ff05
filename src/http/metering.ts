import type { FastifyReply, FastifyRequest } from "fastify";
import { FAILURE_LOG, failureKind } from "./log-every.js";
import { ApiError } from "../errors.js";
import { RequestIdTaken } from "../accounts/accounts.js";
import type { UsageRecord } from "../accounts/accounts.js";
import { newRequestId } from "../ids.js";
import type { Services } from "./services.js";
import { endOfTurn } from "./turn/batched-sends.js";
import { continueSafely } from "./continue-safely.js";
import "./request-context.js";
import type { RequestContext } from "./request-context.js";

/**
 * Billing and timing of answers, at the last moment before they leave (`onSend`): a 200 is
 * billed once its usage record is durable; when it cannot be, the caller gets 503 `unavailable`
 * instead of an unbilled 200 (DECISIONS.md "Accounts and billing"). Only 200s carry Server-Timing.
 */
export function meteringHook(services: Services) {
  return function meter(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ): void {
    const context = request.situs;
    const operation = request.routeOptions.config.operation;
    if (context === null || reply.statusCode !== 200 || operation === undefined) {
      if (context !== null) settleReservation(services, context, false);
      // Unbilled answers leave with the others of this turn (batched-sends.ts); billed ones leave
      // with the others made durable by the same write.
      void endOfTurn().then(() => continueSafely(request, () => done(null, payload)));
      return;
    }
    const usage: UsageRecord = {
      requestId: context.requestId,
      teamId: context.key.teamId,
      keyId: context.key.keyId,
      operation,
      priceMicros: services.prices[operation],
      at: new Date(),
      // The answer is ready: its latency is known, so its log entry rides on the usage row.
      log: { method: request.method, path: pathOf(request.url), latencyMs: context.timing.elapsedMs() },
    };
    if (context.givenId) usage.givenId = true;
    let recorded = record(services, usage);
    if (context.givenId) {
      // A balancer's ID that already names another request's row is not this answer's: it is
      // billed under an ID of its own, never answered free under the other's.
      recorded = recorded.catch((error: unknown) => {
        if (!(error instanceof RequestIdTaken)) throw error;
        const requestId = newRequestId();
        context.requestId = requestId;
        context.givenId = false;
        reply.header("x-request-id", requestId);
        return record(services, { ...usage, requestId, givenId: false });
      });
    }
    recorded.then(
      () => {
        settleReservation(services, context, true);
        context.loggedWithUsage = true;
        reply.header("server-timing", context.timing.header());
        continueSafely(request, () => done(null, payload));
      },
      (error: unknown) => {
        settleReservation(services, context, false);
        FAILURE_LOG.error(
          request.log,
          failureKind("usage", error),
          { err: error, requestId: context.requestId },
          "usage record not durable; answer withheld",
        );
        const refusal = new ApiError("unavailable", "The request could not be recorded; retry with backoff.");
        context.errorCode = refusal.code;
        reply.code(refusal.status);
        continueSafely(request, () => done(null, JSON.stringify(refusal.toBody())));
      },
    );
  };
}

/**
 * The request's reservation of credit ends: billed (spend now, durable) or given back to the
 * lease. Once only: an answer that fails after its reservation settled changes nothing.
 */
export function settleReservation(services: Services, context: RequestContext, billed: boolean): void {
  const price = context.reservedMicros;
  if (price === 0 || services.leases === undefined) return;
  context.reservedMicros = 0;
  if (billed) services.leases.billed(context.key.teamId, price);
  else services.leases.release(context.key.teamId, price);
}

function record(services: Services, usage: UsageRecord): Promise<void> {
  try {
    return services.usage.record(usage);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * One request-log entry for every request made with a valid key, refused ones included. A billed
 * answer's entry is in its usage row already (`inUsageRecord`): the database log keeps it once.
 */
export function requestLogHook(services: Services) {
  return function logRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const context = request.situs;
    if (context !== null) {
      settleReservation(services, context, false);
      services.requestLog.append({
        requestId: context.requestId,
        teamId: context.key.teamId,
        keyId: context.key.keyId,
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        errorCode: context.errorCode,
        latencyMs: context.timing.elapsedMs(),
        at: new Date(),
        ...(context.loggedWithUsage ? { inUsageRecord: true } : {}),
      });
    }
    done();
  };
}

function pathOf(url: string): string {
  const queryAt = url.indexOf("?");
  return queryAt === -1 ? url : url.slice(0, queryAt);
}
