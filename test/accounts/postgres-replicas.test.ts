import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { GroupCommitUsageLedger } from "../../src/accounts/ledger/group-commit-ledger.js";
import { PostgresDatabase } from "../../src/db/postgres-database.js";
import { SqlAccountStore } from "../../src/accounts/sql/sql-account-store.js";
import { accountsApp, bearer } from "../support/accounts-app.js";
import { openPostgresForTest, serverSkip } from "../support/databases.js";
import type { TestDatabase } from "../support/databases.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { waitFor } from "./accounts-conformance.js";

/** The test database reached through a proxy that can take it away. */
async function behindProxy(
  url: string,
  timeoutMs: number,
): Promise<{ proxy: TcpProxy; db: PostgresDatabase }> {
  const { hostname, port, pathname } = new URL(url);
  const proxy = new TcpProxy(hostname, Number(port || 5432));
  await proxy.start();
  return {
    proxy,
    db: new PostgresDatabase({ url: `postgres://postgres@127.0.0.1:${proxy.port}${pathname}`, timeoutMs }),
  };
}

/** What only PostgreSQL has: several replicas on one database, and a server that can vanish. */
describe("PostgreSQL across replicas", { skip: await serverSkip("PostgreSQL") }, () => {
  let database: TestDatabase & { url: string };
  let admin: AccountAdmin;
  before(async () => {
    database = await openPostgresForTest();
    admin = new AccountAdmin(database.db);
  });
  after(async () => database?.cleanup());

  const cache = { keyCacheTtlMs: 60_000, teamRefreshMs: 60_000 };

  test("a key revoked or a team paused through one replica is refused by another within a second", async () => {
    const teamId = await admin.createTeam("r", 1_000_000);
    const first = await admin.createKey(teamId, "one");
    const second = await admin.createKey(teamId, "two");
    const replica = await SqlAccountStore.open(await database.another!(), cache);
    try {
      assert.ok(await replica.authenticate(first.secret));
      assert.equal((await replica.authenticate(second.secret))?.team.status, "active");
      await admin.revokeKey(first.keyId);
      const revokedAfter = await waitFor(
        async () => (await replica.authenticate(first.secret)) === null,
        1000,
      );
      await admin.setStatus(teamId, "paused");
      const pausedAfter = await waitFor(
        async () => (await replica.authenticate(second.secret))?.team.status === "paused",
        1000,
      );
      assert.ok(revokedAfter < 1000 && pausedAfter < 1000);
    } finally {
      await replica.close();
    }
  });

  test("a replica whose notifications are cut off silently still stops accepting a revoked key within a second", async () => {
    const teamId = await admin.createTeam("p", 1_000_000);
    const { keyId, secret } = await admin.createKey(teamId, "k");
    const { proxy, db } = await behindProxy(database.url, 200);
    const replica = await SqlAccountStore.open(db, cache);
    try {
      assert.ok(await replica.authenticate(secret));
      proxy.blackhole();
      await admin.revokeKey(keyId);
      const verdict = () =>
        replica.authenticate(secret).then(
          (auth) => (auth === null ? "refused" : "accepted"),
          () => "unavailable",
        );
      const after = await waitFor(async () => (await verdict()) !== "accepted", 1000);
      assert.ok(after < 1000);
    } finally {
      await replica.close();
      await proxy.stop();
      await db.close();
    }
  });

  test("group commit from two replicas at once bills every request ID exactly once", async () => {
    const teams = await Promise.all([1, 2, 3].map(() => admin.createTeam("g", 10_000_000)));
    const ledgers = [database.db, await database.another!()].map(
      (db) => new GroupCommitUsageLedger(db, { windowMs: 2, maxBatch: 300, maxInFlight: 4 }),
    );
    const at = new Date();
    const usage = (i: number): UsageRecord => ({
      requestId: `req_g${i}`,
      teamId: teams[i % 3]!,
      keyId: "key_x",
      operation: "parse",
      priceMicros: 7,
      at,
    });
    // Every request ID is recorded by both replicas (a replay): still billed once.
    await Promise.all(
      ledgers.flatMap((ledger) => Array.from({ length: 3000 }, (_, i) => ledger.record(usage(i)))),
    );
    await Promise.all(ledgers.map((ledger) => ledger.close()));
    const [row] = await database.db.query<{ n: unknown }>(
      "SELECT count(*) AS n FROM usage_records WHERE team_id = ANY($1::text[])",
      [teams],
    );
    assert.equal(Number(row!.n), 3000);
    for (const teamId of teams) assert.equal((await admin.team(teamId)).creditMicros, 10_000_000 - 1000 * 7);
  });

  test("with the database hung or gone, requests get 503 unavailable in bounded time, and nothing withheld stays billed", async () => {
    const { proxy, db } = await behindProxy(database.url, 300);
    const edge = await accountsApp(db, { TEAM_REFRESH_MS: 100 });
    try {
      const teamId = await admin.createTeam("u", 1_000_000);
      const { secret } = await admin.createKey(teamId, "k");
      const late = await admin.createKey(teamId, "never seen before the outage");
      const parse = (key: string) =>
        edge.app.inject({
          method: "POST",
          url: "/v1/verify/parse",
          headers: bearer(key),
          payload: { line: "x" },
        });
      assert.equal((await parse(secret)).statusCode, 200);
      for (const outage of ["blackhole", "refuse"] as const) {
        proxy[outage]();
        await new Promise((resolve) => setTimeout(resolve, 150));
        for (const key of [secret, late.secret]) {
          const started = Date.now();
          const response = await parse(key);
          assert.equal(response.statusCode, 503, `${outage}: ${response.body}`);
          assert.equal(response.json().error, "unavailable");
          assert.ok(Date.now() - started < 1500, `${outage} answered in ${Date.now() - started} ms`);
        }
        proxy.restore();
        await waitFor(async () => (await parse(secret)).statusCode === 200, 5000);
      }
      await edge.backend.usage.settle();
      await edge.backend.requestLog.flush();
      const billed = await database.db.query<{ request_id: string }>(
        "SELECT request_id FROM usage_records WHERE team_id = $1 AND NOT voided",
        [teamId],
      );
      const logged = await database.db.query<{ request_id: string }>(
        "SELECT request_id FROM request_log_entries WHERE team_id = $1 AND status = 200",
        [teamId],
      );
      assert.deepEqual(billed.map((r) => r.request_id).sort(), logged.map((r) => r.request_id).sort());
    } finally {
      await edge.close();
      await db.close();
      await proxy.stop();
    }
  });

  test("a usage write that times out withholds the 200 (503) and the withheld request is voided", async () => {
    const { proxy, db: proxied } = await behindProxy(database.url, 300);
    const edge = await accountsApp(database.db);
    const ledger = new GroupCommitUsageLedger(proxied, { windowMs: 2, maxBatch: 100, maxInFlight: 2 });
    edge.services.usage = ledger;
    try {
      const teamId = await admin.createTeam("w", 1_000_000);
      const { secret } = await admin.createKey(teamId, "k");
      const parse = () =>
        edge.app.inject({
          method: "POST",
          url: "/v1/verify/parse",
          headers: bearer(secret),
          payload: { line: "x" },
        });
      assert.equal((await parse()).statusCode, 200);
      proxy.blackhole();
      const answers = Promise.all([parse(), parse(), parse()]);
      await waitFor(async () => ledger.backlog().rows === 3, 5000); // the ledger's lag, in metrics
      assert.ok(Date.now() - ledger.backlog().oldestAt! < 5000);
      const withheld = await answers;
      assert.deepEqual(ledger.backlog(), { rows: 0, oldestAt: null });
      assert.deepEqual(
        withheld.map((r) => [r.statusCode, r.json().error]),
        Array(3).fill([503, "unavailable"]),
      );
      assert.equal(ledger.pendingVoids, 3);
      proxy.refuse();
      proxy.restore();
      await waitFor(async () => (await ledger.voidPending(), ledger.pendingVoids === 0), 5000);
      const rows = await database.db.query<{ request_id: string; voided: boolean }>(
        "SELECT request_id, voided FROM usage_records WHERE team_id = $1 ORDER BY voided",
        [teamId],
      );
      assert.equal(rows.filter((r) => !r.voided).length, 1);
      assert.deepEqual(
        rows
          .filter((r) => r.voided)
          .map((r) => r.request_id)
          .sort(),
        withheld.map((r) => String(r.headers["x-request-id"])).sort(),
      );
      assert.equal((await admin.team(teamId)).creditMicros, 1_000_000 - 1000);
    } finally {
      await ledger.close();
      await edge.close();
      await proxied.close();
      await proxy.stop();
    }
  });
});
