import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { monthOf } from "../../src/accounts/sql/account-changes.js";
import { JournalUsageLedger } from "../../src/accounts/ledger/journal-usage-ledger.js";
import { PendingSpend } from "../../src/accounts/ledger/pending-spend.js";
import type { PgliteThreadDatabase } from "../../src/db/pglite-thread-database.js";
import { encodeJournal, readJournal } from "../../src/accounts/ledger/usage-journal.js";
import { openPgliteForTest } from "../support/databases.js";
import type { TestDatabase } from "../support/databases.js";
import { temporaryDir } from "../parcels/index-fixtures.js";

describe("the usage journal of the embedded database", () => {
  let database: TestDatabase<PgliteThreadDatabase>;
  let admin: AccountAdmin;
  before(async () => {
    database = await openPgliteForTest();
    admin = new AccountAdmin(database.db);
  });
  after(async () => database?.cleanup());

  let sequence = 0;
  const usage = (teamId: string, price = 1000): UsageRecord => ({
    requestId: `req_journal_${process.pid}_${sequence++}`,
    teamId,
    keyId: "key_journal",
    operation: "parse",
    priceMicros: price,
    at: new Date(),
  });
  const billed = async (teamId: string) =>
    (
      await database.db.query<{ request_id: string }>(
        "SELECT request_id FROM usage_records WHERE team_id = $1 AND NOT voided ORDER BY request_id",
        [teamId],
      )
    ).map((row) => row.request_id);
  const journals = (dir: string) => readdirSync(dir).filter((name) => /\.(copy|jsonl)$/.test(name));
  const journalBytes = (dir: string) =>
    Buffer.concat(journals(dir).map((name) => readFileSync(join(dir, name))));
  const options = (dir: string, pendingSpend?: PendingSpend) => ({
    dir,
    applyEveryMs: 60_000, // applied only when the test says so
    applyBatch: 2,
    ...(pendingSpend ? { pendingSpend } : {}),
  });

  test("a row is in the synced journal when record() resolves, and in the database after the apply", async (t) => {
    const dir = temporaryDir(t);
    const teamId = await admin.createTeam("journal", 1_000_000);
    const pending = new PendingSpend();
    const ledger = await JournalUsageLedger.open(database.db, options(dir, pending));
    const records = [usage(teamId), usage(teamId), usage(teamId)];
    await Promise.all(records.map((record) => ledger.record(record)));
    assert.deepEqual(
      readJournal(journalBytes(dir)).map((r) => r.requestId),
      records.map((r) => r.requestId),
    );
    assert.deepEqual(await billed(teamId), [], "not applied yet");
    assert.deepEqual(pending.of(teamId, monthOf(new Date())), { total: 3000, month: 3000 });
    assert.deepEqual(ledger.backlog(), { rows: 3, oldestAt: records[0]!.at.getTime() }, "the ledger's lag");
    await ledger.settle();
    assert.deepEqual(ledger.backlog(), { rows: 0, oldestAt: null });
    assert.deepEqual(await billed(teamId), records.map((r) => r.requestId).sort());
    assert.deepEqual(pending.of(teamId, monthOf(new Date())), { total: 0, month: 0 });
    const team = await admin.team(teamId);
    assert.equal(team.monthSpendMicros, 3000);
    await ledger.close();
    assert.deepEqual(journals(dir), [], "an applied journal is deleted");
  });

  test("journals left by a process that died are applied once at the next start; a torn tuple is skipped", async (t) => {
    const dir = temporaryDir(t);
    const teamId = await admin.createTeam("crash", 1_000_000);
    const dead = await JournalUsageLedger.open(database.db, options(dir));
    const records = [usage(teamId), usage(teamId), usage(teamId)];
    await Promise.all(records.map((record) => dead.record(record)));
    // The process dies here: nothing applied, and a write that never synced left half a tuple.
    const [journal] = journals(dir);
    assert.match(journal!, /^usage-\d{12}\.copy$/);
    const torn = usage(teamId);
    appendFileSync(join(dir, journal!), encodeJournal([torn]).subarray(0, 40));
    const leftover = readFileSync(join(dir, journal!));
    const restarted = await JournalUsageLedger.open(database.db, options(dir));
    assert.deepEqual(await billed(teamId), records.map((r) => r.requestId).sort());
    await restarted.close();
    // The dead process's journal might still be found (copied back, say): applying it again bills nothing.
    appendFileSync(join(dir, "usage-000000000999.copy"), leftover);
    const again = await JournalUsageLedger.open(database.db, options(dir));
    await again.close();
    assert.equal((await billed(teamId)).length, 3);
    assert.equal((await admin.team(teamId)).monthSpendMicros, 3000);
  });

  test("a journal in the older JSON-lines format left at start is still applied", async (t) => {
    const dir = temporaryDir(t);
    const teamId = await admin.createTeam("legacy", 1_000_000);
    const [plain, logged] = [usage(teamId), usage(teamId, 500)];
    const at = plain.at.getTime();
    writeFileSync(
      join(dir, "usage-000000000007.jsonl"),
      `${JSON.stringify([plain.requestId, teamId, plain.keyId, "parse", 1000, at])}\n` +
        `${JSON.stringify([logged.requestId, teamId, logged.keyId, "lookup", 500, at, "GET", "/v1/lookup", 1.5])}\n` +
        '["req_torn","',
    );
    const ledger = await JournalUsageLedger.open(database.db, options(dir));
    assert.deepEqual(await billed(teamId), [plain.requestId, logged.requestId].sort());
    assert.equal((await admin.team(teamId)).monthSpendMicros, 1500);
    const [entry] = await database.db.query<{ method: string; path: string }>(
      "SELECT method, path FROM usage_records WHERE request_id = $1",
      [logged.requestId],
    );
    assert.deepEqual(entry, { method: "GET", path: "/v1/lookup" });
    // Numbering goes on after the leftover's, in the new format.
    assert.deepEqual(journals(dir), ["usage-000000000008.copy"]);
    await ledger.close();
  });

  test("a write that fails is refused and its rows never reach the database", async (t) => {
    const dir = temporaryDir(t);
    const teamId = await admin.createTeam("broken", 1_000_000);
    const ledger = await JournalUsageLedger.open(database.db, options(dir));
    const first = usage(teamId);
    await ledger.record(first);
    // The journal's file descriptor stops working under the ledger: the write fails.
    (ledger as unknown as { current: { fd: number } }).current.fd = 1_000_000;
    const lost = usage(teamId);
    await assert.rejects(ledger.record(lost));
    const later = usage(teamId);
    await ledger.record(later);
    await ledger.close();
    assert.deepEqual(await billed(teamId), [first.requestId, later.requestId].sort());
  });
});
