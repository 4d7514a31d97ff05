import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { DEMO_TEAM_ID } from "../../src/app/demo-team.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { projectPath } from "../../src/paths.js";
import { startService } from "../support/service-process.js";

const run = promisify(execFile);
const KEY = `sk_embedded_${randomBytes(12).toString("hex")}`;

/**
 * The embedded database's usage journal under a SIGKILL: every 200 received is billed once the
 * journal is applied (here by `situs admin`, as an operator would after a crash), no error is
 * billed, and rows without a received answer are bounded by the connections the kill dropped.
 */
test("embedded: a service killed under load loses no billed 200; situs admin applies its journal", async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), "situs-embedded-kill-"));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const service = await startService({
    DATA_DIR: dataDir,
    DEMO_API_KEY: KEY,
    SHED_EVENT_LOOP_DELAY_MS: "0",
    KEY_CHECK_TIMEOUT_MS: "20000",
    DATABASE_TIMEOUT_MS: "20000",
  });
  const ok: string[] = [];
  const refused: string[] = [];
  let lost = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      try {
        const response = await fetch(`${service.url}/v1/verify/parse`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: '{"line":"1 Main St, Springfield IL 62701"}',
        });
        await response.arrayBuffer();
        const requestId = response.headers.get("x-request-id")!;
        (response.status === 200 ? ok : refused).push(requestId);
      } catch {
        lost++;
        return;
      }
    }
  };
  const loops = Promise.all(Array.from({ length: 12 }, loop));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await service.kill();
  stop = true;
  await loops;
  assert.ok(ok.length > 20, `only ${ok.length} answers`);
  assert.ok(
    readdirSync(join(dataDir, "usage-journal")).length > 0,
    "the killed service left its journal behind",
  );

  const { stdout } = await run(
    process.execPath,
    [projectPath("bin", "situs"), "admin", "usage", DEMO_TEAM_ID],
    {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
    },
  );
  const billedByAdmin = Number(/parse\s+(\d+)/.exec(stdout)?.[1] ?? 0);

  const db = await PgliteDatabase.open(join(dataDir, "accounts"));
  try {
    const billed = new Set(
      (
        await db.query<{ request_id: string }>(
          "SELECT request_id FROM usage_records WHERE team_id = $1 AND NOT voided",
          [DEMO_TEAM_ID],
        )
      ).map((row) => row.request_id),
    );
    t.diagnostic(`200s received ${ok.length}, billed ${billed.size}, connections lost in the kill ${lost}`);
    assert.equal(billedByAdmin, billed.size, "situs admin counts what the journal held");
    assert.deepEqual(
      ok.filter((id) => !billed.has(id)),
      [],
      "every 200 received is billed",
    );
    assert.deepEqual(
      refused.filter((id) => billed.has(id)),
      [],
      "no error is billed",
    );
    assert.ok(billed.size - ok.length <= lost, `billed without an answer: ${billed.size - ok.length}`);
  } finally {
    await db.close();
  }
  assert.deepEqual(readdirSync(join(dataDir, "usage-journal")), [], "the journal was applied and removed");
});
