import assert from "node:assert/strict";
import { test } from "node:test";
import { TurnBatch } from "../src/http/turn/turn-batch.js";
import { atTurnEnd } from "../src/runtime/turn-end.js";

/**
 * The order in which callbacks ran: `step(name)` is a callback that notes `name`, and `done`
 * resolves once `count` of them have run.
 */
function recorder(count: number): { order: string[]; step(name: string): () => void; done: Promise<void> } {
  const order: string[] = [];
  let ran = () => {};
  const done = new Promise<void>((resolve) => {
    ran = () => {
      if (--count === 0) resolve();
    };
  });
  return {
    order,
    step: (name) => () => {
      order.push(name);
      ran();
    },
    done,
  };
}

test("what a batch of work sets off ends the same turn, ahead of the next turn's immediates", async () => {
  const batch = new TurnBatch();
  const { order, step, done } = recorder(3);
  void batch.run(step("work")).then(() => {
    // Both are asked for during the batch's turn, after its immediates began to run: the
    // immediate waits for the next turn, the end of the turn does not.
    setImmediate(step("immediate of the next turn"));
    atTurnEnd(step("end of the turn"));
  });
  await done;
  assert.deepEqual(order, ["work", "end of the turn", "immediate of the next turn"]);
});

test("the end of the turn stays behind a batch queued after it, and runs its callbacks in order", async () => {
  const batch = new TurnBatch();
  const { order, step, done } = recorder(3);
  atTurnEnd(step("first"));
  void batch.run(step("work"));
  atTurnEnd(step("second"));
  await done;
  assert.deepEqual(order, ["work", "first", "second"]);
});

test("a callback asked for while the turn ends runs at the end of the next", async () => {
  const { order, step, done } = recorder(3);
  atTurnEnd(() => {
    step("this turn")();
    setImmediate(step("immediate of the next turn"));
    atTurnEnd(step("next turn's end"));
  });
  await done;
  assert.deepEqual(order, ["this turn", "immediate of the next turn", "next turn's end"]);
});

test("a throwing callback does not keep the others of its turn from running", async () => {
  const thrown = new Promise<unknown>((resolve) => {
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.once("uncaughtException", (error) => {
      for (const listener of listeners) process.on("uncaughtException", listener);
      resolve(error);
    });
  });
  const ran: string[] = [];
  atTurnEnd(() => {
    throw new Error("broken callback");
  });
  atTurnEnd(() => ran.push("second"));
  assert.match(String(await thrown), /broken callback/);
  assert.deepEqual(ran, ["second"]);
});
