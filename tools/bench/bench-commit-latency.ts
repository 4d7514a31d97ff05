import pg from "pg";
import { flag, scratchDatabase } from "./bench-support.js";

/**
 * The floor under any durable group commit: how long one committed one-row INSERT takes on this
 * PostgreSQL (WAL flush included), next to a `SELECT 1` round trip.
 *   node dist/tools/bench/bench-commit-latency.js [--url postgres://…/test] [--samples 300]
 */
const samples = Number(flag("samples", "300"));
const scratch = await scratchDatabase(flag("url", "postgres://postgres@127.0.0.1:5432/test"));
const client = new pg.Client({ connectionString: scratch.url });

async function percentiles(sql: string): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    await client.query(sql);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`;
}

try {
  await client.connect();
  await client.query("CREATE TABLE probe (x int)");
  console.log(`one-row INSERT commit: ${await percentiles("INSERT INTO probe VALUES (1)")}`);
  console.log(`SELECT 1 round trip:   ${await percentiles("SELECT 1")}`);
} finally {
  await client.end();
  await scratch.drop();
}
