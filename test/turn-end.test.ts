import assert from "node:assert/strict";
import { test } from "node:test";
import { TurnBatch } from "../src/http/turn-batch.js";
import { atTurnEnd } from "../src/turn-end.js";

/** Resolves once `count` callbacks have run. */
function countdown(count: number): { tick(): void; done: Promise<void> } {
  let tick = () => {};
  const done = new Promise<void>((resolve) => {
    tick = () => {
      if (--count === 0) resolve();
    };
  });
  return { tick, done };
}

test("what a batch of work sets off ends the same turn, ahead of the next turn's immediates", async () => {
  const batch = new TurnBatch();
  const order: string[] = [];
  const all = countdown(2);
  void batch
    .run(() => order.push("work"))
    .then(() => {
      // Both are asked for during the batch's turn, after its immediates began to run: the
      // immediate waits for the next turn, the end of the turn does not.
      setImmediate(() => {
        order.push("immediate of the next turn");
        all.tick();
      });
      atTurnEnd(() => {
        order.push("end of the turn");
        all.tick();
      });
    });
  await all.done;
  assert.deepEqual(order, ["work", "end of the turn", "immediate of the next turn"]);
});

test("the end of the turn stays behind a batch queued after it, and runs its callbacks in order", async () => {
  const batch = new TurnBatch();
  const order: string[] = [];
  const all = countdown(3);
  atTurnEnd(() => {
    order.push("first");
    all.tick();
  });
  void batch.run(() => {
    order.push("work");
    all.tick();
  });
  atTurnEnd(() => {
    order.push("second");
    all.tick();
  });
  await all.done;
  assert.deepEqual(order, ["work", "first", "second"]);
});

test("a callback asked for while the turn ends runs at the end of the next", async () => {
  const order: string[] = [];
  const all = countdown(3);
  atTurnEnd(() => {
    order.push("this turn");
    all.tick();
    setImmediate(() => {
      order.push("immediate of the next turn");
      all.tick();
    });
    atTurnEnd(() => {
      order.push("next turn's end");
      all.tick();
    });
  });
  await all.done;
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
