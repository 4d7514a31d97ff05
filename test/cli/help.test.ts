import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { projectPath } from "../../src/paths.js";

const run = promisify(execFile);
const SITUS = projectPath("bin", "situs");

const COMMANDS = ["serve", "parse", "admin", "admin keys", "ingest", "remove", "export", "lookup"];

test("--help of every command prints its usage, exits 0 and does nothing else", async () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-help-"));
  try {
    const runs = [...COMMANDS.map((command) => `${command} --help`), "parse -h"];
    for (const line of runs) {
      const args = [...line.split(" "), "--index", join(dir, "index")];
      const { stdout } = await run(process.execPath, [SITUS, ...args], {
        cwd: dir,
        env: { ...process.env, DATA_DIR: join(dir, "var") },
        timeout: 20_000,
      });
      assert.match(stdout, /^Usage/, line);
    }
    // No server started, no index or database written.
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--version prints the package's version", async () => {
  const { version } = JSON.parse(readFileSync(projectPath("package.json"), "utf8")) as { version: string };
  for (const flag of ["--version", "-V"]) {
    const { stdout } = await run(process.execPath, [SITUS, flag], { timeout: 20_000 });
    assert.equal(stdout, `situs ${version}\n`);
  }
});
