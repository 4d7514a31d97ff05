import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import type { KeyGuessLimiter } from "../../src/accounts/accounts.js";
import { MemoryKeyGuessLimiter } from "../../src/accounts/memory-accounts.js";
import { RedisKeyGuessLimiter } from "../../src/accounts/redis-key-guess-limiter.js";
import { REDIS_URL, serverSkip } from "../support/databases.js";

type Open = (limit: number, now: () => number) => KeyGuessLimiter[];

/** One suite for both limiters; `open` returns two limiters that share their counts (two replicas). */
function limiterConformance(name: string, skip: false | string, open: Open): void {
  describe(`unrecognized-key limiter: ${name}`, { skip }, () => {
    test("counts different keys per client address per minute, across replicas", async () => {
      let now = Date.UTC(2026, 0, 1, 12, 0, 5);
      const [a, b] = open(3, () => now);
      try {
        assert.equal(await a!.noteUnrecognized("10.0.0.1", "h1"), false);
        assert.equal(await b!.noteUnrecognized("10.0.0.1", "h2"), false);
        assert.equal(
          await a!.noteUnrecognized("10.0.0.1", "h2"),
          false,
          "the same key again is no new guess",
        );
        assert.equal(await b!.noteUnrecognized("10.0.0.1", "h3"), false);
        assert.equal(
          await a!.noteUnrecognized("10.0.0.1", "h4"),
          true,
          "a fourth different key is one too many",
        );
        assert.equal(
          await b!.noteUnrecognized("10.0.0.1", "h1"),
          true,
          "and the client stays limited this minute",
        );
        assert.equal(await b!.noteUnrecognized("10.0.0.2", "h9"), false, "other addresses are not affected");
        assert.ok(a!.blocking && a!.blocked("10.0.0.1"), "the limited client is known at once, without I/O");
        assert.equal(a!.blocked("10.0.0.2"), false);
        now += 60_000;
        assert.equal(a!.blocked("10.0.0.1"), false, "until its minute ends");
        assert.equal(await a!.noteUnrecognized("10.0.0.1", "h5"), false, "a new minute starts a new count");
      } finally {
        await Promise.all([a!.close(), b!.close()]);
      }
    });
  });
}

const shared = new Map<number, MemoryKeyGuessLimiter>();
limiterConformance("in memory", false, (limit, now) => {
  // In memory there is one process: both "replicas" are the same limiter.
  const limiter = shared.get(limit) ?? new MemoryKeyGuessLimiter(limit, now);
  return [limiter, limiter];
});

test(
  "Redis: replicas share who is blocked and which keys are unrecognized, before any database read",
  {
    skip: await serverSkip("Redis"),
  },
  async () => {
    const limitPrefix = `situs-test:${randomBytes(6).toString("hex")}:`;
    const now = () => Date.UTC(2026, 0, 1, 12, 0, 5);
    const a = new RedisKeyGuessLimiter({ url: REDIS_URL, limit: 2, prefix: limitPrefix, now });
    const b = new RedisKeyGuessLimiter({ url: REDIS_URL, limit: 2, prefix: limitPrefix, now });
    try {
      assert.equal(await b.screen("10.0.0.1", "h1"), "check", "nothing known: read the database");
      await a.noteUnrecognized("10.0.0.1", "h1");
      assert.equal(await b.screen("10.0.0.9", "h1"), "unrecognized", "found unrecognized by another replica");
      await a.noteUnrecognized("10.0.0.1", "h2");
      await a.noteUnrecognized("10.0.0.1", "h3");
      assert.equal(b.blocked("10.0.0.1"), false, "b has not asked yet");
      assert.equal(await b.screen("10.0.0.1", "h4"), "blocked");
      assert.ok(b.blocked("10.0.0.1"), "and once told, b refuses it without asking again");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
);

const prefix = `situs-test:${randomBytes(6).toString("hex")}:`;
limiterConformance("Redis", await serverSkip("Redis"), (limit, now) => [
  new RedisKeyGuessLimiter({ url: REDIS_URL, limit, prefix, now }),
  new RedisKeyGuessLimiter({ url: REDIS_URL, limit, prefix, now }),
]);

test("an unreachable Redis fails fast instead of hanging (the edge then fails open)", async () => {
  const limiter = new RedisKeyGuessLimiter({ url: "redis://127.0.0.1:1", limit: 3, timeoutMs: 200 });
  const started = Date.now();
  await assert.rejects(limiter.noteUnrecognized("10.0.0.1", "h1"));
  assert.ok(Date.now() - started < 1000);
  await limiter.close();
});
