/**
 * `npm run bench` (`bench:http`): the whole service over HTTP, as a user runs it (built,
 * production settings, accounts and billing on: the embedded database, or PostgreSQL at
 * `--database-url`) over a synthetic national index (`--parcels` in `--zips` ZIPs, built first),
 * driven by autocannon, side by side with a bare Fastify server in the same run. The headline is
 * where a request's cost is paid: the server's process CPU per request (its own counters, every
 * thread) over the bare server's CPU per request plus the in-process cost of the work, the median
 * of the rounds' ratios (target at most 1.5×); a figure that holds on any machine, where shares of
 * a bare server's throughput on cores the load generator shares measure the machine as much as
 * the service. Also printed: requests/s, p50/p99/p99.9 latency and the ratio to the bare server for each request type, RSS
 * at rest and under load, where the CPU went (the machine's, the server's, its main thread's and
 * the load generator's µs a request, and how many cores were busy), and the share of the
 * machine's CPU its host took meanwhile, and writes the figures as JSON to bench/results/.
 *
 * Each server and request type is first driven unmeasured for `--warmup` seconds, right before
 * it is measured, so the figures are of a service whose code is compiled and whose caches and
 * database are warm, as in production, not of its first seconds: on a slow machine the
 * service's compiler was still busy after 3 s.
 *
 * Each request type is measured in `--rounds` rounds, each a round of the bare server followed
 * by one of the request type, and its ratio is the median of the rounds' ratios: the machine's
 * host takes from 0% to a quarter of its CPU from one round to the next, and a ratio to a bare
 * server measured minutes earlier moved with it. Each bare round is a fresh bare process, warmed
 * up for `--bare-warmup` seconds first: two processes of the same server differ by up to a sixth
 * for as long as they live (docs/performance.md), and one bare process would lend its own luck to
 * every ratio of the run.
 *
 *   npm run bench -- [--seconds 10] [--warmup 10] [--rounds 3] [--connections 50] [--parcels 1000000]
 *                    [--zips 1000] [--only parse,lookup] [--workers 1] [--bare-warmup 3]
 *                    [--database-url postgres://…]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  alignedTable,
  bareRound,
  BENCH_KEY,
  drive,
  medianBy,
  medianCpuRatio,
  startBenchService,
  syntheticIndex,
  writeResults,
} from "./http-rounds.js";
import type { Figures } from "./http-rounds.js";
import { inProcessCosts } from "./in-process-cost.js";
import { buildScenarios } from "./scenarios.js";

function table(rows: Figures[]): string {
  const header = [
    "request",
    "req/s",
    "p50 ms",
    "p99 ms",
    "p99.9 ms",
    "bare req/s",
    "vs bare",
    "non-2xx",
    "RSS MiB",
    "server CPU µs/req",
    "bare CPU µs/req",
    "in-process µs",
    "CPU ratio (≤1.5×)",
    "machine CPU µs/req",
    "server",
    "main thread(s)",
    "generator",
    "cores busy",
    "stolen",
  ];
  const lines = rows.map((row) => [
    row.name,
    row.requestsPerSecond.toFixed(0),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    row.p999Ms.toFixed(2),
    row.bareRequestsPerSecond === undefined ? "" : row.bareRequestsPerSecond.toFixed(0),
    row.ratioToBare === undefined ? "" : `${(row.ratioToBare * 100).toFixed(1)}%`,
    String(row.non2xx),
    row.rssUnderLoadBytes === undefined ? "" : (row.rssUnderLoadBytes / 2 ** 20).toFixed(0),
    row.cpu === undefined ? "" : row.cpu.server.toFixed(1),
    row.bareCpuMicros === undefined ? "" : row.bareCpuMicros.toFixed(1),
    row.inProcessMicros === undefined ? "" : row.inProcessMicros.toFixed(1),
    row.cpuRatio === undefined
      ? ""
      : `${row.cpuRatio.toFixed(2)}× ${row.cpuRatio <= 1.5 ? "met" : "NOT met"}`,
    row.cpu === undefined ? "" : row.cpu.machine.toFixed(1),
    row.cpu === undefined ? "" : row.cpu.server.toFixed(1),
    row.cpu === undefined ? "" : row.cpu.serverMain.toFixed(1),
    row.cpu === undefined ? "" : row.cpu.generator.toFixed(1),
    row.cpu === undefined ? "" : row.cpu.coresBusy.toFixed(2),
    row.cpu === undefined ? "" : `${(row.cpu.stolen * 100).toFixed(1)}%`,
  ]);
  return alignedTable(header, lines);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "10" },
      warmup: { type: "string", default: "10" },
      parcels: { type: "string", default: "1000000" },
      zips: { type: "string", default: "1000" },
      connections: { type: "string", default: "50" },
      only: { type: "string" },
      rounds: { type: "string", default: "3" },
      workers: { type: "string", default: "1" },
      "database-url": { type: "string" },
      "bare-warmup": { type: "string", default: "3" },
    },
  });
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const connections = Number(values.connections);
  const rounds = Math.max(1, Number(values.rounds));
  const dataDir = mkdtempSync(join(tmpdir(), "situs-bench-"));
  const indexDir = join(dataDir, "national");
  const parcels = await syntheticIndex(indexDir, Number(values.parcels), Number(values.zips));
  const bareWarmup = Number(values["bare-warmup"]);
  const serviceEnv = {
    PORT: "0",
    DATA_DIR: dataDir,
    DEMO_API_KEY: BENCH_KEY,
    INDEX: indexDir,
    LOG_LEVEL: "info", // startup lines only: per-request logging is off
    NODE_ENV: "production",
    WORKERS: values.workers,
    ...(values["database-url"] ? { DATABASE_URL: values["database-url"] } : {}),
  };
  const service = await startBenchService(serviceEnv);
  try {
    const rssAtRest = service.rssBytes();
    const scenarios = buildScenarios(BENCH_KEY, parcels).filter(
      (scenario) => values.only === undefined || values.only.split(",").includes(scenario.name),
    );
    process.stderr.write(
      `service up; ${scenarios.length} scenarios, ${rounds} rounds of ${seconds} s each beside the bare server's, at ${connections} connections, after ${warmup} s each unmeasured\n`,
    );
    // Each request type is measured right after its own warm-up: warmed all first, the first
    // measured ran beside the collection of what the others' warm-ups left in the heap.
    const bareRounds: Figures[] = [];
    const rows: Figures[] = [];
    for (const scenario of scenarios) {
      if (warmup > 0) await drive(service, scenario, warmup, connections);
      const measured: Figures[] = [];
      for (let round = 0; round < rounds; round++) {
        const baseline = await bareRound(seconds, bareWarmup, connections);
        const figures = await drive(service, scenario, seconds, connections);
        figures.bareRequestsPerSecond = baseline.requestsPerSecond;
        figures.ratioToBare = figures.requestsPerSecond / baseline.requestsPerSecond;
        if (baseline.cpu !== undefined) figures.bareCpuMicros = baseline.cpu.server;
        bareRounds.push(baseline);
        measured.push(figures);
        process.stderr.write(
          `${scenario.name}: ${figures.requestsPerSecond.toFixed(0)} req/s, bare ${baseline.requestsPerSecond.toFixed(0)}\n`,
        );
      }
      rows.push({
        ...medianBy(measured, (row) => row.ratioToBare ?? 0),
        rssUnderLoadBytes: Math.max(...measured.map((row) => row.rssUnderLoadBytes ?? 0)),
        errors: measured.reduce((sum, row) => sum + row.errors, 0),
        rounds: measured,
      });
    }
    // After the load, with the service idle: the same work in this process, for the CPU ratio.
    const costs = await inProcessCosts({ ...process.env, ...serviceEnv }, scenarios);
    for (const row of rows) {
      const inProcess = costs.get(row.name);
      row.inProcessMicros = inProcess;
      // The row's own CPU figures are its median round's (by ratio to bare); the ratio is the
      // median of every round's.
      const cpuRatio = medianCpuRatio(row.rounds ?? [], inProcess);
      if (cpuRatio !== undefined) row.cpuRatio = cpuRatio;
    }
    rows.unshift({
      ...medianBy(bareRounds, (row) => row.requestsPerSecond),
      errors: bareRounds.reduce((sum, row) => sum + row.errors, 0),
      rounds: bareRounds,
    });
    process.stdout.write(`${table(rows)}\n\nservice RSS at rest: ${(rssAtRest / 2 ** 20).toFixed(0)} MiB\n`);
    writeResults("http", { seconds, rounds, connections, rssAtRestBytes: rssAtRest, rows });
    const failed = rows.filter((row) => row.errors > 0);
    if (failed.length > 0) {
      process.stderr.write(
        `requests failed: ${failed.map((row) => `${row.name} ${row.errors}`).join(", ")}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
