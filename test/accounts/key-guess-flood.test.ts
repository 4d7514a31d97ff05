import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import type { Database } from "../../src/db/database.js";
import { accountsApp, bearer } from "../support/accounts-app.js";
import type { AccountsApp } from "../support/accounts-app.js";
import { openPostgresForTest, REDIS_URL, serverSkip } from "../support/databases.js";
import type { TestDatabase } from "../support/databases.js";

/**
 * A flood of unrecognized keys from one client against two replicas sharing PostgreSQL and Redis:
 * past the limit the client is refused before any key is read, so the database sees no more
 * reads however long the flood goes on. Key reads are counted on the real database connection.
 */
const skip = (await serverSkip("PostgreSQL")) || (await serverSkip("Redis"));

/** The database, counting the statements that read an API key or a team's standing. */
function counting(db: Database): { db: Database; keyReads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === "query" && typeof value === "function") {
        return (sql: string, params?: unknown[]) => {
          if (/FROM api_keys k/.test(sql) || /FROM teams t/.test(sql)) reads++;
          return (value as Database["query"]).call(target, sql, params);
        };
      }
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: wrapped, keyReads: () => reads };
}

describe("a flood of unrecognized keys", { skip }, () => {
  let database: TestDatabase;
  let first: AccountsApp;
  let second: AccountsApp;
  let reads: () => number;
  let secret: string;
  // A loaded machine must not time Redis out: the limiter would fail open and read the database.
  let shared = {
    REDIS_URL,
    REDIS_PREFIX: "situs-test:flood:",
    UNKNOWN_KEY_LIMIT: 5,
    REDIS_TIMEOUT_MS: 20_000,
  };

  before(async () => {
    database = await openPostgresForTest();
    const admin = new AccountAdmin(database.db);
    secret = (await admin.createKey(await admin.createTeam("flood", 1_000_000_000), "k")).secret;
    const counted = counting(database.db);
    reads = counted.keyReads;
    shared = {
      REDIS_URL,
      REDIS_PREFIX: `situs-test:${randomBytes(6).toString("hex")}:`,
      UNKNOWN_KEY_LIMIT: 5,
      REDIS_TIMEOUT_MS: 20_000,
    };
    first = await accountsApp(counted.db, shared);
    second = await accountsApp(counted.db, shared);
  });

  after(async () => {
    await first?.close();
    await second?.close();
    await database?.cleanup();
  });

  const parse = (app: AccountsApp, key: string, client: string) =>
    app.app.inject({
      method: "POST",
      url: "/v1/verify/parse",
      headers: bearer(key),
      payload: { line: "1 Main St" },
      remoteAddress: client,
    });

  test("a key's first check is one read, its team's standing with it", async () => {
    const start = reads();
    assert.equal((await parse(first, secret, "192.0.2.50")).statusCode, 200);
    assert.equal(reads() - start, 1);
  });

  test("one unrecognized key repeated on any replica is read from the database once", async () => {
    const key = `sk_${randomBytes(24).toString("base64url")}`;
    const start = reads();
    for (const app of [first, second, first, second])
      assert.equal((await parse(app, key, "192.0.2.1")).statusCode, 401);
    assert.equal(reads() - start, 1);
  });

  test("past the limit, neither replica reads another key, valid or not, for that client", async () => {
    // The limit counts per UTC minute: start where this test's few seconds stay in one minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const start = reads();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await parse(first, `sk_guess${i}_${randomBytes(16).toString("hex")}`, "192.0.2.7")).statusCode,
      );
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    assert.equal(reads() - start, 6);
    const flood = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        parse(i % 2 === 0 ? first : second, `sk_flood${i}_${randomBytes(16).toString("hex")}`, "192.0.2.7"),
      ),
    );
    assert.deepEqual(new Set(flood.map((answer) => answer.statusCode)), new Set([429]));
    assert.equal(
      (await parse(second, secret, "192.0.2.7")).statusCode,
      429,
      "a valid key waits for the minute too",
    );
    assert.equal(reads() - start, 6, "500 more keys from a blocked client: not one more database read");
    // An IPv6 client is one client per /64: another address in the network is blocked with it.
    for (let i = 0; i < 6; i++)
      await parse(first, `sk_v6${i}_${randomBytes(16).toString("hex")}`, `2001:db8:7:7::${i + 1}`);
    assert.equal(
      (await parse(second, `sk_${randomBytes(24).toString("hex")}`, "2001:db8:7:7:ffff::9")).statusCode,
      429,
    );
    assert.equal(
      (await parse(second, secret, "2001:db8:7:8::1")).statusCode,
      200,
      "the next /64 is another client",
    );
    assert.equal((await parse(first, secret, "192.0.2.8")).statusCode, 200, "other clients are served");
    assert.equal((await parse(first, secret, "192.0.2.7")).statusCode, 200, "a key known valid is served");
    // Known valid once, its verdict since gone stale (here at once): checked as usual, served.
    const stale = await accountsApp(database.db, { ...shared, KEY_CACHE_TTL_MS: 0 });
    try {
      assert.equal((await parse(stale, secret, "192.0.2.8")).statusCode, 200);
      assert.equal(
        (await parse(stale, `sk_${randomBytes(24).toString("hex")}`, "192.0.2.7")).statusCode,
        429,
      );
      assert.equal((await parse(stale, secret, "192.0.2.7")).statusCode, 200);
    } finally {
      await stale.close();
    }
  });
});
