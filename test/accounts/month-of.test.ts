import assert from "node:assert/strict";
import { test } from "node:test";
import { monthOf } from "../../src/accounts/sql/account-changes.js";

test("monthOf names the UTC calendar month at every edge, in any order of asking", () => {
  const cases: Array<[string, string]> = [
    ["2026-01-31T23:59:59.999Z", "2026-01-01"],
    ["2026-02-01T00:00:00.000Z", "2026-02-01"],
    ["2026-01-01T00:00:00.000Z", "2026-01-01"],
    ["2025-12-31T23:59:59.999Z", "2025-12-01"],
    ["2026-12-31T23:59:59.999Z", "2026-12-01"],
    ["2027-01-01T00:00:00.000Z", "2027-01-01"],
    ["2026-02-28T12:00:00-05:00", "2026-02-01"],
    ["2026-02-28T20:00:00-05:00", "2026-03-01"],
  ];
  for (const [at, month] of cases) assert.equal(monthOf(new Date(at)), month, at);
  assert.throws(() => monthOf(new Date(Number.NaN)), RangeError);
});
