import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus } from "node:os";
import { projectPath } from "../../src/paths.js";
import autocannon from "autocannon";
import pg from "pg";
import { startService } from "../../test/support/service-process.js";
import type { ServiceProcess } from "../../test/support/service-process.js";
import { flag, median, scratchDatabase } from "./bench-support.js";

/**
 * What a flood of unrecognized keys costs everyone else: two replicas share PostgreSQL (a scratch
 * database at --url) and Redis (--redis). Replica B serves a steady load with a valid key while
 * replica A is flooded with a new unknown key per request from one client, past the unknown-key
 * limit (so every flood request after the first few answers 429). Both at fixed rates (--rate,
 * --flood-rate; the audit's flood was 2,900/s), below what saturates this machine's cores, so
 * what is compared is what the flood costs the database and B, not a share of the CPU the load
 * generators and both replicas contend for: replica A and the load beside it are kept on one
 * core, replica B and its load on the other (taskset), as on machines of their own, with
 * PostgreSQL and Redis shared. Rounds alternate: B's load alone, then B's load
 * with the same rate of /healthz on A (what any busy neighbour costs B on shared cores), then
 * with the flood. Reported per phase: the database's committed
 * transactions a second (pg_stat_database, over the whole round), B's p99 latency and req/s,
 * and the flood's rate and answers. Target: with the flood, the database's transaction rate
 * and B's p99 within 10% of the rounds without it.
 *   node dist/tools/bench/bench-key-flood.js [--url postgres://…/test] [--redis redis://…]
 *        [--seconds 10] [--rounds 3] [--rate 1000] [--flood-rate 3000]
 *        [--connections 10] [--flood-connections 10]
 */
const seconds = Number(flag("seconds", "10"));
const rounds = Number(flag("rounds", "3"));
const connections = Number(flag("connections", "10"));
const floodConnections = Number(flag("flood-connections", "10"));
const rate = Number(flag("rate", "1000"));
const floodRate = Number(flag("flood-rate", "3000"));
const A_CORE = 0;
const B_CORE = Math.min(1, cpus().length - 1);
const KEY = `sk_flood_${randomBytes(16).toString("hex")}`;

interface Phase {
  transactionsPerSecond: number;
  p99: number;
  rps: number;
  /** B's answers by class: all 2xx when the flood leaves B alone. */
  statuses: Record<string, number>;
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
    overallRate: rate,
  });
}

/**
 * What runs beside replica A, in its own process kept on A's core: the flood (a new unknown key
 * per request) or the same rate of GET /healthz (what any busy neighbour costs).
 */
function besideA(mode: "flood" | "neighbour", replica: ServiceProcess): Promise<Phase["flood"]> {
  const child = spawn(
    process.execPath,
    [
      projectPath("dist", "tools", "bench", "key-flood-client.js"),
      mode,
      replica.url,
      String(floodRate),
      String(seconds),
      String(floodConnections),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  pin(child.pid!, A_CORE);
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Phase["flood"])
        : reject(new Error(`${mode} load exited ${code}`)),
    );
  });
}

/** Keeps every thread of process `pid` on `core` (Linux taskset). */
function pin(pid: number, core: number): void {
  execFileSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
}

async function phase(
  client: pg.Client,
  database: string,
  a: ServiceProcess,
  b: ServiceProcess,
  beside: "nothing" | "neighbour" | "flood",
): Promise<Phase> {
  const before = await committed(client, database);
  const started = Date.now();
  const [load, flooded] = await Promise.all([
    steady(b),
    beside === "nothing" ? Promise.resolve(undefined) : besideA(beside, a),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const transactions = (await committed(client, database)) - before;
  const elapsed = (Date.now() - started) / 1000;
  return {
    transactionsPerSecond: transactions / elapsed,
    p99: load.latency.p99,
    rps: load.requests.average,
    statuses: { "2xx": load["2xx"], "4xx": load["4xx"], "5xx": load["5xx"] },
    ...(flooded ? { flood: flooded } : {}),
  };
}

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
    // Each replica and the load beside it on a core of its own, as on machines of their own;
    // PostgreSQL and Redis are shared, as in a deployment.
    pin(replicas[0]!.child.pid!, A_CORE);
    pin(replicas[1]!.child.pid!, B_CORE);
    pin(process.pid, B_CORE);
    await client.connect();
    const [a, b] = replicas as [ServiceProcess, ServiceProcess];
    await steady(b); // warm-up: B's key cached, its code compiled
    const calm: Phase[] = [];
    const busy: Phase[] = [];
    const flooded: Phase[] = [];
    const show = (name: string, p: Phase) =>
      `${name}: ${p.transactionsPerSecond.toFixed(0)} transactions/s, B p99 ${p.p99} ms at ${p.rps.toFixed(0)} req/s ${JSON.stringify(p.statuses)}`;
    for (let round = 1; round <= rounds; round++) {
      const quiet = await phase(client, database, a, b, "nothing");
      const near = await phase(client, database, a, b, "neighbour");
      const loud = await phase(client, database, a, b, "flood");
      calm.push(quiet);
      busy.push(near);
      flooded.push(loud);
      console.log(
        `round ${round}: ${show("alone", quiet)}; ${show("A serving /healthz", near)}; ${show("A flooded", loud)}; ` +
          `flood ${loud.flood!.rps.toFixed(0)} req/s ${JSON.stringify(loud.flood!.statuses)}`,
      );
    }
    const ratio = (of: Phase[], to: Phase[], pick: (p: Phase) => number) =>
      (median(of.map(pick)) / median(to.map(pick))).toFixed(3);
    const transactions = (p: Phase) => p.transactionsPerSecond;
    const p99 = (p: Phase) => p.p99;
    console.log(
      `median, flood against B alone: database transactions ${ratio(flooded, calm, transactions)}×, B p99 ${ratio(flooded, calm, p99)}×; ` +
        `flood against the same rate of /healthz on A: database transactions ${ratio(flooded, busy, transactions)}×, ` +
        `B p99 ${ratio(flooded, busy, p99)}× (target: at most 1.10×); /healthz on A against B alone: B p99 ${ratio(busy, calm, p99)}×`,
    );
  } finally {
    await client.end().catch(() => {});
    await Promise.all(replicas.map((replica) => replica.stop()));
    await scratch.drop();
  }
}

await main();
