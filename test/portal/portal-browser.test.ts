import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { pino } from "pino";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { ensureDemoTeam } from "../../src/app/demo-team.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { buildServices } from "../../src/app/composition.js";
import { loadConfig } from "../../src/config.js";
import { buildApp } from "../../src/http/app.js";
import { projectPath } from "../../src/paths.js";
import { pgliteTemplate } from "../support/databases.js";

/**
 * The portal end to end, as a person uses it: the real service on 127.0.0.1 (embedded database
 * in a temporary DATA_DIR) driven by Debian's headless Chromium through playwright-core.
 * Screenshots of every page go to test-results/screenshots/.
 */
const CHROMIUM = "/usr/bin/chromium";
const SHOTS = projectPath("test-results", "screenshots");
const DEMO_KEY = "sk_e2e_demo_key_0123456789abcdefghij";
const EMAIL = "demo@example.com";
const PASSWORD = "e2e demo password 2026";
const OTHER = { key: "sk_e2e_other_team_key_0123456789abcdef", keyId: "" };

let dataDir: string;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let page: Page;

/** Seeds the service's embedded database before it starts (from the tests' cached initdb). */
async function seedOtherTeam(): Promise<void> {
  const db = await PgliteDatabase.open(join(dataDir, "accounts"), await pgliteTemplate());
  await migrate(db, SERVICE_MIGRATIONS);
  try {
    await ensureDemoTeam(db, DEMO_KEY);
    const admin = new AccountAdmin(db);
    const team = await admin.createTeam("Beta Realty", 100_000_000);
    await admin.createPortalUser(team, "bob@beta.test", "beta password 2026");
    OTHER.keyId = (await admin.createKey(team, "beta production", OTHER.key)).keyId;
  } finally {
    await db.close();
  }
}

before(async () => {
  if (!existsSync(CHROMIUM)) return;
  dataDir = mkdtempSync(join(tmpdir(), "situs-portal-e2e-"));
  const env = {
    DATA_DIR: dataDir,
    DEMO_API_KEY: DEMO_KEY,
    DEMO_PORTAL_EMAIL: EMAIL,
    DEMO_PORTAL_PASSWORD: PASSWORD,
    PRICE_PARSE_MICROS: "250000",
    SHED_EVENT_LOOP_DELAY_MS: "0",
    LOG_LEVEL: "silent",
  };
  await seedOtherTeam();
  const config = loadConfig(env);
  const log = pino({ level: "silent" });
  const services = await buildServices(config, log);
  app = buildApp(services, { logger: log, bodyLimit: 65536, trustProxy: false });
  app.addHook("onClose", async () => services.close());
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  page.setDefaultTimeout(15_000);
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const skip = existsSync(CHROMIUM) ? false : `needs ${CHROMIUM} (apt-get install chromium)`;

function callApi(key: string, line = "1600 Pennsylvania Ave NW, Washington DC 20500") {
  return fetch(`${base}/v1/verify/parse`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ line }),
  });
}

/** Calls until the answer has `status` (changes reach the key cache and standing within moments). */
async function eventually(key: string, status: number): Promise<Response> {
  let response = await callApi(key);
  for (let i = 0; i < 30 && response.status !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    response = await callApi(key);
  }
  return response;
}

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

test("a team's developer uses the portal in a real browser", { skip }, async (t) => {
  const other = await callApi(OTHER.key);
  assert.equal(other.status, 200);
  const otherRequestId = other.headers.get("x-request-id") ?? "";

  await t.test("sign in", async () => {
    await page.goto(`${base}/portal`);
    assert.match(page.url(), /\/portal\/sign-in/);
    await shot("sign-in");
    await page.getByLabel("E-mail").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/portal\/keys$/);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "API keys");
    // Keyboard: the first Tab reaches the skip link, which moves focus to the content.
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate("document.activeElement.textContent"), "Skip to content");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate("document.activeElement.id"), "main");
  });

  let secret = "";
  let requestId = "";
  await t.test("create a key, see it once, call the API with it", async () => {
    await page.getByLabel("Name").fill("E2E server");
    await page.getByRole("button", { name: "Create key" }).click();
    secret = await page.locator("#new-key").inputValue();
    assert.match(secret, /^sk_[\w-]{32}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.locator(".copy-status").filter({ hasText: /\S/ }).waitFor();
    await shot("keys-created");
    const response = await callApi(secret);
    assert.equal(response.status, 200);
    requestId = response.headers.get("x-request-id") ?? "";
    assert.match(requestId, /^req_\w{26}$/);
    await page.goto(`${base}/portal/keys`);
    assert.equal(await page.locator("#new-key").count(), 0, "the key is never shown again");
    assert.equal(await page.content().then((html) => html.includes(secret)), false);
  });

  await t.test("revoke it: the API answers 401", async () => {
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke E2E server" }).click();
    await page.waitForURL(/revoked=1/);
    await page.getByText("Key revoked.").waitFor();
    await shot("keys");
    const response = await eventually(secret, 401);
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: string }).error, "invalid_api_key");
  });

  await t.test("find that call by its request ID in the logs", async () => {
    await page.goto(`${base}/portal/logs`);
    for (let i = 0; i < 20 && !(await page.getByText(requestId).count()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await page.reload();
    }
    await shot("logs");
    await page.getByLabel("Request ID").fill(requestId);
    await page.getByRole("button", { name: "Apply" }).click();
    const rows = page.locator("table.logs tbody tr");
    assert.equal(await rows.count(), 1);
    const row = (await rows.first().textContent()) ?? "";
    assert.match(row, new RegExp(requestId));
    assert.match(row, /Parse/);
    assert.match(row, /200/);
    await shot("logs-request");
  });

  await t.test("usage shows the billed call", async () => {
    await page.goto(`${base}/portal/usage`);
    assert.match((await page.locator(".cards").textContent()) ?? "", /\$0\.25/);
    assert.equal((await page.locator("figure.chart svg rect").count()) >= 1, true);
    await shot("usage");
  });

  await t.test("a budget below the month's spend: the API answers 402", async () => {
    await page.goto(`${base}/portal/billing`);
    await page.getByRole("textbox", { name: /Monthly budget/ }).fill("0.10");
    await page.getByRole("button", { name: "Set budget" }).click();
    await page.getByText("Budget saved.").waitFor();
    await page.getByText("Budget reached").waitFor();
    await shot("billing");
    const response = await eventually(DEMO_KEY, 402);
    assert.equal(response.status, 402);
    assert.equal(((await response.json()) as { error: string }).error, "budget_exceeded");
    await page.getByRole("button", { name: "Clear budget" }).click();
    await page.getByText("Budget cleared.").waitFor();
    assert.equal((await eventually(DEMO_KEY, 200)).status, 200);
  });

  await t.test("another team's data is unreachable by URL and by forged form posts", async () => {
    await page.goto(`${base}/portal/logs?request_id=${otherRequestId}`);
    await page.getByText("No request of this team has that ID").waitFor();
    const csrf = await page.locator('form.sign-out input[name="_csrf"]').inputValue();
    // A form post as the browser would send it, with this session's cookie and valid token.
    const response = await page.context().request.post(`${base}/portal/keys/${OTHER.keyId}/revoke`, {
      form: { _csrf: csrf },
      maxRedirects: 0,
    });
    const forged = { status: response.status(), text: await response.text() };
    assert.equal(forged.status, 404);
    assert.doesNotMatch(forged.text, /beta production/);
    assert.equal((await callApi(OTHER.key)).status, 200, "the other team's key still works");
    await page.goto(`${base}/portal/keys`);
    assert.doesNotMatch(await page.content(), /beta production/);
  });

  await t.test("on a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["usage", "keys", "logs", "billing"]) {
      await page.goto(`${base}/portal/${path}`);
      const overflow = Number(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      );
      assert.ok(overflow <= 0, `${path}: no sideways scrolling (${overflow}px)`);
      await shot(`${path}-phone`);
    }
    // The usage chart shows its whole range, today's bar included, within the screen.
    await page.goto(`${base}/portal/usage`);
    const chart = await page.locator(".chart svg").boundingBox();
    assert.ok(
      chart !== null && chart.x >= 0 && chart.x + chart.width <= 390,
      `the chart within 390 px (${JSON.stringify(chart)})`,
    );
    // Every key's status and its action are on the screen, not off to the right of a wide table.
    await page.goto(`${base}/portal/keys`);
    for (const cell of await page.locator("tbody td").all()) {
      const box = await cell.boundingBox();
      assert.ok(
        box !== null && box.x >= 0 && box.x + box.width <= 390,
        `a cell within 390 px (${JSON.stringify(box)})`,
      );
    }
    assert.match((await page.locator("tbody td[data-label=Status]").first().textContent()) ?? "", /\S/);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  await t.test("the API reference, linked from every page, renders from the service itself", async () => {
    await page.goto(`${base}/portal/usage`);
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(/\/docs$/);
    await page.getByText("Parse one line of free-text US address.").first().waitFor();
    assert.ok((await page.locator(".opblock").count()) >= 6, "every operation listed");
    await shot("reference");
    await page.goBack();
  });

  await t.test("sign out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/portal\/sign-in/);
    await page.goto(`${base}/portal/billing`);
    assert.match(page.url(), /\/portal\/sign-in/);
  });
});
