import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
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

/** The request IDs the demo team is billed for. */
async function billedRequests(db: PgliteDatabase): Promise<Set<string>> {
  const rows = await db.query<{ request_id: string }>(
    "SELECT request_id FROM usage_records WHERE team_id = $1 AND NOT voided",
    [DEMO_TEAM_ID],
  );
  return new Set(rows.map((row) => row.request_id));
}
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
    const billed = await billedRequests(db);
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

/** The PIDs of a process and every process under it. */
function processTree(pid: number): number[] {
  // ps exits 1 when the process has no children.
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  return [pid, ...children.flatMap(processTree)];
}

test("embedded with workers: SIGKILL of the whole tree, then an immediate restart, every time", async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), "situs-embedded-restart-"));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, DEMO_API_KEY: KEY, WORKERS: "2", SHED_EVENT_LOOP_DELAY_MS: "0" };
  const ok = new Set<string>();
  const parse = async (url: string) => {
    const response = await fetch(`${url}/v1/verify/parse`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: '{"line":"1 Main St, Springfield IL 62701"}',
    });
    await response.arrayBuffer();
    if (response.status === 200) ok.add(response.headers.get("x-request-id")!);
  };
  for (let round = 0; round < 3; round++) {
    const service = await startService(env); // refused if a lock of the killed tree were left
    for (let i = 0; i < 20; i++) await parse(service.url);
    const tree = processTree(service.child.pid!);
    assert.ok(tree.length >= 3, "a primary and its workers");
    for (const pid of tree) process.kill(pid, "SIGKILL");
    await service.kill();
  }
  const last = await startService(env); // applies every journal left at start
  await last.stop();
  const db = await PgliteDatabase.open(join(dataDir, "accounts"));
  try {
    const billed = await billedRequests(db);
    assert.equal(ok.size, 60);
    assert.deepEqual(
      [...ok].filter((id) => !billed.has(id)),
      [],
      "every 200 answered before a kill is billed after the restarts",
    );
  } finally {
    await db.close();
  }
});
