import assert from "node:assert/strict";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Gazetteer } from "../../src/places/gazetteer.js";
import { SqlAccountStore } from "../../src/accounts/sql/sql-account-store.js";
import { PostgresDatabase } from "../../src/db/postgres-database.js";
import { openPostgresForTest, serverSkip } from "../support/databases.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { testApp, testServices } from "../support/test-app.js";
import { lookupFixture } from "../parcels/index-fixtures.js";
import type { LocalBlobStore } from "../../src/parcels/store/blob-store.js";

test("healthz and readyz answer without a key, and are neither billed nor logged", async () => {
  const services = testServices();
  const app = testApp(services);
  const health = await app.inject({ method: "GET", url: "/healthz" });
  assert.equal(health.statusCode, 200);
  assert.deepEqual(health.json(), { status: "ok" });
  const ready = await app.inject({ method: "GET", url: "/readyz" });
  assert.equal(ready.statusCode, 200);
  assert.deepEqual(ready.json(), { status: "ready" });
  assert.equal(services.usage.records.size, 0);
  assert.equal(services.requestLog.entries.length, 0);
  await app.close();
});

test("readyz is 503 naming the parcel index when its files are gone before it read them", async (t) => {
  const gazetteer = new Gazetteer([
    { zip5: "94704", city: "BERKELEY", state: "CA", lat: 37.87, lon: -122.26 },
  ]);
  const rows = [{ apn: "A1", fips: "06001", addressNumber: "1", streetName: "MAIN", zip5: "94704" }];
  const { index, store } = await lookupFixture(t, rows, { gazetteer });
  const app = testApp(testServices({ parcels: index }));
  const root = (store as LocalBlobStore).root;
  for (const entry of readdirSync(root)) rmSync(join(root, entry), { recursive: true, force: true });
  const answer = await app.inject({ method: "GET", url: "/readyz" });
  assert.equal(answer.statusCode, 503);
  assert.equal(answer.headers["retry-after"], "5");
  const body = answer.json<{ status: string; reasons: string[] }>();
  assert.equal(body.status, "unready");
  assert.equal(body.reasons.length, 1);
  assert.match(body.reasons[0]!, /^the parcel index cannot be read/);
  index.close();
  await app.close();
});

describe("readyz over PostgreSQL", { skip: await serverSkip("PostgreSQL") }, () => {
  test("is 503 naming the accounts store while the database is unreachable, and ready again after", async () => {
    const database = await openPostgresForTest();
    const { hostname, port, pathname } = new URL(database.url);
    const proxy = new TcpProxy(hostname, Number(port || 5432));
    await proxy.start();
    const db = new PostgresDatabase({
      url: `postgres://postgres@127.0.0.1:${proxy.port}${pathname}`,
      timeoutMs: 300,
    });
    const accounts = await SqlAccountStore.open(db, { keyCacheTtlMs: 60_000, teamRefreshMs: 60_000 });
    const app = testApp(testServices({ accounts }));
    try {
      assert.equal((await app.inject({ method: "GET", url: "/readyz" })).statusCode, 200);
      proxy.refuse();
      const down = await app.inject({ method: "GET", url: "/readyz" });
      assert.equal(down.statusCode, 503);
      const reasons = down.json<{ reasons: string[] }>().reasons;
      assert.equal(reasons.length, 1);
      assert.match(reasons[0]!, /^the accounts store does not answer \(/);
      proxy.restore();
      assert.equal((await app.inject({ method: "GET", url: "/readyz" })).statusCode, 200);
    } finally {
      await app.close();
      await accounts.close();
      await proxy.stop();
      await db.close();
      await database.cleanup();
    }
  });
});
