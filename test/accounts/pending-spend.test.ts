import assert from "node:assert/strict";
import { test } from "node:test";
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { PendingSpend } from "../../src/accounts/ledger/pending-spend.js";

const usage = (teamId: string, priceMicros: number, at: string): UsageRecord => ({
  requestId: `req_${teamId}_${at}_${priceMicros}`,
  teamId,
  keyId: "key_pending",
  operation: "parse",
  priceMicros,
  at: new Date(at),
});

test("pending spend sums the journals not yet applied, by team and month, until each is settled", () => {
  const pending = new PendingSpend();
  const first = pending.open();
  const second = pending.open();
  first.add([usage("team_a", 100, "2026-10-31T23:59:59Z"), usage("team_a", 200, "2026-11-01T00:00:00Z")]);
  first.add([usage("team_b", 5, "2026-11-02T00:00:00Z")]);
  second.add([usage("team_a", 1000, "2026-11-20T12:00:00Z")]);

  assert.deepEqual(pending.of("team_a", "2026-11-01"), { total: 1300, month: 1200 });
  assert.deepEqual(pending.of("team_a", "2026-10-01"), { total: 1300, month: 100 });
  assert.deepEqual(pending.of("team_b", "2026-11-01"), { total: 5, month: 5 });
  assert.deepEqual(pending.of("team_c", "2026-11-01"), { total: 0, month: 0 });

  pending.settle(first);
  assert.deepEqual(pending.of("team_a", "2026-11-01"), { total: 1000, month: 1000 });
  assert.deepEqual(pending.of("team_b", "2026-11-01"), { total: 0, month: 0 });
  pending.settle(second);
  assert.deepEqual(pending.of("team_a", "2026-11-01"), { total: 0, month: 0 });
});
