import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { escapeHtml, html } from "../../src/portal/view/html.js";
import { formatMoney, parseMoney } from "../../src/portal/view/money.js";
import { niceCeiling } from "../../src/portal/view/usage-chart.js";
import { dayRange } from "../../src/portal/view/usage-range.js";
import { addLogRows, portalHarness, post, signIn } from "./portal-harness.js";
import type { Browser, Harness } from "./portal-harness.js";

let h: Harness;
let ana: Browser;
before(async () => {
  h = await portalHarness();
  ana = await signIn(h.app, "ana@acme.test");
});
after(() => h.close());

const get = (url: string) => h.app.inject({ url, headers: { cookie: ana.cookie } });
const requestIds = (body: string) =>
  [...body.matchAll(/<code class="id">(req_\w+)<\/code>/g)].map((m) => m[1]);
const id = (n: number) => `req_01LOG${String(n).padStart(21, "0")}`;

describe("request logs", () => {
  before(async () => {
    const start = Date.parse("2026-11-19T00:00:00Z");
    await addLogRows(
      h.db,
      h.teams.a,
      Array.from({ length: 120 }, (_, n) => ({
        requestId: id(n),
        at: new Date(start + n * 60_000),
        path:
          n % 3 === 0 ? "/v1/verify/lookup" : n % 3 === 1 ? "/v1/address/parse" : "/v1/verify/lookup/adr_x",
        status: n % 10 === 0 ? 402 : 200,
        errorCode: n % 10 === 0 ? "budget_exceeded" : null,
      })),
    );
  });

  test("newest first, 50 a page, Older and Newer links walk the pages", async () => {
    const first = await get("/portal/logs");
    const ids = requestIds(first.body);
    assert.equal(ids.length, 50);
    assert.equal(ids[0], id(119));
    assert.equal(ids[49], id(70));
    const older = /href="(\/portal\/logs\?before=[^"]+)"/.exec(first.body)?.[1]?.replaceAll("&amp;", "&");
    assert.ok(older);
    const second = await get(older);
    assert.deepEqual(requestIds(second.body).slice(0, 2), [id(69), id(68)]);
    const newer = /href="(\/portal\/logs\?after=[^"]+)"/.exec(second.body)?.[1]?.replaceAll("&amp;", "&");
    assert.ok(newer);
    assert.deepEqual(requestIds((await get(newer)).body), ids);
  });

  test("filters by status, error code, operation and time; a request ID finds one row", async () => {
    const refused = requestIds((await get("/portal/logs?status=4xx")).body);
    assert.equal(refused.length, 12);
    assert.deepEqual(requestIds((await get("/portal/logs?error=budget_exceeded&status=402")).body), refused);
    const byId = requestIds((await get("/portal/logs?operation=lookup_by_id&from=2026-11-19T01:00")).body);
    assert.deepEqual(byId.slice(0, 3), [id(119), id(116), id(113)]);
    assert.ok(byId.every((found) => Number(found?.slice(-3)) >= 60 && Number(found?.slice(-3)) % 3 === 2));
    assert.deepEqual(requestIds((await get(`/portal/logs?request_id=${id(7)}&status=5xx`)).body), [id(7)]);
    const page = (await get(`/portal/logs?request_id=${id(7)}`)).body;
    assert.match(page, /Lookup by ID/);
    assert.match(page, /1\.5 ms/);
  });

  test("a body too large answers an HTML 413, not a crash page", async () => {
    const response = await post(h.app, ana, "/portal/keys", { name: "x".repeat(70_000) });
    assert.equal(response.statusCode, 413);
    assert.match(String(response.headers["content-type"]), /text\/html/);
  });

  test("values outside the offered choices are ignored, not errors", async () => {
    const response = await get("/portal/logs?status=abc&error=<script>&operation=drop&from=yesterday");
    assert.equal(response.statusCode, 200);
    assert.equal(requestIds(response.body).length, 50);
    assert.doesNotMatch(response.body, /<script>/);
  });
});

describe("usage and billing", () => {
  test("usage sums billed requests per day and operation; voided rows never count", async () => {
    const rows = [
      ["req_U1", "parse", 1000, "2026-11-18T10:00:00Z", false],
      ["req_U2", "parse", 1000, "2026-11-18T11:00:00Z", false],
      ["req_U3", "lookup", 5000, "2026-11-19T10:00:00Z", false],
      ["req_U4", "lookup", 5000, "2026-11-19T10:00:00Z", true],
    ] as const;
    for (const [requestId, operation, price, at, voided] of rows) {
      await h.db.query(
        `INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at, voided)
         VALUES ($1, $2, 'key_x', $3, $4, $5::timestamptz, $6)`,
        [requestId, h.teams.a, operation, price, at, voided],
      );
    }
    const page = (await get("/portal/usage?from=2026-11-18&to=2026-11-19")).body;
    assert.match(page, /Billed requests<\/h2>\s*<p class="figure">3<\/p>/);
    assert.match(page, /Spend<\/h2>\s*<p class="figure">\$0\.007<\/p>/);
    assert.match(page, /<title>Nov 18: Parse 2<\/title>/);
    assert.match(page, /<title>Nov 19: Lookup 1<\/title>/);
    const reversed = await get("/portal/usage?from=2026-11-19&to=2026-11-01");
    assert.match(reversed.body, /showing the last 30 days instead/);
  });

  test("usage and request logs download as CSV, with the page's range and filters", async () => {
    await h.db.query(
      `INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at, voided)
       VALUES ('req_CSV1', $1, 'key_x', 'lookup', 5000, '2026-11-10T10:00:00Z', false)`,
      [h.teams.a],
    );
    const usage = await get("/portal/usage.csv?from=2026-11-10&to=2026-11-10");
    assert.equal(usage.statusCode, 200);
    assert.match(String(usage.headers["content-type"]), /^text\/csv/);
    assert.match(
      String(usage.headers["content-disposition"]),
      /attachment; filename="situs-usage-2026-11-10-2026-11-10\.csv"/,
    );
    assert.equal(usage.body, "day,operation,billed_requests,spend_usd\n2026-11-10,lookup,1,0.005000\n");
    await addLogRows(h.db, h.teams.a, [
      { requestId: id(901), status: 402, errorCode: "budget_exceeded", at: new Date("2026-11-20T09:00:00Z") },
      { requestId: id(902), path: "/v1/verify/parse", status: 200, at: new Date("2026-11-20T09:01:00Z") },
    ]);
    const logs = await get("/portal/logs.csv?status=402");
    assert.equal(logs.statusCode, 200);
    const lines = logs.body.trim().split("\n");
    assert.equal(lines[0], "at,request_id,operation,method,path,status,error_code,latency_ms");
    assert.ok(
      lines.slice(1).every((line) => line.includes(",402,")),
      logs.body,
    );
    assert.ok(lines.some((line) => line.includes(id(901)) && line.includes(",402,budget_exceeded,")));
    assert.ok(!logs.body.includes(id(902)), "the filter holds");
    // A row opens to its details: its request ID links to the page of that one request.
    const list = (await get("/portal/logs")).body;
    assert.match(
      list,
      new RegExp(`<a href="/portal/logs\\?request_id=${id(901)}"><code class="id">${id(901)}</code></a>`),
    );
    const details = (await get(`/portal/logs?request_id=${id(901)}`)).body;
    assert.match(details, /<h2>Request details<\/h2>/);
    assert.match(details, /<dt>Status<\/dt>\s*<dd>402<\/dd>/);
    assert.match(details, /<dt>Error code<\/dt>\s*<dd><code>budget_exceeded<\/code><\/dd>/);
    assert.match(details, /<dt>Billed<\/dt>\s*<dd>no<\/dd>/);
    // Another team's rows never come with it; signed out, it is the sign-in page.
    const bob = await signIn(h.app, "bob@beta.test");
    const other = await h.app.inject({ url: "/portal/logs.csv", headers: { cookie: bob.cookie } });
    assert.ok(!other.body.includes(id(901)));
    assert.equal((await h.app.inject({ url: "/portal/usage.csv" })).statusCode, 303);
  });

  test("today's usage by hour, up to the current hour (UTC)", async () => {
    for (const [requestId, operation, at] of [
      ["req_H1", "parse", "2026-11-20T09:15:00Z"],
      ["req_H2", "parse", "2026-11-20T09:45:00Z"],
      ["req_H3", "lookup", "2026-11-20T11:59:00Z"],
      ["req_H4", "parse", "2026-11-19T23:59:00Z"],
    ] as const) {
      await h.db.query(
        `INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at, voided)
         VALUES ($1, $2, 'key_x', $3, 1000, $4::timestamptz, false)`,
        [requestId, h.teams.a, operation, at],
      );
    }
    const page = (await get("/portal/usage")).body;
    assert.match(page, /<h2 id="today-title">Today by hour \(UTC\)<\/h2>/);
    const count = (hour: string) => new RegExp(`>${hour}</th>\\s*<td[^>]*>(\\d+)</td>`).exec(page)?.[1];
    assert.deepEqual(["12:00", "11:00", "10:00", "09:00", "00:00"].map(count), ["0", "1", "0", "2", "0"]);
    assert.equal(count("13:00"), undefined, "no hour after the current one");
  });

  test("a team with no billed request yet is shown how to make its first call", async () => {
    const bob = await signIn(h.app, "bob@beta.test");
    const page = await h.app.inject({ method: "GET", url: "/portal/usage", headers: { cookie: bob.cookie } });
    assert.match(page.body, /<h2>Make a first call<\/h2>/);
    assert.match(page.body, /<a href="\/docs">the API reference<\/a>/);
    assert.match(page.body, /curl -s -X POST http:\/\/localhost:80\/v1\/verify\/parse/);
    assert.match(page.body, /Authorization: Bearer YOUR_KEY/);
    // A team with usage sees its figures, not the first step.
    assert.doesNotMatch((await get("/portal/usage?from=2026-11-18&to=2026-11-19")).body, /Make a first call/);
  });

  test("the budget is set, changed and cleared; a bad amount changes nothing", async () => {
    assert.equal(
      (await post(h.app, ana, "/portal/billing/budget", { action: "set", budget: "1,250.50" })).statusCode,
      303,
    );
    assert.equal((await h.admin.team(h.teams.a)).budgetMicros, 1_250_500_000);
    assert.match((await get("/portal/billing?saved=set")).body, /value="1250\.50"/);
    const bad = await post(h.app, ana, "/portal/billing/budget", { action: "set", budget: "12.345" });
    assert.equal(bad.statusCode, 422);
    assert.equal((await h.admin.team(h.teams.a)).budgetMicros, 1_250_500_000);
    await post(h.app, ana, "/portal/billing/budget", { action: "clear" });
    assert.equal((await h.admin.team(h.teams.a)).budgetMicros, null);
  });

  test("a new key's secret is in the creation answer only, never stored or listed", async () => {
    const created = await post(h.app, ana, "/portal/keys", { name: "<b>bold</b> server" });
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers["cache-control"], "no-store");
    const secret = /id="new-key"[^>]*value="(sk_[\w-]+)"/.exec(created.body)?.[1];
    assert.ok(secret);
    assert.match(created.body, /&lt;b&gt;bold&lt;\/b&gt; server/);
    const list = await get("/portal/keys");
    assert.doesNotMatch(list.body, new RegExp(secret));
    assert.match(list.body, new RegExp(`<code>${secret.slice(0, 11)}…</code>`));
    const stored = await h.db.query("SELECT count(*)::int AS n FROM api_keys WHERE hash = $1", [secret]);
    assert.equal(stored[0]?.n, 0);
  });
});

describe("pure parts", () => {
  test("money: exact parsing, formatting that hides no fraction of a cent", () => {
    assert.equal(parseMoney("250"), 250_000_000);
    assert.equal(parseMoney("$1,250.5"), 1_250_500_000);
    assert.equal(parseMoney("0.10"), 100_000);
    for (const bad of ["", "abc", "1.234", "-5", "1e3", "99999999999"])
      assert.equal(parseMoney(bad), null, bad);
    assert.equal(formatMoney(250_000_000, "USD"), "$250.00");
    assert.equal(formatMoney(3000, "USD"), "$0.003");
    assert.equal(formatMoney(1_234_567, "USD"), "$1.234567");
    assert.equal(formatMoney(5_000_000, "EUR"), "€5.00");
  });

  test("html escapes every interpolated value", () => {
    assert.equal(escapeHtml(`<a href="x">'&`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;");
    const name = `"><script>alert(1)</script>`;
    assert.equal(html`<p title="${name}">${[name, null, false, 3]}</p>`.text.includes("<script>"), false);
  });

  test("chart axis and day ranges", () => {
    assert.deepEqual([0, 0.3, 1, 7, 12, 999].map(niceCeiling), [1, 0.5, 1, 10, 20, 1000]);
    const range = dayRange({}, new Date("2026-03-02T05:00:00Z"));
    assert.equal(range.days.length, 30);
    assert.equal(range.to, "2026-03-02");
    assert.equal(range.from, "2026-02-01");
    assert.equal(dayRange({ from: "2026-02-30" }, new Date("2026-03-02T05:00:00Z")).adjusted, true);
    // Whatever was wrong, an adjusted range is the last 30 days it says it shows.
    for (const query of [
      { from: "2026-02-30", to: "2026-01-15" },
      { from: "2026-01-20", to: "2026-01-10" },
      { from: "2020-01-01", to: "2026-01-10" },
      { from: "2026-01-10", to: "bad" },
    ]) {
      const adjusted = dayRange(query, new Date("2026-03-02T05:00:00Z"));
      assert.deepEqual(
        [adjusted.adjusted, adjusted.from, adjusted.to],
        [true, "2026-02-01", "2026-03-02"],
        JSON.stringify(query),
      );
    }
  });
});
