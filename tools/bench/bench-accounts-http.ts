import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { projectPath } from "../../src/paths.js";
import { flag, median, scratchDatabase, startCpuMeter } from "./bench-support.js";
import type { CpuSpent } from "./bench-support.js";

/**
 * Parse over HTTP with accounts and billing on (PostgreSQL at --url, group commit, request log)
 * against the same server with them off, side by side in one run: the two servers run at once
 * and are loaded in turn, `--rounds` times each, so drift of the machine hits both alike. Each
 * round also gives the CPU time per request (Linux) of the server process, of its main thread
 * apart (the rest is PGlite's thread, the journal's writes and V8's helpers), of the load
 * generator (this process) and of the rest of the machine (PostgreSQL's processes, when used);
 * the last line sums up the main thread's over every round.
 * This is done for `--sets` sets of fresh processes, and the figure is the median of every
 * round's ratio: two processes of the same build differ by up to a sixth for as long as they
 * live (docs/performance.md), so one pair alone could show a gain or a loss of its own.
 *   node dist/tools/bench/bench-accounts-http.js [--url postgres://…/test] [--embedded]
 *        [--connections 50] [--seconds 5] [--rounds 3] [--warmup 5] [--sets 3]
 */
const KEY = "sk_bench_0123456789abcdefghijklmnopqrstuv";
const connections = Number(flag("connections", "50"));
const seconds = Number(flag("seconds", "5"));
const rounds = Number(flag("rounds", "3"));
const warmup = Number(flag("warmup", "5"));
const sets = Math.max(1, Number(flag("sets", "3")));
const embedded = process.argv.includes("--embedded");

/** Where a set's server with accounts on keeps them: a fresh database or data directory. */
interface AccountsHome {
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

async function accountsHome(set: number): Promise<AccountsHome> {
  if (!embedded) {
    const scratch = await scratchDatabase(flag("url", "postgres://postgres@127.0.0.1:5432/test"));
    return { env: { DATABASE_URL: scratch.url }, remove: () => scratch.drop() };
  }
  const dir = join(tmpdir(), `situs-bench-${process.pid}-${set}`);
  return { env: { DATA_DIR: dir }, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts a bench server and resolves once it listens; the caller stops it. */
async function server(mode: "on" | "off", port: number, home: AccountsHome): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: String(port),
    DEMO_API_KEY: KEY,
    LOG_LEVEL: "warn",
    ...(process.env.USAGE_COMMIT_WINDOW_MS
      ? { USAGE_COMMIT_WINDOW_MS: process.env.USAGE_COMMIT_WINDOW_MS }
      : {}),
  };
  Object.assign(env, home.env);
  const child = spawn(process.execPath, [projectPath("dist", "tools", "bench", "bench-server.js"), mode], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`bench server ${mode} exited with ${code}`)));
  });
  return child;
}

interface Round {
  rps: number;
  p99: number;
  non2xx: number;
  /** CPU µs a request of the machine, the server, its main thread and the load generator (Linux). */
  cpu?: CpuSpent;
}

async function load(server: ChildProcess, port: number, duration = seconds): Promise<Round> {
  const meter = startCpuMeter(server.pid!);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/verify/parse`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington DC 20500" }),
    connections,
    duration,
  });
  const cpu = meter.stop(result.requests.total);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    ...(cpu ? { cpu } : {}),
  };
}

function describe(round: Round): string {
  const spent = round.cpu;
  const cpu = spent
    ? `, CPU µs/request: server ${spent.server.toFixed(0)} (${spent.serverMain.toFixed(0)} on its main thread), ` +
      `load generator ${spent.generator.toFixed(0)}, the rest of the machine ` +
      `${Math.max(0, spent.machine - spent.server - spent.generator).toFixed(0)}; ${spent.coresBusy.toFixed(2)} cores busy`
    : "";
  const stolen = spent ? `, ${(spent.stolen * 100).toFixed(1)}% of the machine's CPU stolen` : "";
  return `${round.rps.toFixed(0)} req/s (p99 ${round.p99} ms, non-2xx ${round.non2xx}${cpu}${stolen})`;
}

/** Stops a server and resolves once it has exited (its accounts written away). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** One set: fresh servers, warmed up, loaded in turn `rounds` times; the rounds' figures. */
async function measureSet(set: number): Promise<{ off: Round[]; on: Round[] }> {
  const home = await accountsHome(set);
  const children: ChildProcess[] = [];
  try {
    const offServer = await server("off", 18_301, home);
    children.push(offServer);
    const onServer = await server("on", 18_302, home);
    children.push(onServer);
    // Each server warms up alone under the full load before anything is measured: loaded at once,
    // each got half the machine, and the server with accounts on (more code to compile, and
    // PGlite's thread) measured its first round at up to half again the CPU time per request of
    // its later rounds.
    if (warmup > 0) {
      await load(offServer, 18_301, warmup);
      await load(onServer, 18_302, warmup);
    }
    const off: Round[] = [];
    const on: Round[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so a machine slowing down or speeding up hits both alike.
      let a: Round, b: Round;
      if (round % 2 === 1) {
        a = await load(offServer, 18_301);
        b = await load(onServer, 18_302);
      } else {
        b = await load(onServer, 18_302);
        a = await load(offServer, 18_301);
      }
      off.push(a);
      on.push(b);
      console.log(`set ${set}, round ${round}: off ${describe(a)}; on ${describe(b)}`);
    }
    return { off, on };
  } finally {
    await Promise.all(children.map(stop));
    await home.remove();
  }
}

/** "min to max" of a figure over rounds, rounded to whole units. */
const span = (values: number[]) => `${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)}`;

/**
 * The main thread's CPU a request over every round, and how much of its time it ran: with
 * accounts on it spends more a request, and the ratio can reach 85% only if that extra stays
 * under about a sixth of off's (docs/accounts.md "Measured").
 */
function mainThreadSummary(offRounds: Round[], onRounds: Round[]): string {
  const pairs = offRounds.flatMap((off, index) => {
    const on = onRounds[index]!;
    return off.cpu && on.cpu ? [{ off, on, offCpu: off.cpu, onCpu: on.cpu }] : [];
  });
  if (pairs.length === 0) return "";
  const busy = (round: Round, cpu: CpuSpent) => (cpu.serverMain * round.rps) / 1e4;
  return (
    `main thread µs/request: off ${span(pairs.map((pair) => pair.offCpu.serverMain))}, ` +
    `on ${span(pairs.map((pair) => pair.onCpu.serverMain))} ` +
    `(median ${median(pairs.map((pair) => pair.onCpu.serverMain - pair.offCpu.serverMain)).toFixed(0)} more in the same round); ` +
    `it ran ${span(pairs.map((pair) => busy(pair.off, pair.offCpu)))}% of the time off, ` +
    `${span(pairs.map((pair) => busy(pair.on, pair.onCpu)))}% on`
  );
}

const ratios: number[] = [];
const offRates: number[] = [];
const onRates: number[] = [];
const offRounds: Round[] = [];
const onRounds: Round[] = [];
for (let set = 1; set <= sets; set++) {
  const { off, on } = await measureSet(set);
  off.forEach((round, index) => ratios.push(on[index]!.rps / round.rps));
  offRates.push(...off.map((round) => round.rps));
  onRates.push(...on.map((round) => round.rps));
  offRounds.push(...off);
  onRounds.push(...on);
  console.log(
    `set ${set}: on/off ${on.map((round, index) => (round.rps / off[index]!.rps).toFixed(3)).join(", ")}`,
  );
}
console.log(
  `parse over HTTP, ${connections} connections, ${sets} sets of fresh servers × ${rounds} rounds × ${seconds} s, accounts on ${embedded ? "PGlite" : "PostgreSQL"}: ` +
    `median off ${median(offRates).toFixed(0)} req/s, on ${median(onRates).toFixed(0)} req/s; ` +
    `median of the rounds' on/off = ${(median(ratios) * 100).toFixed(1)}% (target >= 85%)`,
);
const summary = mainThreadSummary(offRounds, onRounds);
if (summary !== "") console.log(summary);
