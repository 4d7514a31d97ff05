import assert from "node:assert/strict";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { auth, testServices } from "../support/test-app.js";

const GIVEN = "req_5f2b8c1d9e7a4b3c6d0e1f2a3b";

function app(trustProxy: boolean) {
  const services = testServices();
  return {
    services,
    app: buildApp(services, { logger: pino({ level: "silent" }), bodyLimit: 65536, trustProxy }),
  };
}

test("behind a trusted proxy, the balancer's request ID is the request's ID and its usage key", async () => {
  const { app: trusted, services } = app(true);
  const headers = { ...auth, "x-situs-request-id": GIVEN };
  const response = await trusted.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers,
    payload: { line: "1" },
  });
  assert.equal(response.headers["x-request-id"], GIVEN);
  assert.ok(services.usage.records.has(GIVEN));
  await trusted.close();
});

test("without a trusted proxy, or in another format, the header is ignored", async () => {
  for (const [trustProxy, id] of [
    [false, GIVEN],
    [true, "req_short"],
    [true, `${GIVEN}; DROP TABLE`],
  ] as const) {
    const { app: server } = app(trustProxy);
    const headers = { ...auth, "x-situs-request-id": id };
    const response = await server.inject({
      method: "POST",
      url: "/v1/verify/parse",
      headers,
      payload: { line: "1" },
    });
    assert.notEqual(response.headers["x-request-id"], id);
    assert.match(String(response.headers["x-request-id"]), /^req_[0-9A-Z]{26}$/);
    await server.close();
  }
});
