import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { projectPath } from "../../src/paths.js";

/** The quick start, as a user runs it: `bin/situs serve` on a fresh data directory. */
const BIN = projectPath("bin", "situs");
const dataDirs: string[] = [];
const children = new Set<ChildProcess>();
after(() => {
  // A failed assertion must not leave a server running: its pipes would keep this file alive.
  for (const child of children) child.kill("SIGKILL");
  dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "situs-serve-"));
  dataDirs.push(dir);
  return dir;
}

interface Running {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** Starts the service and resolves once it logs the address it listens on. */
function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [BIN, "serve"], {
    // Start-up is tested here, not shedding: a busy machine must not turn answers into 503s.
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "info",
      SHED_EVENT_LOOP_DELAY_MS: "0",
      KEY_CHECK_TIMEOUT_MS: "20000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // a start that never comes must not keep the test file running
      reject(new Error(`no listen line; stderr: ${stderr}`));
    }, 60_000); // generous: a fresh start runs migrations and one scrypt hash, slow on a loaded machine
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening at (https?:\/\/[\d.]+:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, stderr: () => stderr });
      }
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}; stderr: ${stderr}`)));
  });
}

function stop(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    running.child.removeAllListeners("exit");
    running.child.on("exit", (code) => resolve(code));
    running.child.kill("SIGTERM");
  });
}

const parse = (url: string, key: string) =>
  fetch(`${url}/v1/verify/parse`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington DC 20500" }),
  });

describe("bin/situs serve", () => {
  test("first start creates and prints the demo key once; it works and survives a restart", async () => {
    const dataDir = freshDataDir();
    const first = await start({ DATA_DIR: dataDir });
    // The key goes to stderr, the listen line to stdout: two pipes, so the key may arrive later.
    let key: string | undefined;
    for (let wait = 0; wait < 100 && key === undefined; wait++) {
      key = /Demo API key[^\n]*\n\s+(\S+)/.exec(first.stderr())?.[1];
      if (key === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(key, `key printed: ${first.stderr()}`);
    assert.equal((await parse(first.url, key)).status, 200);
    assert.equal(await stop(first), 0);

    const second = await start({ DATA_DIR: dataDir });
    assert.doesNotMatch(second.stderr(), /Demo API key/);
    assert.equal((await parse(second.url, key)).status, 200);
    assert.equal(await stop(second), 0);
  });

  test("DEMO_API_KEY fixes the demo key", async () => {
    const running = await start({
      DATA_DIR: freshDataDir(),
      DEMO_API_KEY: "sk_fixed_demo_key_for_tests_0001",
    });
    assert.equal((await parse(running.url, "sk_fixed_demo_key_for_tests_0001")).status, 200);
    assert.equal((await parse(running.url, "sk_other")).status, 401);
    await stop(running);
  });

  test("HTTPS when TLS_CERT and TLS_KEY are given", async () => {
    const running = await start({
      DATA_DIR: freshDataDir(),
      DEMO_API_KEY: "sk_tls",
      WORKERS: "1",
      TLS_CERT: projectPath("test", "fixtures", "tls", "cert.pem"),
      TLS_KEY: projectPath("test", "fixtures", "tls", "key.pem"),
    });
    assert.match(running.url, /^https:/);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        `${running.url}/v1/verify/parse`,
        { method: "POST", rejectUnauthorized: false, headers: { authorization: "Bearer sk_tls" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ line: "1 MAIN ST" }));
    });
    assert.equal(status, 200);
    await stop(running);
  });

  test("a bad configuration stops the start with a clear message", () => {
    const result = spawnSync(process.execPath, [BIN, "serve"], {
      env: { ...process.env, PORT: "nope" },
      encoding: "utf8",
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /PORT must be an integer/);
  });
});

describe("bin/situs", () => {
  test("--help lists the commands and the configuration", () => {
    const result = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
    assert.equal(result.status, 0);
    assert.match(result.stdout, /serve/);
    assert.match(result.stdout, /DATA_DIR/);
  });

  test("a reader that stops early (situs ... | head) ends the command quietly", async () => {
    const child = spawn(process.execPath, [BIN, "parse", "--input", "-"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.once("data", () => child.stdout!.destroy()); // like `head -1`
    child.stdin!.on("error", () => {}); // the command may be gone before it read all its input
    child.stdin!.end("1 MAIN ST, SPRINGFIELD IL 62701\n".repeat(50_000));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE/);
  });

  test("an unknown command exits 2 with usage", () => {
    const result = spawnSync(process.execPath, [BIN, "frobnicate"], { encoding: "utf8" });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown command/);
  });
});
