import { JOURNAL_JOBS } from "../../src/accounts/ledger/journal-jobs.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { DirectoryLock } from "../../src/db/directory-lock.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { PgliteThreadDatabase } from "../../src/db/pglite-thread-database.js";
import { openPgliteForTest } from "../support/databases.js";
import { accountsConformance } from "./accounts-conformance.js";

accountsConformance("PGlite (embedded)", false, openPgliteForTest);

test("a second process cannot open an embedded database that is open (it would corrupt it)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-lock-"));
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
  try {
    writeFileSync(`${dir}.lock`, String(child.pid));
    await assert.rejects(PgliteDatabase.open(dir), /is open in process/);
    await assert.rejects(
      PgliteThreadDatabase.open(dir, undefined, JOURNAL_JOBS),
      /is open in process/,
      "also from the database thread",
    );
    child.kill();
    await once(child, "exit");
    const lock = DirectoryLock.acquire(dir);
    assert.equal(
      readFileSync(`${dir}.lock`, "utf8"),
      String(process.pid),
      "a dead owner's lock is taken over",
    );
    assert.throws(() => DirectoryLock.acquire(dir), new RegExp(`process ${process.pid}`));
    lock.release();
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
