import assert from "node:assert/strict";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { clientKey, parseTrustProxy, trustFunction } from "../../src/http/client-address.js";
import type { TrustProxy } from "../../src/http/client-address.js";
import { loadConfig } from "../../src/config.js";
import { testServices } from "../support/test-app.js";

test("TRUST_PROXY takes proxies' addresses or a hop count, never 'trust everything'", () => {
  assert.equal(parseTrustProxy("false", "TRUST_PROXY"), false);
  assert.equal(parseTrustProxy("0", "TRUST_PROXY"), false);
  assert.deepEqual(parseTrustProxy("2", "TRUST_PROXY"), { hops: 2 });
  assert.deepEqual(parseTrustProxy("loopback, 10.0.0.0/8", "TRUST_PROXY"), {
    addresses: ["loopback", "10.0.0.0/8"],
  });
  for (const raw of ["true", "yes", "on"])
    assert.throws(
      () => loadConfig({ TRUST_PROXY: raw }),
      /TRUST_PROXY no longer trusts every peer.*addresses/,
    );
  assert.throws(() => loadConfig({ TRUST_PROXY: "10.0.0.300" }), /TRUST_PROXY must be false, a hop count/);
});

test("a hop count trusts that many proxies from the connection's peer inwards", () => {
  const trust = trustFunction({ hops: 1 });
  assert.ok(trust !== false);
  assert.equal(trust("203.0.113.9", 0), true);
  assert.equal(trust("198.51.100.1", 1), false);
  assert.equal(trustFunction(false), false);
});

test("clients are counted per IPv4 address and per IPv6 network of the configured prefix", () => {
  assert.equal(clientKey("203.0.113.9", 64), "203.0.113.9");
  assert.equal(clientKey("::ffff:203.0.113.9", 64), "203.0.113.9");
  const a = clientKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64);
  assert.equal(a, "2001:db8:1:2::/64");
  assert.equal(clientKey("2001:db8:1:2::1", 64), a);
  assert.notEqual(clientKey("2001:db8:1:3::1", 64), a);
  assert.equal(clientKey("2001:db8:1:3::1", 48), "2001:db8:1::/48");
  assert.equal(clientKey("2001:db8:1:2::1", 128), "2001:db8:1:2::1/128");
});

/** The client address the service counts, for one request from `peer` carrying `forwarded`. */
async function clientSeen(trustProxy: TrustProxy, peer: string, forwarded?: string): Promise<string> {
  const app = buildApp(testServices(), { logger: pino({ level: "silent" }), bodyLimit: 65536, trustProxy });
  let seen = "";
  app.addHook("onRequest", async (request) => {
    seen = request.client;
  });
  await app.inject({
    url: "/healthz",
    remoteAddress: peer,
    headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
  });
  await app.close();
  return seen;
}

test("X-Forwarded-For is believed only as far as trusted proxies wrote it", async () => {
  const balancer: TrustProxy = { addresses: ["10.0.0.5"] };
  // Not through the balancer: the header is the client's own claim.
  assert.equal(await clientSeen(balancer, "203.0.113.9", "198.51.100.1"), "203.0.113.9");
  assert.equal(await clientSeen(false, "203.0.113.9", "198.51.100.1"), "203.0.113.9");
  // Through the balancer: the address it saw, not what the client prepended.
  assert.equal(await clientSeen(balancer, "10.0.0.5", "198.51.100.1, 203.0.113.9"), "203.0.113.9");
  assert.equal(await clientSeen({ hops: 1 }, "10.0.0.5", "198.51.100.1, 203.0.113.9"), "203.0.113.9");
  assert.equal(await clientSeen(balancer, "10.0.0.5", "2001:db8:5:6::7"), "2001:db8:5:6::/64");
});
