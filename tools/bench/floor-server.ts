/**
 * The least server that does a request type's work, for `npm run bench:floor`: Fastify, the
 * service's own parser and index (same configuration, same data directory), each route's body
 * check, its work gathered per turn (TurnBatch) and its answer written by JSON.stringify, and
 * nothing else: no key check, no request log, no load shedding, no hooks.
 *
 *   floor    each answer leaves at the end of its turn, as the service's unbilled answers do.
 *   written  each answer leaves once its usage row is written to a file, the rows of a turn in
 *            one write (RowFile below) to the page cache: the least any ledger that keeps its
 *            rows outside the process can do, durable against a killed process only.
 *   synced   the same file opened with O_DSYNC: the least a ledger durable against a power loss
 *            can do, with no database at all.
 *   billed   each answer leaves once its usage row is durable, in the ledger the service opens
 *            on the same configuration (on the embedded database: the journal written to the
 *            operating system, applied to PGlite in the background). The least the service can do and still bill as
 *            DECISIONS.md requires.
 *
 *   node dist/tools/bench/floor-server.js floor|written|synced|billed   (PORT, INDEX, DATA_DIR, …)
 */
import { closeSync, constants, mkdirSync, openSync, write } from "node:fs";
import { join } from "node:path";
import Fastify from "fastify";
import { pino } from "pino";
import { openAccounts } from "../../src/app/accounts-backend.js";
import type { Operation, UsageLedger, UsageRecord } from "../../src/accounts/accounts.js";
import { DEMO_TEAM_ID, ensureDemoTeam } from "../../src/app/demo-team.js";
import { encodeJournal } from "../../src/accounts/ledger/usage-journal.js";
import { loadConfig } from "../../src/config.js";
import { openParser } from "../../src/app/composition.js";
import { endOfTurn } from "../../src/http/turn/batched-sends.js";
import { readLookupRequest } from "../../src/http/routes/lookup.js";
import { readLine } from "../../src/http/routes/parse.js";
import { TurnBatch } from "../../src/http/turn/turn-batch.js";
import { newRequestId } from "../../src/ids.js";
import { openConfiguredIndex } from "../../src/app/configured-index.js";
import { atTurnEnd } from "../../src/runtime/turn-end.js";
import { BENCH_KEY } from "./http-rounds.js";

const ROW_FILE_BYTES = 64 * 2 ** 20;

/**
 * Usage rows appended to one file, the rows of a turn in one positional write (as the journal's
 * COPY tuples), each record resolved when its write returns. Nothing reads the file: it wraps
 * around at 64 MiB, so a long run neither fills the disk nor grows the file (a synced write that
 * changes no file size is, if anything, cheaper).
 */
class RowFile implements UsageLedger {
  private readonly fd: number;
  private rows: UsageRecord[] = [];
  private waiting: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  private offset = 0;

  constructor(dir: string, synced: boolean) {
    mkdirSync(dir, { recursive: true });
    const flags =
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (synced ? constants.O_DSYNC : 0);
    this.fd = openSync(join(dir, "floor-rows"), flags, 0o600);
  }

  record(row: UsageRecord): Promise<void> {
    if (this.rows.length === 0) atTurnEnd(() => this.flush());
    this.rows.push(row);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private flush(): void {
    const bytes = encodeJournal(this.rows);
    const waiting = this.waiting;
    this.rows = [];
    this.waiting = [];
    if (this.offset + bytes.length > ROW_FILE_BYTES) this.offset = 0;
    write(this.fd, bytes, 0, bytes.length, this.offset, (error) => {
      for (const one of waiting) {
        if (error) one.reject(error);
        else one.resolve();
      }
    });
    this.offset += bytes.length;
  }

  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

const MODES = ["floor", "written", "synced", "billed"] as const;
const mode = MODES.find((one) => one === process.argv[2]) ?? "floor";
const config = loadConfig();
const log = pino({ level: "warn" });
const parser = openParser(config, () => {});
const index = await openConfiguredIndex(config, log);
const accounts = mode === "billed" ? await openAccounts(config) : undefined;
if (accounts) await ensureDemoTeam(accounts.db, BENCH_KEY);
const usage: UsageLedger | undefined =
  accounts?.usage ?? (mode === "floor" ? undefined : new RowFile(config.DATA_DIR, mode === "synced"));
const prices: Record<Operation, number> = {
  parse: config.PRICE_PARSE_MICROS,
  lookup: config.PRICE_LOOKUP_MICROS,
  lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
};

/** Sends `answer` when this mode allows: at the end of the turn, or once its usage row is written. */
async function answered<T>(operation: Operation, method: string, path: string, answer: T): Promise<string> {
  const json = JSON.stringify(answer);
  if (!usage) {
    await endOfTurn();
    return json;
  }
  await usage.record({
    requestId: newRequestId(),
    teamId: DEMO_TEAM_ID,
    keyId: "key_floor",
    operation,
    priceMicros: prices[operation],
    at: new Date(),
    // The row as the service writes a billed answer's, its request-log entry included.
    log: { method, path, latencyMs: 0 },
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
  const { result: answer } = await lookups.run(() => index.lookup(lookup));
  reply.type("application/json");
  return answered("lookup", "POST", request.url, answer);
});
app.get<{ Params: { id: string } }>("/v1/verify/lookup/:id", async (request, reply) => {
  const { result: answer } = await fetches.run(() => index.findById(request.params.id));
  reply.type("application/json");
  return answered("lookup_by_id", "GET", request.url, answer);
});
app.addHook("onClose", async () => {
  await (accounts ?? usage)?.close();
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
