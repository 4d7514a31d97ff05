import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { TEST_KEY, TEST_TEAM, auth, testServices } from "../support/test-app.js";

/** An app whose log lines are kept, parsed. */
function loggedApp(accessLogEvery?: number) {
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      lines.push(JSON.parse(text.slice(0, end)) as Record<string, unknown>);
      text = text.slice(end + 1);
    }
  });
  const logger = pino({ level: "info" }, stream);
  const app = buildApp(testServices(), {
    logger,
    bodyLimit: 65536,
    trustProxy: false,
    ...(accessLogEvery === undefined ? {} : { accessLogEvery }),
  });
  const requests = () => lines.filter((line) => line.msg === "request");
  return { app, lines, requests };
}

const parse = {
  method: "POST",
  url: "/v1/verify/parse",
  payload: { line: "123 Main St Springfield IL" },
} as const;

test("each request has one access line with its req_ ID, route, status, error and team, never the key", async () => {
  const { app, lines, requests } = loggedApp();
  const ok = await app.inject({ ...parse, headers: auth });
  const refused = await app.inject({
    ...parse,
    headers: { authorization: "Bearer sk_test_wrong_key_0123456789abcdefghij" },
  });
  await app.inject({ method: "GET", url: "/healthz" });
  const [first, second, third] = requests();
  assert.equal(requests().length, 3);
  assert.equal(first!.reqId, ok.headers["x-request-id"]);
  assert.match(String(first!.reqId), /^req_[0-9A-Z]{26}$/);
  assert.deepEqual(
    {
      method: first!.method,
      route: first!.route,
      status: first!.status,
      error: first!.error,
      teamId: first!.teamId,
    },
    { method: "POST", route: "/v1/verify/parse", status: 200, error: null, teamId: TEST_TEAM },
  );
  assert.equal(typeof first!.latencyMs, "number");
  assert.equal(refused.statusCode, 401);
  assert.match(String(second!.reqId), /^req_[0-9A-Z]{26}$/);
  assert.deepEqual([second!.status, second!.error, second!.teamId], [401, "invalid_api_key", null]);
  assert.deepEqual([third!.route, third!.status], ["/healthz", 200]);
  const all = JSON.stringify(lines);
  assert.ok(!all.includes(TEST_KEY) && !all.includes("sk_test_wrong"), "a key in the log");
  assert.ok(!/authorization/i.test(all), "a header in the log");
  await app.close();
});

test("the access log samples one request in N, or is off", async () => {
  const sampled = loggedApp(2);
  for (let i = 0; i < 6; i++) await sampled.app.inject({ ...parse, headers: auth });
  assert.equal(sampled.requests().length, 3);
  await sampled.app.close();
  const off = loggedApp(0);
  for (let i = 0; i < 3; i++) await off.app.inject({ ...parse, headers: auth });
  assert.equal(off.requests().length, 0);
  await off.app.close();
});
