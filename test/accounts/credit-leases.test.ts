import assert from "node:assert/strict";
import { test } from "node:test";
import { CreditLeases } from "../../src/accounts/credit-leases.js";
import { MemoryAccountStore, MemoryLeaseSource } from "../../src/accounts/memory-accounts.js";

const PRICE = 1000;

function team(creditMicros: number, budget?: { budgetMicros: number; monthSpendMicros: number }) {
  const accounts = new MemoryAccountStore();
  accounts.addTeam({ teamId: "team_a", creditMicros, ...budget });
  return { accounts, source: new MemoryLeaseSource(accounts) };
}

test("three holders, 256 requests at once, credit for 10: at most one request past zero", async () => {
  const { source } = team(10 * PRICE);
  const holders = [0, 1, 2].map((i) => new CreditLeases(source, `holder-${i}`));
  try {
    const reservations = await Promise.all(
      Array.from({ length: 256 }, (_, i) => holders[i % 3]!.reserve("team_a", PRICE)),
    );
    const reserved = reservations.filter((r) => r === "reserved").length;
    assert.ok(reserved >= 10 && reserved <= 11, `reserved ${reserved}`);
    assert.deepEqual(new Set(reservations.filter((r) => r !== "reserved")), new Set(["insufficient_credit"]));
    const held = [...source.leases.values()].reduce((sum, micros) => sum + micros, 0);
    assert.ok(held <= 11 * PRICE, `leases hold ${held}`);
  } finally {
    await Promise.all(holders.map((holder) => holder.close()));
  }
  assert.equal(source.leases.size, 0, "closing gives every lease back");
});

test("a budget binds like credit, and its refusal names it", async () => {
  const { source } = team(1_000 * PRICE, { budgetMicros: 5 * PRICE, monthSpendMicros: 2 * PRICE });
  const leases = new CreditLeases(source, "holder");
  try {
    const reservations = await Promise.all(Array.from({ length: 20 }, () => leases.reserve("team_a", PRICE)));
    assert.equal(reservations.filter((r) => r === "reserved").length, 3);
    assert.ok(reservations.includes("budget_exceeded"));
  } finally {
    await leases.close();
  }
});

test("credit given back by one request serves the next; billed credit is gone", async () => {
  const { accounts, source } = team(2 * PRICE);
  const leases = new CreditLeases(source, "holder");
  try {
    assert.equal(await leases.reserve("team_a", PRICE), "reserved");
    assert.equal(await leases.reserve("team_a", PRICE), "reserved");
    assert.equal(await leases.reserve("team_a", PRICE), "insufficient_credit");
    leases.release("team_a", PRICE);
    assert.equal(leases.take("team_a", PRICE), "reserved", "what was given back is taken at once");
    // Billing moves a reservation into spend: the store's credit falls, the lease's hold with it.
    accounts.team("team_a")!.creditMicros -= PRICE;
    leases.billed("team_a", PRICE);
    assert.equal(leases.take("team_a", PRICE), "insufficient_credit");
  } finally {
    await leases.close();
  }
});

test("a holder that holds the last credit leaves the others nothing until it gives it back", async () => {
  const { source } = team(PRICE);
  let now = Date.UTC(2026, 10, 29);
  const a = new CreditLeases(source, "a");
  const b = new CreditLeases(source, "b", () => now);
  try {
    assert.equal(await a.reserve("team_a", PRICE), "reserved");
    assert.equal(await b.reserve("team_a", PRICE), "insufficient_credit");
    a.release("team_a", PRICE);
    await a.close();
    assert.equal(b.take("team_a", PRICE), "insufficient_credit", "b's refusal is reused a moment");
    now += 150;
    assert.equal(await b.reserve("team_a", PRICE), "reserved");
  } finally {
    await b.close();
  }
});
