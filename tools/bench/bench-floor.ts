/**
 * `npm run bench:floor`: what this machine allows a server that does the service's work, side by
 * side with the service in one run. For each request type, over the same synthetic national
 * index as `npm run bench:http` and at the same load, rounds of:
 *   bare     the bare Fastify server of `npm run bench:http` (a constant answer; a fresh process a round);
 *   floor    floor-server.ts: the service's parser or index and body check behind Fastify, and
 *            nothing else (no key check, no billing, no request log);
 *   written  the same, each answer sent once its usage row is written to a file (the rows of a
 *            turn in one write, to the page cache): the least any ledger outside the process can do;
 *   synced   the same file synced (O_DSYNC): the least any durable ledger can do, with no database;
 *   billed   the same, each answer sent once its usage row is durable in the service's own
 *            ledger (the least the service can do and still bill as DECISIONS.md requires);
 *   service  the whole service, as `npm run bench:http` starts it.
 * Prints each one's req/s, p99 and share of the bare server's rate (medians over the rounds of
 * each round's ratio), and the billing servers' against floor in the same round: the share of
 * the rate that writing, syncing or billing each answer's row alone leaves; and each server's CPU
 * per request with bench:http's ratio (over the paired bare round's CPU per request plus the
 * work's in-process cost): how much of the 1.5× bound each rung of the ladder spends.
 *
 *   npm run bench:floor -- [--seconds 5] [--warmup 5] [--rounds 3] [--connections 50]
 *                          [--parcels 1000000] [--zips 1000] [--only parse,lookup] [--bare-warmup 3]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { projectPath } from "../../src/paths.js";
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
import { startServer } from "./processes.js";
import type { ServerProcess } from "./processes.js";
import { buildScenarios } from "./scenarios.js";

const SERVERS = ["floor", "written", "synced", "billed", "service"] as const;
/** The servers that hold each answer for its usage row, quoted against floor too. */
const LEDGERS: readonly ServerName[] = ["written", "synced", "billed"];
type ServerName = (typeof SERVERS)[number];

interface Row {
  request: string;
  server: ServerName | "bare";
  requestsPerSecond: number;
  p99Ms: number;
  /** Median over the rounds of this server's req/s over the paired bare round's. */
  ofBare: number;
  /** Ledger servers: median over the rounds of their req/s over floor's in the same round. */
  ofFloor?: number;
  /** The median round's server CPU per request, µs (Linux). */
  cpuMicros?: number;
  /**
   * Median over the rounds of the server's CPU per request over (the paired bare round's + the
   * in-process cost of the work): bench:http's headline, here for each server of the ladder.
   */
  cpuRatio?: number;
  errors: number;
  non2xx: number;
  rounds: Figures[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "5" },
      warmup: { type: "string", default: "5" },
      rounds: { type: "string", default: "3" },
      connections: { type: "string", default: "50" },
      parcels: { type: "string", default: "1000000" },
      zips: { type: "string", default: "1000" },
      only: { type: "string", default: "parse,lookup" },
      "bare-warmup": { type: "string", default: "3" },
    },
  });
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const connections = Number(values.connections);
  const rounds = Math.max(1, Number(values.rounds));
  const bareWarmup = Number(values["bare-warmup"]);
  const home = mkdtempSync(join(tmpdir(), "situs-floor-"));
  const indexDir = join(home, "national");
  const parcels = await syntheticIndex(indexDir, Number(values.parcels), Number(values.zips));
  /** Each server its own data directory: the embedded database has one owner. */
  const envOf = (name: ServerName): Record<string, string> => {
    const dataDir = join(home, name);
    mkdirSync(dataDir, { recursive: true });
    return {
      PORT: "0",
      DATA_DIR: dataDir,
      DEMO_API_KEY: BENCH_KEY,
      INDEX: indexDir,
      LOG_LEVEL: "info", // the service says where it listens at info; per-request logging is off
      NODE_ENV: "production",
      WORKERS: "1",
    };
  };
  const floorServer = projectPath("dist", "tools", "bench", "floor-server.js");
  const servers = new Map<ServerName, ServerProcess>();
  try {
    for (const name of SERVERS) {
      servers.set(
        name,
        name === "service"
          ? await startBenchService(envOf(name))
          : await startServer(floorServer, envOf(name), 60_000, [name]),
      );
    }
    const scenarios = buildScenarios(BENCH_KEY, parcels).filter((scenario) =>
      values.only.split(",").includes(scenario.name),
    );
    const rows: Row[] = [];
    for (const scenario of scenarios) {
      for (const name of SERVERS)
        if (warmup > 0) await drive(servers.get(name)!, scenario, warmup, connections);
      const bare: Figures[] = [];
      const measured = new Map<ServerName, Figures[]>(SERVERS.map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        const baseline = await bareRound(seconds, bareWarmup, connections);
        bare.push(baseline);
        for (const name of SERVERS) {
          const figures = await drive(servers.get(name)!, scenario, seconds, connections);
          figures.bareRequestsPerSecond = baseline.requestsPerSecond;
          figures.ratioToBare = figures.requestsPerSecond / baseline.requestsPerSecond;
          if (baseline.cpu !== undefined) figures.bareCpuMicros = baseline.cpu.server;
          measured.get(name)!.push(figures);
        }
        process.stderr.write(
          `${scenario.name} round ${round + 1}: bare ${baseline.requestsPerSecond.toFixed(0)}, ${SERVERS.map(
            (name) => `${name} ${measured.get(name)![round]!.requestsPerSecond.toFixed(0)}`,
          ).join(", ")} req/s\n`,
        );
      }
      rows.push({ ...summary(scenario.name, "bare", bare, (row) => row.requestsPerSecond), ofBare: 1 });
      for (const name of SERVERS)
        rows.push(summary(scenario.name, name, measured.get(name)!, (row) => row.ratioToBare!));
      const floor = measured.get("floor")!;
      for (const row of rows.slice(-SERVERS.length)) {
        if (!LEDGERS.includes(row.server as ServerName)) continue;
        const ofFloor = row.rounds.map((round, i) => round.requestsPerSecond / floor[i]!.requestsPerSecond);
        row.ofFloor = ofFloor.sort((a, b) => a - b)[Math.floor((ofFloor.length - 1) / 2)];
      }
    }
    // After the load, with the servers idle: the work in this process, for the CPU ratios.
    const costs = await inProcessCosts({ ...process.env, ...envOf("floor") }, scenarios);
    for (const row of rows) {
      if (row.server === "bare") continue;
      const cpuRatio = medianCpuRatio(row.rounds, costs.get(row.request));
      if (cpuRatio !== undefined) row.cpuRatio = cpuRatio;
    }
    process.stdout.write(`${table(rows)}\n`);
    writeResults("floor", { seconds, rounds, connections, rows });
    const failed = rows.filter((row) => row.errors > 0 || row.non2xx > 0);
    if (failed.length > 0) {
      process.stderr.write(
        `requests failed: ${failed.map((row) => `${row.request} ${row.server}`).join(", ")}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    for (const server of servers.values()) await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** A server's rounds as one row: the round of median `ratio`, with every round's failures. */
function summary(
  request: string,
  server: Row["server"],
  rounds: Figures[],
  ratio: (row: Figures) => number,
): Row {
  const median = medianBy(rounds, ratio);
  return {
    request,
    server,
    requestsPerSecond: median.requestsPerSecond,
    p99Ms: median.p99Ms,
    ofBare: ratio(median),
    ...(median.cpu ? { cpuMicros: median.cpu.server } : {}),
    errors: rounds.reduce((sum, row) => sum + row.errors, 0),
    non2xx: rounds.reduce((sum, row) => sum + row.non2xx, 0),
    rounds,
  };
}

function table(rows: Row[]): string {
  const header = [
    "request",
    "server",
    "req/s",
    "p99 ms",
    "of bare",
    "of floor",
    "CPU µs/req",
    "CPU ratio (≤1.5×)",
    "non-2xx",
  ];
  const lines = rows.map((row) => [
    row.request,
    row.server,
    row.requestsPerSecond.toFixed(0),
    row.p99Ms.toFixed(2),
    `${(row.ofBare * 100).toFixed(1)}%`,
    row.ofFloor === undefined ? "" : `${(row.ofFloor * 100).toFixed(1)}%`,
    row.cpuMicros === undefined ? "" : row.cpuMicros.toFixed(1),
    row.cpuRatio === undefined ? "" : `${row.cpuRatio.toFixed(2)}×`,
    String(row.non2xx),
  ]);
  return alignedTable(header, lines);
}

await main();
