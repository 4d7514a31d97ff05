import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { projectPath } from "../../src/paths.js";

/**
 * WORKERS=2 on the embedded database, as `npm start` runs on a two-core laptop: both workers
 * answer, billing and the unknown-key limit behave as in one process, a killed worker is
 * replaced, and SIGTERM stops everything.
 */
const BIN = projectPath("bin", "situs");
const KEY = "sk_workers_test_key_0000000000000000";
const dataDir = mkdtempSync(join(tmpdir(), "situs-workers-"));
let primary: ChildProcess | undefined;
after(() => {
  primary?.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function post(port: number, key: string, from = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    // A new connection per request: the primary hands connections to workers in turn.
    const req = request(
      {
        host: "127.0.0.1",
        localAddress: from,
        port,
        method: "POST",
        path: "/v1/verify/parse",
        agent: false,
        headers: { authorization: `Bearer ${key}`, connection: "close" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ line: "1 MAIN ST, SPRINGFIELD IL 62701" }));
  });
}

function workerPids(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children === "" ? [] : children.split(/\s+/).map(Number);
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("two workers share billing and the unknown-key limit; a killed worker is replaced", async () => {
  const child = spawn(process.execPath, [BIN, "serve"], {
    env: {
      ...process.env,
      PORT: "0",
      WORKERS: "2",
      DATA_DIR: dataDir,
      DEMO_API_KEY: KEY,
      UNKNOWN_KEY_LIMIT: "4",
      LOG_LEVEL: "info",
      // What is tested here is the cluster: a busy CI machine must not turn answers into 503s.
      SHED_EVENT_LOOP_DELAY_MS: "0",
      KEY_CHECK_TIMEOUT_MS: "20000",
      DATABASE_TIMEOUT_MS: "20000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  primary = child;
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const port = await waitFor(() => {
    const listening = [...output.matchAll(/listening at http:\/\/127\.0\.0\.1:(\d+)/g)];
    return listening.length >= 2 ? Number(listening[0]![1]) : undefined;
  }, "two workers listening");
  assert.equal(workerPids(child.pid!).length, 2);

  const statuses = await Promise.all(Array.from({ length: 20 }, () => post(port, KEY)));
  assert.deepEqual(new Set(statuses), new Set([200]), `statuses: ${statuses}`);

  const guesses: number[] = [];
  for (let i = 0; i < 6; i++) guesses.push(await post(port, `sk_guess_${i}`));
  assert.deepEqual(
    guesses,
    [401, 401, 401, 401, 429, 429],
    `the limit counts across both workers: ${guesses}`,
  );

  // Workers on the embedded database serve the API only; the portal says why it is not here.
  const portal = await fetch(`http://127.0.0.1:${port}/portal/`);
  assert.equal(portal.status, 503);
  assert.match(await portal.text(), /WORKERS=1/);

  const [victim] = workerPids(child.pid!);
  process.kill(victim!, "SIGKILL");
  await waitFor(() => {
    const pids = workerPids(child.pid!);
    return pids.length === 2 && !pids.includes(victim!) ? pids : undefined;
  }, "a replacement worker");
  await waitFor(
    () => ([...output.matchAll(/listening at/g)].length >= 3 ? true : undefined),
    "the replacement listening",
  );
  // From another client: 127.0.0.1 is over the unknown-key limit this minute, and the replacement
  // worker, which knows no key yet, would refuse it before looking its key up.
  const after = await Promise.all(Array.from({ length: 10 }, () => post(port, KEY, "127.0.0.3")));
  assert.deepEqual(new Set(after), new Set([200]), `statuses after the restart: ${after}`);

  const exitCode = await new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
  assert.equal(exitCode, 0);

  // Every 200 was billed exactly once, and nothing else was.
  const usage = spawnSync(process.execPath, [BIN, "admin", "usage", "team_demo"], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  assert.equal(usage.status, 0, usage.stderr);
  assert.match(usage.stdout, /parse\s+30\s/, usage.stdout);
});
