import { JOURNAL_JOBS } from "../../src/accounts/ledger/journal-jobs.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectPath } from "../../src/paths.js";
import { test } from "node:test";
import { DirectoryLock } from "../../src/db/directory-lock.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { PgliteThreadDatabase } from "../../src/db/pglite-thread-database.js";
import { openPgliteForTest } from "../support/databases.js";
import { accountsConformance } from "./accounts-conformance.js";

accountsConformance("PGlite (embedded)", false, openPgliteForTest);

test("a second process cannot open an embedded database that is open (it would corrupt it)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-lock-"));
  const lockModule = pathToFileURL(projectPath("dist", "src", "db", "directory-lock.js")).href;
  const holder = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { DirectoryLock } = await import(${JSON.stringify(lockModule)});
       await DirectoryLock.acquire(${JSON.stringify(dir)});
       process.stdout.write("held\\n");
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const [chunk] = (await once(holder.stdout!, "data")) as [Buffer];
    assert.equal(chunk.toString(), "held\n");
    const held = new RegExp(`is open in process ${holder.pid}`);
    await assert.rejects(PgliteDatabase.open(dir), held);
    await assert.rejects(
      PgliteThreadDatabase.open(dir, undefined, JOURNAL_JOBS),
      held,
      "also from the database thread",
    );
    holder.kill("SIGKILL");
    await once(holder, "exit");
    const lock = await DirectoryLock.acquire(dir);
    assert.equal(
      readFileSync(`${dir}.lock`, "utf8"),
      String(process.pid),
      "a killed holder's lock is free at once",
    );
    await assert.rejects(DirectoryLock.acquire(dir), new RegExp(`process ${process.pid}`));
    lock.release();
  } finally {
    holder.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.lock`, { force: true });
  }
});

test("a lock file naming a live process that does not hold the lock does not block (a reused PID)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-lock-"));
  const bystander = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
  try {
    writeFileSync(`${dir}.lock`, String(bystander.pid));
    const lock = await DirectoryLock.acquire(dir);
    assert.equal(readFileSync(`${dir}.lock`, "utf8"), String(process.pid));
    lock.release();
  } finally {
    bystander.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
