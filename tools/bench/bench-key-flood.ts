import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { startService } from "../../test/support/service-process.js";
import type { ServiceProcess } from "../../test/support/service-process.js";
import { flag, scratchDatabase } from "./bench-support.js";

/**
 * What a flood of unrecognized keys costs everyone else: two replicas share PostgreSQL (a scratch
 * database at --url) and Redis (--redis). Replica B serves a steady load with a valid key while
 * replica A is flooded with a new unknown key per request from one client, past the unknown-key
 * limit (so every flood request after the first few answers 429). Rounds alternate: B's load
 * alone, then B's load with the flood beside it. Reported per phase: the database's committed
 * transactions a second (pg_stat_database, over the whole round), B's p99 latency and req/s,
 * and the flood's rate and answers. Target: with the flood, the database's transaction rate
 * and B's p99 within 10% of the rounds without it.
 *   node dist/tools/bench/bench-key-flood.js [--url postgres://…/test] [--redis redis://…]
 *        [--seconds 10] [--rounds 3] [--connections 10] [--flood-connections 10]
 */
const seconds = Number(flag("seconds", "10"));
const rounds = Number(flag("rounds", "3"));
const connections = Number(flag("connections", "10"));
const floodConnections = Number(flag("flood-connections", "10"));
const KEY = `sk_flood_${randomBytes(16).toString("hex")}`;

interface Phase {
  transactionsPerSecond: number;
  p99: number;
  rps: number;
  flood?: { rps: number; statuses: Record<string, number> };
}

async function committed(client: pg.Client, database: string): Promise<number> {
  // Statistics reach pg_stat_database within a second of a transaction; the snapshot is cleared
  // so each read sees the latest.
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<{ xact_commit: string }>(
    "SELECT xact_commit FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  return Number(rows[0]?.xact_commit ?? 0);
}

function steady(replica: ServiceProcess): Promise<autocannon.Result> {
  return autocannon({
    url: `${replica.url}/v1/verify/parse`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington DC 20500" }),
    connections,
    duration: seconds,
  });
}

function flood(replica: ServiceProcess): Promise<autocannon.Result> {
  return autocannon({
    url: `${replica.url}/v1/verify/parse`,
    method: "POST",
    body: JSON.stringify({ line: "1 Main St" }),
    connections: floodConnections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            "content-type": "application/json",
            authorization: `Bearer sk_guess_${randomBytes(16).toString("hex")}`,
          },
        }),
      },
    ],
  });
}

async function phase(
  client: pg.Client,
  database: string,
  a: ServiceProcess,
  b: ServiceProcess,
  withFlood: boolean,
): Promise<Phase> {
  const before = await committed(client, database);
  const started = Date.now();
  const [load, flooded] = await Promise.all([steady(b), withFlood ? flood(a) : Promise.resolve(undefined)]);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const transactions = (await committed(client, database)) - before;
  const elapsed = (Date.now() - started) / 1000;
  return {
    transactionsPerSecond: transactions / elapsed,
    p99: load.latency.p99,
    rps: load.requests.average,
    ...(flooded
      ? {
          flood: {
            rps: flooded.requests.average,
            statuses: { "2xx": flooded["2xx"], "4xx": flooded["4xx"], "5xx": flooded["5xx"] },
          },
        }
      : {}),
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const baseUrl = flag("url", "postgres://postgres@127.0.0.1:5432/test");
  const scratch = await scratchDatabase(baseUrl);
  const database = new URL(scratch.url).pathname.slice(1);
  const env = {
    DATABASE_URL: scratch.url,
    REDIS_URL: flag("redis", "redis://127.0.0.1:6379"),
    REDIS_PREFIX: `situs-bench:${randomBytes(6).toString("hex")}:`,
    DEMO_API_KEY: KEY,
    ACCESS_LOG: "off",
    SHED_EVENT_LOOP_DELAY_MS: "0",
  };
  const replicas: ServiceProcess[] = [];
  const client = new pg.Client({ connectionString: baseUrl });
  try {
    replicas.push(await startService(env));
    replicas.push(await startService(env));
    await client.connect();
    const [a, b] = replicas as [ServiceProcess, ServiceProcess];
    await steady(b); // warm-up: B's key cached, its code compiled
    const calm: Phase[] = [];
    const flooded: Phase[] = [];
    for (let round = 1; round <= rounds; round++) {
      const quiet = await phase(client, database, a, b, false);
      const loud = await phase(client, database, a, b, true);
      calm.push(quiet);
      flooded.push(loud);
      console.log(
        `round ${round}: without flood ${quiet.transactionsPerSecond.toFixed(0)} transactions/s, B p99 ${quiet.p99} ms at ${quiet.rps.toFixed(0)} req/s; ` +
          `with flood ${loud.transactionsPerSecond.toFixed(0)} transactions/s, B p99 ${loud.p99} ms at ${loud.rps.toFixed(0)} req/s; ` +
          `flood ${loud.flood!.rps.toFixed(0)} req/s (${JSON.stringify(loud.flood!.statuses)})`,
      );
    }
    const ratio = (pick: (p: Phase) => number) => median(flooded.map(pick)) / median(calm.map(pick));
    console.log(
      `median with flood / without: database transactions ${ratio((p) => p.transactionsPerSecond).toFixed(3)}×, ` +
        `B p99 ${ratio((p) => p.p99).toFixed(3)}× (target: both at most 1.10×)`,
    );
  } finally {
    await client.end().catch(() => {});
    await Promise.all(replicas.map((replica) => replica.stop()));
    await scratch.drop();
  }
}

await main();
