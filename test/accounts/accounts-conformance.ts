import { randomBytes } from "node:crypto";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "../../src/accounts/api-keys.js";
import { verifyPassword } from "../../src/accounts/passwords.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { queryRequestLogs, usageReport } from "../../src/accounts/sql/account-queries.js";
import { DEMO_TEAM_ID, ensureDemoTeam } from "../../src/app/demo-team.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { billUsage, voidUsage } from "../../src/accounts/ledger/usage-writes.js";
import { accountsApp, bearer, PRICES } from "../support/accounts-app.js";
import type { AccountsApp } from "../support/accounts-app.js";
import type { Database } from "../../src/db/database.js";
import type { TestDatabase } from "../support/databases.js";

/**
 * One suite, run against every accounts backend (PGlite and PostgreSQL): SPEC.md
 * "Authentication", "Errors" (order of checks, billing) and "Limits", through the real HTTP edge.
 */
export function accountsConformance(
  name: string,
  skip: false | string,
  open: () => Promise<TestDatabase>,
): void {
  describe(`accounts conformance: ${name}`, { skip }, () => {
    let database: TestDatabase;
    let admin: AccountAdmin;
    let edge: AccountsApp;
    const logLines: string[] = [];

    before(async () => {
      database = await open();
      admin = new AccountAdmin(database.db);
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      });
      // Behind a balancer on this host: X-Situs-Request-Id from 127.0.0.1 is believed.
      edge = await accountsApp(database.db, {}, sink, { trustProxy: { addresses: ["127.0.0.1"] } });
    });
    after(async () => {
      await edge?.close();
      await database?.cleanup();
    });

    async function newTeam(credit = 1_000_000): Promise<{ teamId: string; secret: string; keyId: string }> {
      const teamId = await admin.createTeam("t", credit);
      const { keyId, secret } = await admin.createKey(teamId, "k");
      return { teamId, secret, keyId };
    }

    const parse = (secret: string, payload: unknown = { line: "1 Main St" }) =>
      edge.app.inject({
        method: "POST",
        url: "/v1/verify/parse",
        headers: bearer(secret),
        payload: payload as object,
      });

    async function usageRows(teamId: string) {
      await edge.backend.usage.settle();
      return database.db.query<{ request_id: string; price_micros: unknown }>(
        "SELECT request_id, price_micros FROM usage_records WHERE team_id = $1 AND NOT voided",
        [teamId],
      );
    }

    test("a balancer's request ID names one request: replayed it is billed once, reused it is no free 200", async () => {
      const a = await newTeam();
      const b = await newTeam();
      const given = `req_${randomBytes(13).toString("hex").toUpperCase()}`;
      const withId = (secret: string) =>
        edge.app.inject({
          method: "POST",
          url: "/v1/verify/parse",
          headers: { ...bearer(secret), "x-situs-request-id": given },
          payload: { line: "1 Main St" },
        });
      const first = await withId(a.secret);
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers["x-request-id"], given);
      const replayed = await withId(a.secret);
      assert.equal(replayed.statusCode, 200);
      assert.equal(replayed.headers["x-request-id"], given, "the same request again: its ID, billed once");
      const reused = await withId(b.secret);
      assert.equal(reused.statusCode, 200);
      const ownId = String(reused.headers["x-request-id"]);
      assert.notEqual(ownId, given, "another team's request under that ID gets an ID of its own");
      assert.deepEqual(
        (await usageRows(a.teamId)).map((row) => row.request_id),
        [given],
      );
      assert.deepEqual(
        (await usageRows(b.teamId)).map((row) => row.request_id),
        [ownId],
        "and is billed under it",
      );
    });

    test("migrations are recorded and a second run applies nothing", async () => {
      assert.deepEqual(await migrate(database.db, SERVICE_MIGRATIONS), []);
    });

    test("a valid key answers 200, billed once at the configured price", async () => {
      const { teamId, secret } = await newTeam();
      const response = await parse(secret);
      assert.equal(response.statusCode, 200);
      const requestId = response.headers["x-request-id"];
      assert.match(String(requestId), /^req_[0-9A-Z]{26}$/);
      const rows = await usageRows(teamId);
      assert.deepEqual(
        rows.map((r) => [r.request_id, Number(r.price_micros)]),
        [[requestId, PRICES.parse]],
      );
      const team = await admin.team(teamId);
      assert.equal(team.creditMicros, 1_000_000 - PRICES.parse);
      assert.equal(team.monthSpendMicros, PRICES.parse);
    });

    test("unknown, malformed and revoked keys get 401 with WWW-Authenticate and are never billed", async () => {
      const { teamId, secret, keyId } = await newTeam();
      for (const headers of [
        bearer("sk_unknown_key_xxxxxxxxxxxxxxxxxx"),
        { authorization: "Basic abc" },
        {},
      ]) {
        const response = await edge.app.inject({
          method: "POST",
          url: "/v1/verify/parse",
          headers,
          payload: {},
        });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().error, "invalid_api_key");
        assert.equal(response.headers["www-authenticate"], "Bearer");
        assert.equal(response.headers["x-request-id"], undefined);
      }
      assert.equal((await parse(secret)).statusCode, 200);
      await admin.revokeKey(keyId);
      // Replicas hear of the revocation by notification: a 200 may still slip in meanwhile, billed.
      let answered = 1;
      await waitFor(async () => {
        const status = (await parse(secret)).statusCode;
        if (status === 200) answered++;
        return status === 401;
      }, 1000);
      assert.equal((await usageRows(teamId)).length, answered);
    });

    test("a key's verdict is at hand without waiting once read, until a revocation evicts it", async () => {
      const { secret, keyId } = await newTeam();
      const store = edge.backend.accounts;
      assert.equal(store.peek(secret), undefined, "nothing is known before the first read");
      const read = await store.authenticate(secret);
      assert.ok(read);
      // A read that raced a notification (of the key's own creation) is used but not cached.
      await waitFor(
        async () => (await store.authenticate(secret)) !== null && store.peek(secret) !== undefined,
        1000,
      );
      assert.deepEqual(store.peek(secret), read);
      assert.equal(store.peek("sk_unknown_key_yyyyyyyyyyyyyyyyyy"), undefined);
      await admin.revokeKey(keyId);
      await waitFor(async () => store.peek(secret) === undefined, 1000);
      await waitFor(
        async () => (await store.authenticate(secret)) === null && store.peek(secret) === null,
        1000,
      );
      const reads = countKeyReads(database.db);
      assert.equal(await store.authenticate(secret), null);
      assert.equal(reads.stop(), 0, "a cached refusal is answered without reading the keys");
    });

    test("a paused team gets 403 team_paused before any body check, and resumes", async () => {
      const { teamId, secret } = await newTeam();
      assert.equal((await parse(secret)).statusCode, 200);
      await admin.setStatus(teamId, "paused");
      await waitFor(async () => (await parse(secret, "{not json")).statusCode === 403, 1000);
      const refused = await parse(secret, "{not json");
      assert.equal(refused.json().error, "team_paused");
      assert.match(String(refused.headers["x-request-id"]), /^req_/);
      await admin.setStatus(teamId, "active");
      await waitFor(async () => (await parse(secret)).statusCode === 200, 1000);
      assert.equal((await usageRows(teamId)).length, 2);
    });

    test("used-up credit gives 402 insufficient_credit; added credit resumes at once", async () => {
      const { teamId, secret } = await newTeam(PRICES.parse);
      assert.equal((await parse(secret)).statusCode, 200);
      const refused = await parse(secret, "{not json");
      assert.equal(refused.statusCode, 402);
      assert.equal(refused.json().error, "insufficient_credit");
      await admin.addCredit(teamId, PRICES.parse * 10);
      await waitFor(async () => (await parse(secret)).statusCode === 200, 1000);
    });

    test("a reached monthly budget gives 402 budget_exceeded; clearing it resumes", async () => {
      const { teamId, secret } = await newTeam();
      await admin.setBudget(teamId, PRICES.parse * 2);
      await waitFor(async () => (await parse(secret)).statusCode === 200, 1000);
      assert.equal((await parse(secret)).statusCode, 200);
      const refused = await parse(secret);
      assert.equal(refused.statusCode, 402);
      assert.equal(refused.json().error, "budget_exceeded");
      await admin.setBudget(teamId, null);
      await waitFor(async () => (await parse(secret)).statusCode === 200, 1000);
      await edge.backend.usage.settle();
      assert.equal((await admin.team(teamId)).monthSpendMicros, PRICES.parse * 3);
    });

    test("errors are logged with code and request ID and never billed; logs are per team", async () => {
      const { teamId, secret } = await newTeam();
      const other = await newTeam();
      const bad = await parse(secret, "{not json");
      assert.equal(bad.statusCode, 400);
      const good = await parse(secret);
      await parse(other.secret);
      await edge.backend.requestLog.flush();
      assert.equal((await usageRows(teamId)).length, 1);
      const badId = String(bad.headers["x-request-id"]);
      const errors = await queryRequestLogs(database.db, teamId, { errorCode: "invalid_json" });
      assert.deepEqual(
        errors.map((r) => [r.requestId, r.status, r.path]),
        [[badId, 400, "/v1/verify/parse"]],
      );
      const byId = await queryRequestLogs(database.db, teamId, {
        requestId: String(good.headers["x-request-id"]),
      });
      assert.equal(byId[0]?.status, 200);
      assert.equal((await queryRequestLogs(database.db, teamId, { status: 200 })).length, 1);
      assert.equal(
        (await queryRequestLogs(database.db, teamId, { from: new Date(Date.now() + 60_000) })).length,
        0,
      );
      assert.equal((await queryRequestLogs(database.db, other.teamId)).length, 1);
      assert.deepEqual(await queryRequestLogs(database.db, other.teamId, { requestId: badId }), []);
      const keys = await admin.listKeys(teamId);
      assert.ok(keys[0]?.lastUsedAt instanceof Date, "last used is recorded");
    });

    test("request logs older than the retention period are deleted, newer ones kept", async () => {
      const { teamId, keyId } = await newTeam();
      const entry = (requestId: string, daysAgo: number) => ({
        requestId,
        teamId,
        keyId,
        method: "POST",
        path: "/v1/verify/parse",
        status: 200,
        errorCode: null,
        latencyMs: 1,
        at: new Date(Date.now() - daysAgo * 86_400_000),
      });
      edge.backend.requestLog.append(entry("req_old", 31));
      edge.backend.requestLog.append(entry("req_recent", 29));
      await edge.backend.requestLog.flush();
      assert.ok((await edge.backend.requestLog.prune()) >= 1);
      const left = await queryRequestLogs(database.db, teamId);
      assert.deepEqual(
        left.map((r) => r.requestId),
        ["req_recent"],
      );
    });

    test("request log entries keep odd characters, and a request ID logged twice stays one entry", async () => {
      const { teamId, keyId } = await newTeam();
      const entry = (requestId: string, path: string) => ({
        requestId,
        teamId,
        keyId,
        method: "GET",
        path,
        status: 404,
        errorCode: "not_found",
        latencyMs: 0.25,
        at: new Date(),
      });
      const odd = "/v1/verify/lookup/a\\b\tc\nd\re\\N";
      edge.backend.requestLog.append(entry("req_odd", odd));
      await edge.backend.requestLog.flush();
      edge.backend.requestLog.append(entry("req_odd", "/again"));
      edge.backend.requestLog.append(entry("req_next", "/next"));
      await edge.backend.requestLog.flush();
      const rows = await queryRequestLogs(database.db, teamId);
      assert.deepEqual(rows.map((r) => [r.requestId, r.path]).sort(), [
        ["req_next", "/next"],
        ["req_odd", odd],
      ]);
    });

    test("a billed answer is logged once, in its usage row, and shown within the retention period only", async () => {
      const { teamId, secret, keyId } = await newTeam();
      const good = await parse(secret);
      const requestId = String(good.headers["x-request-id"]);
      await edge.backend.usage.settle();
      await edge.backend.requestLog.flush();
      const [entry] = await queryRequestLogs(database.db, teamId, { requestId });
      assert.deepEqual(
        [entry?.status, entry?.errorCode, entry?.method, entry?.path],
        [200, null, "POST", "/v1/verify/parse"],
      );
      assert.ok(entry!.latencyMs >= 0 && entry!.latencyMs < 60_000);
      assert.deepEqual(
        await database.db.query("SELECT 1 FROM request_logs WHERE request_id = $1", [requestId]),
        [],
        "no second row",
      );
      assert.ok((await admin.listKeys(teamId))[0]?.lastUsedAt instanceof Date, "the key's last use is kept");

      const old = new Date(Date.now() - 40 * 86_400_000);
      await billUsage(database.db, [
        {
          requestId: "req_billed_long_ago",
          teamId,
          keyId,
          operation: "parse",
          priceMicros: 1,
          at: old,
          log: { method: "POST", path: "/v1/verify/parse", latencyMs: 1 },
        },
      ]);
      assert.deepEqual(await queryRequestLogs(database.db, teamId, { requestId: "req_billed_long_ago" }), []);
      assert.equal((await usageRows(teamId)).length, 2, "still billed");
    });

    test("the ledger bills a request ID once; a voided one is refunded and can never be billed", async () => {
      const { teamId, keyId } = await newTeam();
      const at = new Date();
      const usage = (requestId: string) => ({
        requestId,
        teamId,
        keyId,
        operation: "lookup" as const,
        priceMicros: 5000,
        at,
      });
      const inserted = async (records: ReturnType<typeof usage>[]) =>
        (await billUsage(database.db, records)).inserted;
      assert.equal(await inserted([usage("req_a"), usage("req_a"), usage("req_b")]), 2);
      assert.equal(await inserted([usage("req_a")]), 0);
      await Promise.all([
        edge.backend.usage.record(usage("req_c")),
        edge.backend.usage.record(usage("req_c")),
      ]);
      await edge.backend.usage.settle();
      assert.equal((await admin.team(teamId)).creditMicros, 1_000_000 - 3 * 5000);
      assert.equal(await voidUsage(database.db, [usage("req_b"), usage("req_never_written")]), 1);
      assert.deepEqual(await billUsage(database.db, [usage("req_never_written")]), {
        inserted: 0,
        taken: new Set(["req_never_written"]),
      });
      const team = await admin.team(teamId);
      assert.equal(team.creditMicros, 1_000_000 - 2 * 5000);
      assert.equal(team.monthSpendMicros, 2 * 5000);
      const report = await usageReport(database.db, teamId);
      assert.deepEqual(report.byOperation, [{ operation: "lookup", requests: 2, spendMicros: 10_000 }]);
      const stranger = await newTeam();
      assert.deepEqual(
        (await usageReport(database.db, stranger.teamId)).byOperation,
        [],
        "no other team's usage",
      );
    });

    test("keys are stored only as hash and prefix, and never reach the logs", async () => {
      const { teamId, secret } = await newTeam();
      await parse(secret);
      await parse(`${secret}x`);
      const rows = await database.db.query<{ hash: string; display_prefix: string }>(
        "SELECT hash, display_prefix FROM api_keys WHERE team_id = $1",
        [teamId],
      );
      assert.equal(rows[0]?.hash, hashApiKey(secret));
      assert.ok(
        secret.startsWith(rows[0]!.display_prefix) && rows[0]!.display_prefix.length < secret.length / 2,
      );
      assert.ok(!logLines.join("").includes(secret), "no secret in the service log");
    });

    test("portal users get a scrypt hash; e-mails are unique", async () => {
      const { teamId } = await newTeam();
      await admin.createPortalUser(teamId, "Ops@Example.com", "correct horse battery");
      const [row] = await database.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM portal_users WHERE team_id = $1",
        [teamId],
      );
      assert.match(row!.password_hash, /^scrypt\$32768\$8\$1\$/);
      assert.equal(await verifyPassword("correct horse battery", row!.password_hash), true);
      assert.equal(await verifyPassword("correct horse battery!", row!.password_hash), false);
      await assert.rejects(admin.createPortalUser(teamId, "ops@example.com", "another long password"));
    });

    test("the demo team is created once on an empty database, with a fixed key when given", async () => {
      await database.db.script(
        "TRUNCATE usage_records, request_logs, monthly_spend, credit_leases, api_keys, portal_users, teams",
      );
      const secret = await ensureDemoTeam(database.db);
      assert.ok(secret?.startsWith("sk_"));
      assert.equal(await ensureDemoTeam(database.db), null);
      assert.equal(await ensureDemoTeam(database.db, "sk_fixed_demo_key_for_tests_0001"), null);
      assert.deepEqual(
        (await admin.teams()).map((t) => t.teamId),
        [DEMO_TEAM_ID],
      );
      assert.equal((await admin.listKeys(DEMO_TEAM_ID)).length, 2);
      await waitFor(async () => (await parse("sk_fixed_demo_key_for_tests_0001")).statusCode === 200, 1000);
      assert.equal((await parse(secret!)).statusCode, 200);
    });
  });
}

/**
 * Polls `check` until it holds and returns when (ms after the start) the successful check began;
 * fails once a check that began after `withinMs` still does not hold. Timing by when a check
 * began keeps a slow answer on a loaded machine from counting against the bound.
 */
export async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const began = Date.now() - start;
    if (await check()) return began;
    if (began > withinMs) assert.fail(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Counts the queries that read API keys on `db` until `stop()`, which returns the count. */
function countKeyReads(db: Database): { stop(): number } {
  const query = db.query.bind(db);
  let reads = 0;
  db.query = ((sql: string, params?: readonly unknown[]) => {
    if (/FROM api_keys/i.test(sql)) reads++;
    return query(sql, params);
  }) as Database["query"];
  return {
    stop() {
      db.query = query;
      return reads;
    },
  };
}
