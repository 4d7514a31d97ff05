import assert from "node:assert/strict";
import { test } from "node:test";
import { endOfTurn } from "../../src/http/turn/batched-sends.js";

const batchedSend = (payload: string): Promise<string> => endOfTurn().then(() => payload);

const settled = async <T>(promise: Promise<T>, flags: { done: boolean }): Promise<T> => {
  const value = await promise;
  flags.done = true;
  return value;
};

test("an answer is held until the end of the turn, then leaves unchanged", async () => {
  const flags = { done: false };
  const payload = '{"ok":true}';
  const sent = settled(batchedSend(payload), flags);
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assert.equal(flags.done, false, "released before the turn ended");
  assert.equal(await sent, payload);
});

test("answers ready in one turn leave together, and a later turn has its own release", async () => {
  const order: string[] = [];
  const first = batchedSend("a").then(() => order.push("a"));
  const second = batchedSend("b").then(() => order.push("b"));
  setImmediate(() => order.push("immediate queued after both"));
  await Promise.all([first, second]);
  assert.deepEqual(order, ["a", "b"]);
  const third = batchedSend("c").then(() => order.push("c"));
  await third;
  assert.deepEqual(order, ["a", "b", "immediate queued after both", "c"]);
});
