/**
 * The least server that does a request type's work, for `npm run bench:floor`: Fastify, the
 * service's own parser and index (same configuration, same data directory), each route's body
 * check, its work gathered per turn (TurnBatch) and its answer written by JSON.stringify, and
 * nothing else: no key check, no request log, no load shedding, no hooks.
 *
 *   floor    each answer leaves at the end of its turn, as the service's unbilled answers do.
 *   billed   each answer leaves once its usage row is durable, in the ledger the service opens
 *            on the same configuration (on the embedded database: the O_DSYNC journal, applied
 *            to PGlite in the background). The least a server can do and still bill as
 *            DECISIONS.md requires.
 *
 *   node dist/tools/bench/floor-server.js floor|billed   (PORT, INDEX, DATA_DIR, DATABASE_URL, …)
 */
import Fastify from "fastify";
import { pino } from "pino";
import { openAccounts } from "../../src/accounts/accounts-backend.js";
import type { Operation } from "../../src/accounts/accounts.js";
import { DEMO_TEAM_ID, ensureDemoTeam } from "../../src/accounts/sql/demo-team.js";
import { loadConfig } from "../../src/config.js";
import { openParser } from "../../src/composition.js";
import { endOfTurn } from "../../src/http/batched-sends.js";
import { readLookupRequest } from "../../src/http/routes/lookup.js";
import { readLine } from "../../src/http/routes/parse.js";
import { TurnBatch } from "../../src/http/turn-batch.js";
import { newRequestId } from "../../src/ids.js";
import { openConfiguredIndex } from "../../src/parcels/configured-index.js";
import { ServerTiming } from "../../src/timing.js";
import { BENCH_KEY } from "./http-rounds.js";

const mode = process.argv[2] === "billed" ? "billed" : "floor";
const config = loadConfig();
const log = pino({ level: "warn" });
const parser = openParser(config, () => {});
const index = await openConfiguredIndex(config, log);
const accounts = mode === "billed" ? await openAccounts(config) : undefined;
if (accounts) await ensureDemoTeam(accounts.db, BENCH_KEY);
const prices: Record<Operation, number> = {
  parse: config.PRICE_PARSE_MICROS,
  lookup: config.PRICE_LOOKUP_MICROS,
  lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
};

/** Sends `answer` when this mode allows: at the end of the turn, or once its usage row is durable. */
async function answered<T>(operation: Operation, method: string, path: string, answer: T): Promise<string> {
  const json = JSON.stringify(answer);
  if (!accounts) {
    await endOfTurn();
    return json;
  }
  const started = performance.now();
  await accounts.usage.record({
    requestId: newRequestId(),
    teamId: DEMO_TEAM_ID,
    keyId: "key_floor",
    operation,
    priceMicros: prices[operation],
    at: new Date(),
    log: { method, path, latencyMs: performance.now() - started },
  });
  return json;
}

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
  done(null, body),
);
const parses = new TurnBatch();
const lookups = new TurnBatch();
const fetches = new TurnBatch();
app.post("/v1/verify/parse", async (request, reply) => {
  const line = readLine(request.body);
  const answer = await parses.run(() => parser.parse(line));
  reply.type("application/json");
  return answered("parse", "POST", request.url, answer);
});
app.post("/v1/verify/lookup", async (request, reply) => {
  const lookup = readLookupRequest(request.body);
  const answer = await lookups.run(() => index.lookup(lookup, new ServerTiming()));
  reply.type("application/json");
  return answered("lookup", "POST", request.url, answer);
});
app.get<{ Params: { id: string } }>("/v1/verify/lookup/:id", async (request, reply) => {
  const answer = await fetches.run(() => index.findById(request.params.id, new ServerTiming()));
  reply.type("application/json");
  return answered("lookup_by_id", "GET", request.url, answer);
});
app.addHook("onClose", async () => {
  await accounts?.close();
  await index.close();
});

await app.listen({ port: config.PORT, host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(
  `listening at http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}\n`,
);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
