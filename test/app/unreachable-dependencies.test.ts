import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { openAccounts } from "../../src/app/accounts-backend.js";
import { TEST_ACCOUNTS_CONFIG } from "../support/accounts-app.js";

/** A local port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test("an unreachable PostgreSQL is named with DATABASE_URL, its password hidden", async () => {
  const url = `postgres://situs:hunter2@127.0.0.1:${await closedPort()}/situs`;
  await assert.rejects(
    openAccounts({ ...TEST_ACCOUNTS_CONFIG, DATABASE_URL: url, DATABASE_TIMEOUT_MS: 500 }),
    (error: Error) => {
      assert.match(
        error.message,
        /^cannot reach PostgreSQL at DATABASE_URL=postgres:\/\/situs:\*\*\*@127\.0\.0\.1:\d+\/situs \(/,
      );
      assert.doesNotMatch(error.message, /hunter2/);
      return true;
    },
  );
});

test("an unreachable Redis is named with REDIS_URL before the service starts", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "situs-redis-"));
  try {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    await assert.rejects(
      openAccounts({ ...TEST_ACCOUNTS_CONFIG, DATA_DIR: dataDir, REDIS_URL: url }),
      new RegExp(`^Error: cannot reach Redis at REDIS_URL=redis://127\\.0\\.0\\.1:\\d+ \\(`),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
