import assert from "node:assert/strict";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import type { TrustProxy } from "../../src/http/client-address.js";
import { auth, testServices } from "../support/test-app.js";
import type { MemoryAccountStore } from "../../src/accounts/memory-accounts.js";

const GIVEN = "req_5f2b8c1d9e7a4b3c6d0e1f2a3b";

function app(trustProxy: TrustProxy) {
  const services = testServices();
  return {
    services,
    app: buildApp(services, { logger: pino({ level: "silent" }), bodyLimit: 65536, trustProxy }),
  };
}

test("behind a trusted proxy, the balancer's request ID is the request's ID and its usage key", async () => {
  const { app: trusted, services } = app({ addresses: ["127.0.0.1"] });
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

test("without a trusted proxy, from a peer that is not one, or in another format, the header is ignored", async () => {
  const balancer: TrustProxy = { addresses: ["127.0.0.1"] };
  for (const [trustProxy, id, peer] of [
    [false, GIVEN, "127.0.0.1"],
    [balancer, GIVEN, "203.0.113.9"],
    [{ addresses: ["10.0.0.0/8"] }, GIVEN, "127.0.0.1"],
    [balancer, "req_short", "127.0.0.1"],
    [balancer, `${GIVEN}; DROP TABLE`, "127.0.0.1"],
  ] as const) {
    const { app: server } = app(trustProxy);
    const headers = { ...auth, "x-situs-request-id": id };
    const response = await server.inject({
      method: "POST",
      url: "/v1/verify/parse",
      headers,
      payload: { line: "1" },
      remoteAddress: peer,
    });
    assert.notEqual(response.headers["x-request-id"], id);
    assert.match(String(response.headers["x-request-id"]), /^req_[0-9A-Z]{26}$/);
    await server.close();
  }
});

test("another team's request under a billed request ID is billed under an ID of its own", async () => {
  const { app: trusted, services } = app({ addresses: ["127.0.0.1"] });
  const accounts = services.accounts as MemoryAccountStore;
  accounts.addTeam({ teamId: "team_other" });
  accounts.addKey("team_other", "sk_other_0123456789abcdefghijklmnopqrs", "key_other");
  const send = (authorization: string) =>
    trusted.inject({
      method: "POST",
      url: "/v1/verify/parse",
      headers: { authorization, "x-situs-request-id": GIVEN },
      payload: { line: "1" },
    });
  assert.equal((await send(auth.authorization)).headers["x-request-id"], GIVEN);
  const other = await send("Bearer sk_other_0123456789abcdefghijklmnopqrs");
  assert.equal(other.statusCode, 200);
  const ownId = String(other.headers["x-request-id"]);
  assert.notEqual(ownId, GIVEN);
  assert.equal(services.usage.records.get(GIVEN)?.teamId, "team_test");
  assert.equal(services.usage.records.get(ownId)?.teamId, "team_other");
  await trusted.close();
});
