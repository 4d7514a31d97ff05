import assert from "node:assert/strict";
import { test } from "node:test";
import { TurnBatch } from "../../src/http/turn/turn-batch.js";

test("work of one turn runs together after the turn's other work, in the order it came", async () => {
  const batch = new TurnBatch();
  const order: string[] = [];
  const first = batch.run(() => {
    order.push("a");
    return 1;
  });
  const second = batch.run(() => {
    order.push("b");
    return 2;
  });
  order.push("rest of the turn");
  await Promise.resolve().then(() => order.push("microtask of the turn"));
  setImmediate(() => order.push("immediate queued after the work"));
  assert.deepEqual(await Promise.all([first, second]), [1, 2]);
  assert.deepEqual(order, ["rest of the turn", "microtask of the turn", "a", "b"]);
});

test("a throw rejects its own item only", async () => {
  const batch = new TurnBatch();
  const failing = batch.run(() => {
    throw new Error("broken line");
  });
  const next = batch.run(() => "answered");
  await assert.rejects(failing, /broken line/);
  assert.equal(await next, "answered");
});

test("work queued while a batch runs goes to the next batch, and every item is answered", async () => {
  const batch = new TurnBatch();
  const order: string[] = [];
  let inner: Promise<string> | undefined;
  const outer = batch.run(() => {
    inner = batch.run(() => {
      order.push("inner");
      return "inner";
    });
    order.push("outer");
    return "outer";
  });
  assert.equal(await outer, "outer");
  assert.deepEqual(order, ["outer"]);
  assert.equal(await inner, "inner");
  assert.deepEqual(order, ["outer", "inner"]);
});

test("an item's promise is adopted, so asynchronous work answers with its result", async () => {
  const batch = new TurnBatch();
  assert.equal(await batch.run(async () => "later"), "later");
  await assert.rejects(
    batch.run(async () => Promise.reject(new Error("index unreachable"))),
    /index unreachable/,
  );
});
