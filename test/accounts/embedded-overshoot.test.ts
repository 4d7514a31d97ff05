import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { startService } from "../support/service-process.js";

/**
 * Spend past zero on the embedded database with two workers (two lease holders, the primary
 * granting from PGlite): 256 connections at once on a balance worth 10 parses, and on a budget
 * of 5, get at most 5 answers per worker past it.
 */
function admin(dataDir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [projectPath("bin", "situs"), "admin", ...args], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (status) =>
      status === 0 ? resolve(stdout.trim()) : reject(new Error(`situs admin ${args.join(" ")}: ${stderr}`)),
    );
  });
}

function parse(agent: Agent, url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/v1/verify/parse`,
      {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end('{"line":"1 Main St, Springfield IL 62701"}');
  });
}

async function flood(url: string, key: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const statuses: number[] = [];
  try {
    for (let round = 0; round < 3; round++)
      statuses.push(...(await Promise.all(Array.from({ length: 256 }, () => parse(agent, url, key)))));
  } finally {
    agent.destroy();
  }
  return statuses;
}

test("embedded, two workers, 256 connections: at most 5 answers per worker past the balance or budget", async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), "situs-overshoot-"));
  const service = await startService({ DATA_DIR: dataDir, WORKERS: "2", SHED_EVENT_LOOP_DELAY_MS: "0" });
  try {
    const poor = await admin(dataDir, "team", "create", "Poor", "--credit", "0.01"); // 10 parses
    const [, poorKey] = (await admin(dataDir, "key", "create", poor)).split("\n");
    const capped = await admin(dataDir, "team", "create", "Capped", "--credit", "100");
    await admin(dataDir, "budget", "set", capped, "0.005"); // 5 parses a month
    const [, cappedKey] = (await admin(dataDir, "key", "create", capped)).split("\n");

    const onCredit = await flood(service.url, poorKey!);
    const onBudget = await flood(service.url, cappedKey!);
    const answered = (statuses: number[]) => statuses.filter((status) => status === 200).length;
    t.diagnostic(`answered ${answered(onCredit)} on credit for 10, ${answered(onBudget)} on a budget of 5`);
    assert.ok(
      answered(onCredit) >= 1 && answered(onCredit) <= 10 + 2 * 5,
      `${answered(onCredit)} answers on 10`,
    );
    assert.ok(
      answered(onBudget) >= 1 && answered(onBudget) <= 5 + 2 * 5,
      `${answered(onBudget)} answers on 5`,
    );
    assert.deepEqual(new Set(onCredit.filter((status) => status !== 200)), new Set([402]));
    assert.deepEqual(new Set(onBudget.filter((status) => status !== 200)), new Set([402]));
    await service.stop();
    const usage = await admin(dataDir, "usage", poor);
    assert.match(usage, new RegExp(`parse\\s+${answered(onCredit)}\\s`), "every answer billed");
  } finally {
    await service.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
