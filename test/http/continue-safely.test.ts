import assert from "node:assert/strict";
import { test } from "node:test";
import type { FastifyRequest } from "fastify";
import { continueSafely } from "../../src/http/continue-safely.js";

test("a throw while a request is carried on from a promise's callback is logged, not thrown", async () => {
  const logged: unknown[] = [];
  const request = { log: { error: (fields: unknown) => logged.push(fields) } } as unknown as FastifyRequest;
  const failure = new Error("headers sent twice");
  // Run where the hooks run it: an escaping throw would reject this promise.
  await Promise.resolve().then(() =>
    continueSafely(request, () => {
      throw failure;
    }),
  );
  assert.deepEqual(logged, [{ err: failure }]);
  let ran = false;
  continueSafely(request, () => (ran = true));
  assert.equal(ran, true);
  assert.equal(logged.length, 1);
});
