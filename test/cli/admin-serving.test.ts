import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { startService } from "../support/service-process.js";

/** `bin/situs admin` in its own process, on the embedded database in `dataDir`. */
function admin(
  dataDir: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [projectPath("bin", "situs"), "admin", ...args], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, SITUS_PASSWORD: "a long portal password" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

async function ok(dataDir: string, ...args: string[]): Promise<string> {
  const result = await admin(dataDir, ...args);
  assert.equal(result.status, 0, `situs admin ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
}

const parse = (url: string, key: string): Promise<number> =>
  fetch(`${url}/v1/verify/parse`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ line: "1600 Pennsylvania Ave NW, Washington, DC 20500" }),
  }).then((response) => response.status);

for (const workers of ["1", "2"]) {
  test(`situs admin while the service runs on the embedded database (WORKERS=${workers})`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "situs-admin-serving-"));
    const service = await startService({ DATA_DIR: dataDir, WORKERS: workers });
    try {
      const socket = join(dataDir, "admin.sock");
      assert.equal(statSync(socket).mode & 0o777, 0o600, "only the owner can reach the socket");
      const teamId = await ok(dataDir, "team", "create", "Acme", "--credit", "5");
      assert.match(teamId, /^team_[0-9A-Z]{26}$/);
      const [keyId, secret] = (await ok(dataDir, "key", "create", teamId, "--name", "live")).split("\n");
      assert.equal(await parse(service.url, secret!), 200, "a key made while serving works at once");
      const teams = JSON.parse(await ok(dataDir, "team", "list", "--json")) as { teamId: string }[];
      assert.ok(teams.some((team) => team.teamId === teamId));
      assert.match(await ok(dataDir, "user", "create", teamId, "ops@example.com"), /^usr_/);
      const refused = await admin(dataDir, "usage", teamId, "--month", "2026-13");
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /--month must be a month written YYYY-MM/);
      const unknown = await admin(dataDir, "team", "explode");
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /Usage: situs admin/);
      assert.equal(await ok(dataDir, "key", "revoke", keyId!), "ok");
      let status = 200;
      for (let tries = 0; tries < 50 && status === 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await parse(service.url, secret!);
      }
      assert.equal(status, 401, "the running service refuses a key revoked through the socket");
      await service.stop();
      assert.equal(existsSync(socket), false, "the socket goes with the service");
      // Stopped: the command line opens the database itself, with the same output.
      const usage = await ok(dataDir, "usage", teamId);
      assert.match(usage, new RegExp(`^${teamId} \\d{4}-\\d{2}\\n  parse\\s+1\\s`));
    } finally {
      await service.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
