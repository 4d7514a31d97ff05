import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { projectPath } from "../../src/paths.js";
import { flag, scratchDatabase } from "./bench-support.js";

/**
 * Parse over HTTP with accounts and billing on (PostgreSQL at --url, group commit, request log)
 * against the same server with them off, side by side in one run: the two servers run at once
 * and are loaded in turn, `--rounds` times each, so drift of the machine hits both alike.
 *   node dist/tools/bench/bench-accounts-http.js [--url postgres://…/test] [--embedded]
 *        [--connections 50] [--seconds 5] [--rounds 3] [--warmup 2]
 */
const KEY = "sk_bench_0123456789abcdefghijklmnopqrstuv";
const connections = Number(flag("connections", "50"));
const seconds = Number(flag("seconds", "5"));
const rounds = Number(flag("rounds", "3"));
const warmup = Number(flag("warmup", "2"));
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

async function load(port: number, duration = seconds): Promise<{ rps: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/verify/parse`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington DC 20500" }),
    connections,
    duration,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const children: ChildProcess[] = [];
try {
  children.push(await server("off", 18_301), await server("on", 18_302));
  // The compiler warms up on both before anything is measured.
  if (warmup > 0) await Promise.all([load(18_301, warmup), load(18_302, warmup)]);
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const a = await load(18_301);
    const b = await load(18_302);
    off.push(a.rps);
    on.push(b.rps);
    console.log(
      `round ${round}: off ${a.rps.toFixed(0)} req/s (p99 ${a.p99} ms, non-2xx ${a.non2xx}); ` +
        `on ${b.rps.toFixed(0)} req/s (p99 ${b.p99} ms, non-2xx ${b.non2xx})`,
    );
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
