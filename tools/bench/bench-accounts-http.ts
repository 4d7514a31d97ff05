import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { projectPath } from "../../src/paths.js";
import { cpuTimes, flag, scratchDatabase, stolenShare } from "./bench-support.js";

/**
 * Parse over HTTP with accounts and billing on (PostgreSQL at --url, group commit, request log)
 * against the same server with them off, side by side in one run: the two servers run at once
 * and are loaded in turn, `--rounds` times each, so drift of the machine hits both alike. Each
 * round also gives the server's CPU time per request (Linux): the whole process, and its main
 * thread apart (the rest is PGlite's thread, the journal's writes and V8's helpers; PostgreSQL's
 * own processes are not counted).
 *   node dist/tools/bench/bench-accounts-http.js [--url postgres://…/test] [--embedded]
 *        [--connections 50] [--seconds 5] [--rounds 3] [--warmup 5]
 */
const KEY = "sk_bench_0123456789abcdefghijklmnopqrstuv";
const connections = Number(flag("connections", "50"));
const seconds = Number(flag("seconds", "5"));
const rounds = Number(flag("rounds", "3"));
const warmup = Number(flag("warmup", "5"));
const embedded = process.argv.includes("--embedded");
const scratch = embedded
  ? null
  : await scratchDatabase(flag("url", "postgres://postgres@127.0.0.1:5432/test"));

/** Starts a bench server and resolves once it listens; the caller stops it. */
async function server(mode: "on" | "off", port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: String(port),
    DEMO_API_KEY: KEY,
    LOG_LEVEL: "warn",
    ...(process.env.USAGE_COMMIT_WINDOW_MS
      ? { USAGE_COMMIT_WINDOW_MS: process.env.USAGE_COMMIT_WINDOW_MS }
      : {}),
  };
  if (scratch) env.DATABASE_URL = scratch.url;
  else env.DATA_DIR = join(tmpdir(), `situs-bench-${process.pid}`);
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
  /** CPU µs per request of the server process and of its main thread; undefined without /proc. */
  cpu?: { all: number; main: number };
  /** Share of the machine's CPU time its host took for other guests meanwhile. */
  stolen?: number;
}

async function load(server: ChildProcess, port: number, duration = seconds): Promise<Round> {
  const before = cpuMicros(server.pid!);
  const machineBefore = cpuTimes();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/verify/parse`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington DC 20500" }),
    connections,
    duration,
  });
  const after = cpuMicros(server.pid!);
  const requests = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    stolen: stolenShare(machineBefore),
    ...(before && after
      ? { cpu: { all: (after.all - before.all) / requests, main: (after.main - before.main) / requests } }
      : {}),
  };
}

/** CPU time used so far by a process and by its main thread, in µs (clock ticks of 10 ms). */
function cpuMicros(pid: number): { all: number; main: number } | undefined {
  const ticks = (path: string) => {
    const stat = readFileSync(path, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime
  };
  try {
    return { all: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return undefined;
  }
}

function describe(round: Round): string {
  const cpu = round.cpu
    ? `, CPU ${round.cpu.all.toFixed(0)} µs/request (${round.cpu.main.toFixed(0)} on its main thread)`
    : "";
  const stolen =
    round.stolen === undefined ? "" : `, ${(round.stolen * 100).toFixed(1)}% of the machine's CPU stolen`;
  return `${round.rps.toFixed(0)} req/s (p99 ${round.p99} ms, non-2xx ${round.non2xx}${cpu}${stolen})`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const children: ChildProcess[] = [];
try {
  const offServer = await server("off", 18_301);
  const onServer = await server("on", 18_302);
  children.push(offServer, onServer);
  // Each server warms up alone under the full load before anything is measured: loaded at once,
  // each got half the machine, and the server with accounts on (more code to compile, and
  // PGlite's thread) measured its first round at up to half again the CPU time per request of
  // its later rounds.
  if (warmup > 0) {
    await load(offServer, 18_301, warmup);
    await load(onServer, 18_302, warmup);
  }
  const off: number[] = [];
  const on: number[] = [];
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
    off.push(a.rps);
    on.push(b.rps);
    console.log(`round ${round}: off ${describe(a)}; on ${describe(b)}`);
  }
  const ratio = median(on) / median(off);
  console.log(
    `parse over HTTP, ${connections} connections, ${rounds}×${seconds} s each, accounts on ${embedded ? "PGlite" : "PostgreSQL"}: ` +
      `median off ${median(off).toFixed(0)} req/s, on ${median(on).toFixed(0)} req/s = ${(ratio * 100).toFixed(1)}% (target >= 85%)`,
  );
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  await scratch?.drop();
  if (!scratch) rmSync(join(tmpdir(), `situs-bench-${process.pid}`), { recursive: true, force: true });
}
