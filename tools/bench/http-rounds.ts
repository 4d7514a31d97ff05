/**
 * What the HTTP benchmarks share: the figures of a stretch of load, driving a server with
 * autocannon, the synthetic national index, a round of a fresh bare server, and the service
 * started as a user runs it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { encodeUlid } from "../../src/parcels/format/binary-ulid.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { projectPath } from "../../src/paths.js";
import { buildSyntheticIndex } from "../parcels/synthetic-index.js";
import { median, startCpuMeter } from "./bench-support.js";
import type { CpuSpent } from "./bench-support.js";
import { startServer } from "./processes.js";
import type { ServerProcess } from "./processes.js";
import { requestsOf } from "./scenarios.js";
import type { SampledParcel, Scenario } from "./scenarios.js";

export const BENCH_KEY = "sk_bench_0123456789abcdefghijklmnopqrstu";

export interface Figures {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  non2xx: number;
  errors: number;
  ratioToBare?: number;
  /** The bare server's req/s in the round paired with this one. */
  bareRequestsPerSecond?: number;
  /** Every round of a request type, each with its paired bare round's req/s and the ratio. */
  rounds?: Figures[];
  rssUnderLoadBytes?: number;
  /** CPU µs of the same work in process (no HTTP, accounts or billing). */
  inProcessMicros?: number;
  /** The bare server's process CPU per request in the round paired with this one (Linux), µs. */
  bareCpuMicros?: number;
  /**
   * The headline: the server's process CPU per request over (the bare server's CPU per request
   * + the in-process cost of the work), the median over the rounds; target at most 1.5.
   */
  cpuRatio?: number;
  /** Where the CPU went, in µs a request, and the cores busy (Linux). */
  cpu?: CpuSpent;
}

export async function drive(
  server: ServerProcess,
  scenario: Scenario,
  seconds: number,
  connections: number,
): Promise<Figures> {
  let peakRss = 0;
  const meter = startCpuMeter(server.child.pid ?? 0);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssBytes())), 500);
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: requestsOf(scenario),
  });
  clearInterval(sampler);
  const cpu = meter.stop(result.requests.total);
  return {
    name: scenario.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    p999Ms: result.latency.p99_9,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rssUnderLoadBytes: peakRss,
    ...(cpu ? { cpu } : {}),
  };
}

/**
 * bench:http's headline over a request type's rounds: the median of each round's server CPU per
 * request over (its paired bare round's + the in-process cost of the work); undefined where the
 * CPU figures are missing (not Linux).
 */
export function medianCpuRatio(
  rounds: readonly Figures[],
  inProcess: number | undefined,
): number | undefined {
  const ratios = rounds.flatMap((round) =>
    inProcess === undefined || round.cpu === undefined || round.bareCpuMicros === undefined
      ? []
      : [round.cpu.server / (round.bareCpuMicros + inProcess)],
  );
  return ratios.length === 0 ? undefined : median(ratios);
}

/** The round whose `key` is the median (the lower of the two middle ones for an even count). */
export function medianBy(rounds: Figures[], key: (row: Figures) => number): Figures {
  const sorted = [...rounds].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * A synthetic national index of `parcels` parcels in `zips` ZIPs, built into `dir`, and a spread
 * sample of its parcels (about 2,000) for the lookups to ask for.
 */
export async function syntheticIndex(dir: string, parcels: number, zips: number): Promise<SampledParcel[]> {
  const sample: SampledParcel[] = [];
  const every = Math.max(1, Math.floor(parcels / 2000));
  let seen = 0;
  const started = Date.now();
  await buildSyntheticIndex(new LocalBlobStore(dir), parcels, zips, (entry) => {
    if (seen++ % every !== 0 || entry.alias) return;
    sample.push({
      serviceId: `adr_${encodeUlid(entry.id)}`,
      addressNumber: entry.addressNumber,
      streetName: entry.streetName,
      streetSuffix: entry.streetSuffix,
      zip5: entry.zip5,
      status: entry.status,
    });
  });
  process.stderr.write(
    `synthetic index: ${seen} entries in ${zips} ZIPs, built in ${(Date.now() - started) / 1000} s\n`,
  );
  return sample;
}

const BARE_SCENARIO: Scenario = {
  name: "bare",
  method: "POST",
  paths: ["/bare"],
  headers: { "content-type": "application/json" },
  bodies: ['{"line":"1 MAIN ST"}'],
};

/**
 * A round of a fresh bare server (bare-server.ts), after `warmup` seconds of its own: two
 * processes of the same server differ by up to a sixth for as long as they live, so one bare
 * process would lend its own luck to every ratio of a run.
 */
export async function bareRound(seconds: number, warmup: number, connections: number): Promise<Figures> {
  const bare = await startServer(projectPath("dist", "tools", "bench", "bare-server.js"), { PORT: "0" });
  try {
    if (warmup > 0) await drive(bare, BARE_SCENARIO, warmup, connections);
    return await drive(bare, BARE_SCENARIO, seconds, connections);
  } finally {
    await bare.stop();
  }
}

/**
 * The service as a user runs it (dist/src/main.js) on `env`, with credit for a long run. The
 * demo team's credit (1,000 units) would run out within seconds at benchmark rates, and every
 * later answer would be a 402: the first start creates the team, the operator adds credit (the
 * embedded database is free while the service is stopped), and the service starts again.
 */
export async function startBenchService(env: Record<string, string>): Promise<ServerProcess> {
  const main = projectPath("dist", "src", "main.js");
  const first = await startServer(main, env);
  await first.stop();
  execFileSync(
    process.execPath,
    [projectPath("bin", "situs"), "admin", "credit", "add", "team_demo", "1000000000"],
    {
      env: { ...process.env, ...env },
    },
  );
  return startServer(main, env);
}

/** Rows of cells as a table of right-aligned columns, the header first. */
export function alignedTable(header: readonly string[], lines: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  return [header, ...lines]
    .map((line) => line.map((cell, column) => cell.padStart(widths[column]!)).join("  "))
    .join("\n");
}

/** Writes a run's figures to bench/results/`name`-<time>.json and says where. */
export function writeResults(name: string, figures: Record<string, unknown>): void {
  const resultsDir = projectPath("bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  const at = new Date().toISOString();
  const file = join(resultsDir, `${name}-${at.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ at, ...figures }, null, 2)}\n`);
  process.stdout.write(`figures written to ${file}\n`);
}
