import assert from "node:assert/strict";
import { test } from "node:test";
import { micros, money } from "../../src/accounts/sql/admin-commands.js";

test("admin amounts convert exactly between currency units and micro-units", () => {
  assert.equal(micros("12.5"), 12_500_000);
  assert.equal(micros("0.000001"), 1);
  assert.equal(micros("-3"), -3_000_000);
  assert.equal(micros(" 7 "), 7_000_000);
  for (const bad of ["", "1.0000001", "1e3", "abc", "1,5"]) assert.throws(() => micros(bad), /not an amount/);
  assert.equal(money(12_500_000), "12.500000");
  assert.equal(money(-1), "-0.000001");
  for (const amount of ["0.1", "999999.999999", "-42.000007"])
    assert.equal(money(micros(amount)), Number(amount).toFixed(6));
});
