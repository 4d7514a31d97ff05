import type { FastifyInstance } from "fastify";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import type { Database } from "../../src/db/database.js";
import type { PortalServices } from "../../src/portal/portal-plugin.js";
import { SqlTeamAccounts } from "../../src/accounts/sql/sql-team-accounts.js";
import { SqlPortalStore } from "../../src/portal/store/sql-portal-store.js";
import { openPgliteForTest } from "../support/databases.js";
import type { TestDatabase } from "../support/databases.js";
import { testApp, testServices } from "../support/test-app.js";

/**
 * The portal in-process over a real accounts database (PGlite from the tests' cached template, or
 * what `open` gives), with a clock the test moves, and two teams with one portal user each.
 */
export const PASSWORD = "correct horse battery staple";

export interface Harness {
  app: FastifyInstance;
  db: Database;
  admin: AccountAdmin;
  clock: { now: Date };
  portal: PortalServices;
  teams: { a: string; b: string };
  close(): Promise<void>;
}

export async function portalHarness(
  overrides: Partial<PortalServices> = {},
  open: () => Promise<TestDatabase> = openPgliteForTest,
): Promise<Harness> {
  const database = await open();
  const db = database.db;
  const admin = new AccountAdmin(db);
  const a = await admin.createTeam("Acme Logistics", 50_000_000);
  const b = await admin.createTeam("Beta Realty", 50_000_000);
  await admin.createPortalUser(a, "ana@acme.test", PASSWORD);
  await admin.createPortalUser(b, "bob@beta.test", PASSWORD);
  const clock = { now: new Date("2026-11-20T12:00:00Z") };
  const portal: PortalServices = {
    store: new SqlPortalStore(db),
    accounts: new SqlTeamAccounts(db),
    currency: "USD",
    prices: { parse: 1000, lookup: 5000, lookup_by_id: 2000 },
    sessionIdleMinutes: 30,
    sessionMaxHours: 12,
    signInLimit: { perEmail: 5, perClient: 20, windowMinutes: 15 },
    now: () => clock.now,
    ...overrides,
  };
  const app = testApp(testServices({ portal }));
  await app.ready();
  return {
    app,
    db,
    admin,
    clock,
    portal,
    teams: { a, b },
    async close() {
      await app.close();
      await database.cleanup();
    },
  };
}

export interface Browser {
  cookie: string;
  csrf: string;
}

export function cookieOf(setCookie: string | string[] | undefined): string {
  const first = [setCookie ?? []].flat().at(-1) ?? "";
  return first.split(";")[0] ?? "";
}

export function csrfOf(body: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? "";
}

export function form(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}

/** Posts form fields to a portal URL with a cookie (or none). */
export function postForm(app: FastifyInstance, url: string, fields: Record<string, string>, cookie?: string) {
  const posted = form(fields);
  return app.inject({
    method: "POST",
    url,
    payload: posted.payload,
    headers: { ...posted.headers, ...(cookie === undefined ? {} : { cookie }) },
  });
}

/** Opens the sign-in page and posts the credentials; the session cookie and CSRF token after. */
export async function signIn(app: FastifyInstance, email: string, password = PASSWORD): Promise<Browser> {
  const page = await app.inject({ method: "GET", url: "/portal/sign-in" });
  const fields = { _csrf: csrfOf(page.body), email, password, next: "/portal/keys" };
  const response = await postForm(app, "/portal/sign-in", fields, cookieOf(page.headers["set-cookie"]));
  if (response.statusCode !== 303) throw new Error(`sign-in answered ${response.statusCode}`);
  const cookie = cookieOf(response.headers["set-cookie"]);
  const keys = await app.inject({ method: "GET", url: "/portal/keys", headers: { cookie } });
  return { cookie, csrf: csrfOf(keys.body) };
}

/** Posts a portal form as the signed-in browser (its CSRF token unless `fields` names another). */
export function post(
  app: FastifyInstance,
  browser: Browser,
  url: string,
  fields: Record<string, string> = {},
) {
  return postForm(app, url, { _csrf: browser.csrf, ...fields }, browser.cookie);
}

/** Writes request-log rows as the API's request log would. */
export async function addLogRows(
  db: Database,
  teamId: string,
  rows: Array<{ requestId: string; path?: string; status?: number; errorCode?: string | null; at: Date }>,
): Promise<void> {
  for (const row of rows) {
    await db.query(
      `INSERT INTO request_logs (request_id, team_id, key_id, method, path, status, error_code, latency_ms, at)
       VALUES ($1, $2, 'key_x', 'POST', $3, $4, $5, 1.5, $6::timestamptz)`,
      [
        row.requestId,
        teamId,
        row.path ?? "/v1/verify/parse",
        row.status ?? 200,
        row.errorCode ?? null,
        row.at.toISOString(),
      ],
    );
  }
}
