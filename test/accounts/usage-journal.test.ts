import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import {
  billJournal,
  billJsonJournal,
  encodeJournal,
  readJournal,
  readJsonJournal,
  tupleRuns,
} from "../../src/accounts/ledger/usage-journal.js";
import { pgliteTemplate } from "../support/databases.js";

let sequence = 0;
const usage = (teamId = "team_journal", log = false): UsageRecord => ({
  requestId: `req_usage_journal_${process.pid}_${sequence++}`,
  teamId,
  keyId: "key_journal",
  operation: log ? "lookup" : "parse",
  priceMicros: log ? 2500 : 1000,
  at: new Date(Date.UTC(2026, 10, 27, 10, 0, 0, sequence)),
  ...(log ? { log: { method: "GET", path: "/v1/lookup/adr_é", latencyMs: 1.5 } } : {}),
});
const ids = (records: readonly UsageRecord[]) => records.map((r) => r.requestId);

/** True when `part` appears in `whole` in the same order (not necessarily next to each other). */
function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const id of part) {
    at = whole.indexOf(id, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

describe("the usage journal's format", () => {
  test("rows read back as written, with and without their request-log entry", () => {
    const records = [usage(), usage("team_journal", true), usage("team_other")];
    assert.deepEqual(readJournal(encodeJournal(records)), records);
  });

  test("a last tuple cut short is skipped", () => {
    const records = [usage(), usage("team_journal", true)];
    const whole = encodeJournal(records);
    const last = encodeJournal(records.slice(1)).length;
    for (let cut = 1; cut < last; cut++) {
      assert.deepEqual(ids(readJournal(whole.subarray(0, whole.length - cut))), ids(records.slice(0, 1)));
    }
  });

  test("a hole of zero bytes between writes is skipped and the tuples after it read", () => {
    const [first, lost, later] = [[usage(), usage()], [usage("team_journal", true)], [usage(), usage()]];
    const bytes = Buffer.concat([
      encodeJournal(first),
      Buffer.alloc(encodeJournal(lost).length),
      encodeJournal(later),
      Buffer.alloc(100), // a zero-filled end too
    ]);
    assert.deepEqual(ids(readJournal(bytes)), ids([...first, ...later]));
    assert.deepEqual(
      [...tupleRuns(bytes)].map((run) => run.rows),
      [2, 2],
    );
    assert.deepEqual(
      [...tupleRuns(bytes, 1)].map((run) => run.rows),
      [1, 1, 1, 1],
    );
  });

  test("other bytes end what is read: no tuple is ever read from inside another", () => {
    const records = [usage(), usage("team_journal", true), usage(), usage("team_journal", true)];
    const bytes = encodeJournal(records);
    assert.deepEqual(ids(readJournal(Buffer.concat([bytes, Buffer.from([1]), bytes]))), ids(records));
    // A write torn by a power loss: any part of it on the disk, the rest zeros, then later writes.
    const later = encodeJournal([usage()]);
    for (let from = 0; from < bytes.length; from++) {
      for (const to of [from + 1, from + 37, bytes.length]) {
        const torn = Buffer.alloc(bytes.length);
        bytes.copy(torn, from, from, Math.min(to, bytes.length));
        const read = readJournal(Buffer.concat([torn, later]));
        assert.ok(
          isSubsequence(ids(read), [...ids(records), ...ids(readJournal(later))]),
          `bytes ${from} to ${to}: read ${ids(read).join(", ")}`,
        );
      }
    }
  });

  test("a journal in the older JSON-lines format reads as before", () => {
    const [plain, logged] = [usage(), usage("team_journal", true)];
    const text =
      `${JSON.stringify([plain.requestId, plain.teamId, plain.keyId, plain.operation, plain.priceMicros, plain.at.getTime()])}\n` +
      `${JSON.stringify([logged.requestId, logged.teamId, logged.keyId, logged.operation, logged.priceMicros, logged.at.getTime(), "GET", "/v1/lookup/adr_é", 1.5])}\n` +
      "\0\0\0\0\n" +
      '["req_torn", "team';
    assert.deepEqual(readJsonJournal(text), [plain, logged]);
  });
});

describe("billing a usage journal", () => {
  let db: PgliteDatabase;
  let admin: AccountAdmin;
  before(async () => {
    db = await PgliteDatabase.open(undefined, await pgliteTemplate());
    await migrate(db, SERVICE_MIGRATIONS);
    admin = new AccountAdmin(db);
  });
  after(async () => db?.close());

  const billed = async (teamId: string) =>
    (
      await db.query<{ request_id: string }>(
        "SELECT request_id FROM usage_records WHERE team_id = $1 ORDER BY request_id",
        [teamId],
      )
    ).map((row) => row.request_id);

  test("copies the tuples in batches, once: billing the same bytes again bills nothing", async () => {
    const teamId = await admin.createTeam("journal bytes", 1_000_000);
    const records = [usage(teamId), usage(teamId, true), usage(teamId), usage(teamId, true), usage(teamId)];
    const bytes = Buffer.concat([
      encodeJournal(records.slice(0, 2)),
      Buffer.alloc(64),
      encodeJournal(records.slice(2)),
    ]);
    assert.equal(await billJournal(db, bytes, 2), 64, "the hole");
    assert.deepEqual(await billed(teamId), ids(records).sort());
    assert.equal((await admin.team(teamId)).monthSpendMicros, 3 * 1000 + 2 * 2500);
    assert.equal(await billJournal(db, bytes, 2), 64, "the hole");
    assert.equal((await billed(teamId)).length, 5);
    assert.equal((await admin.team(teamId)).monthSpendMicros, 3 * 1000 + 2 * 2500);
    const [row] = await db.query<{ method: string; path: string; latency_ms: number }>(
      "SELECT method, path, latency_ms FROM usage_records WHERE request_id = $1",
      [records[1]!.requestId],
    );
    assert.deepEqual(row, { method: "GET", path: "/v1/lookup/adr_é", latency_ms: 1.5 });
  });

  test("a batch holding rows already billed and new ones bills the new ones only", async () => {
    const teamId = await admin.createTeam("journal replay", 1_000_000);
    const [old, fresh] = [usage(teamId), usage(teamId)];
    await billJournal(db, encodeJournal([old]), 10);
    const torn = encodeJournal([usage(teamId)]).subarray(0, 30);
    const unread = await billJournal(db, Buffer.concat([encodeJournal([old, fresh, fresh]), torn]), 10);
    assert.equal(unread, torn.length);
    assert.deepEqual(await billed(teamId), ids([old, fresh]).sort());
    assert.equal((await admin.team(teamId)).monthSpendMicros, 2000);
  });

  test("a JSON-lines journal bills once too", async () => {
    const teamId = await admin.createTeam("journal lines", 1_000_000);
    const records = [usage(teamId), usage(teamId)];
    const text = records
      .map(
        (r) =>
          `${JSON.stringify([r.requestId, teamId, r.keyId, r.operation, r.priceMicros, r.at.getTime()])}\n`,
      )
      .join("");
    await billJsonJournal(db, text, 1);
    await billJsonJournal(db, text, 1);
    assert.deepEqual(await billed(teamId), ids(records).sort());
    assert.equal((await admin.team(teamId)).monthSpendMicros, 2000);
  });
});
