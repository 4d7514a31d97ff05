import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { newUlid } from "../../ids.js";
import type { Services } from "../services.js";

/** Longest one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * `GET /healthz`: the process is up and answers. `GET /readyz`: it can serve the API — the
 * accounts store answers a key check and the parcel index reads its ID directory — else 503 with
 * the reasons. Both are outside authentication: never billed, never logged per team, never
 * counted against key guessing. A load balancer sends traffic only to ready replicas.
 */
export function registerHealthRoutes(app: FastifyInstance, services: Services): void {
  app.get("/healthz", async (_request, reply) => reply.send({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const reasons = (await Promise.all([accountsReason(services), indexReason(services)])).filter(
      (reason): reason is string => reason !== undefined,
    );
    if (reasons.length === 0) return reply.send({ status: "ready" });
    return reply.code(503).header("retry-after", "5").send({ status: "unready", reasons });
  });
}

/** A key nobody holds is checked against the store: a miss is an answer, a failure is not. */
async function accountsReason(services: Services): Promise<string | undefined> {
  const probe = `readyz_${randomBytes(16).toString("hex")}`;
  const failure = await failureOf(() => services.accounts.authenticate(probe));
  return failure && `the accounts store does not answer (${failure})`;
}

/** An ID no parcel holds is looked up: the index reads its ID directory to say so. */
async function indexReason(services: Services): Promise<string | undefined> {
  const failure = await failureOf(() => services.parcels.findById(`adr_${newUlid(0)}`));
  return failure && `the parcel index cannot be read (${failure})`;
}

/** Why `work` failed or took longer than CHECK_TIMEOUT_MS; undefined when it answered. */
async function failureOf(work: () => Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      work().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
