import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { IndexUnavailableError } from "../../src/parcels/parcel-index.js";
import type { ParcelIndex } from "../../src/parcels/parcel-index.js";
import { notFoundAnswer } from "../../src/parcels/lookup-types.js";
import type { ParcelRecord } from "../../src/parcels/lookup-types.js";
import type { Services } from "../../src/http/services.js";
import { TEST_KEY, TEST_TEAM, testServices } from "../support/test-app.js";
import type { TestServices } from "../support/test-app.js";
import type { Answer, Exchange, Transport } from "../support/transport.js";

/**
 * The HTTP contract of SPEC.md, as one suite run twice: in-process and over a real socket
 * (test/http/contract-*.test.ts). Every case names the rule it holds.
 */
export type MakeTransport = (services: Services) => Promise<Transport>;

const REQUEST_ID = /^req_[0-9A-Z]{26}$/;
const KNOWN_ID = "adr_01HV2J3K4M5N6P7Q8R9S0T1V2W";
const auth = { authorization: `Bearer ${TEST_KEY}` };
const json = { ...auth, "content-type": "application/json" };

const RECORD: ParcelRecord = {
  status: "active",
  service_id: KNOWN_ID,
  superseded_by: [],
  building_id: null,
  apn: "057-2041-012",
  fips: "06001",
  lat: 37.87,
  lon: -122.27,
  addressNumber: "2100",
  addressNumberSuffix: null,
  predirectional: null,
  streetName: "MILVIA",
  streetSuffix: "ST",
  postdirectional: null,
  occupancyId: null,
  city: "BERKELEY",
  state: "CA",
  zip5: "94704",
  zip4: null,
};

/** An index holding one parcel, or failing the way it is told to. */
function oneParcelIndex(failure?: Error, states?: number): ParcelIndex {
  return {
    async lookup() {
      if (failure) throw failure;
      const phases = { fetchMs: 0.1, matchMs: 0.1 };
      if (states !== undefined) return { result: { error: "location_required", states }, phases };
      return { result: notFoundAnswer(["zip:94704"], "chunk"), phases };
    },
    async findById(id) {
      if (failure) throw failure;
      return { result: id === KNOWN_ID ? RECORD : undefined, phases: { fetchMs: 0.1 } };
    },
  };
}

export function contractSuite(kind: string, makeTransport: MakeTransport): void {
  async function withService<T>(
    services: TestServices,
    run: (send: (exchange: Exchange) => Promise<Answer>) => Promise<T>,
  ): Promise<T> {
    const transport = await makeTransport(services);
    try {
      return await run((exchange) => transport.send(exchange));
    } finally {
      await transport.close();
    }
  }

  /** Sends one exchange to a fresh service; returns the answer and the services to inspect. */
  async function exchange(exchange: Exchange, overrides: Partial<Services> = {}) {
    const services = testServices({ parcels: oneParcelIndex(), ...overrides });
    const response = await withService(services, (send) => send(exchange));
    return { response, services };
  }

  function assertError(response: Answer, status: number, code: string): Record<string, unknown> {
    assert.equal(response.status, status, response.text);
    assert.match(response.headers["content-type"] ?? "", /^application\/json/);
    const body = response.json();
    assert.equal(body.error, code);
    assert.equal(typeof body.message, "string");
    return body;
  }

  const parse = (body: string | Buffer, headers: Record<string, string> = json): Exchange => ({
    method: "POST",
    url: "/v1/verify/parse",
    headers,
    body,
  });
  const lookup = (body: unknown): Exchange => ({
    method: "POST",
    url: "/v1/verify/lookup",
    headers: json,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const byId = (id: string): Exchange => ({ method: "GET", url: `/v1/verify/lookup/${id}`, headers: auth });

  describe(`HTTP contract (${kind})`, () => {
    describe("parse", () => {
      test("200: JSON answer, x-request-id, Server-Timing with inference, billed once, logged", async () => {
        const { response, services } = await exchange(parse(JSON.stringify({ line: "1 MAIN ST" })));
        assert.equal(response.status, 200);
        assert.match(response.headers["content-type"] ?? "", /^application\/json/);
        assert.equal(response.json().input, "1 MAIN ST");
        const requestId = response.headers["x-request-id"] ?? "";
        assert.match(requestId, REQUEST_ID);
        assert.match(response.headers["server-timing"] ?? "", /inference;dur=[\d.]+.*total;dur=[\d.]+/);
        assert.deepEqual([...services.usage.records.keys()], [requestId]);
        const usage = services.usage.records.get(requestId)!;
        assert.equal(usage.operation, "parse");
        assert.equal(usage.priceMicros, 1000);
        assert.equal(usage.teamId, TEST_TEAM);
        assert.equal(services.requestLog.entries.length, 1);
        assert.equal(services.requestLog.entries[0]!.status, 200);
        assert.equal(services.requestLog.entries[0]!.errorCode, null);
      });

      test("the older path /v1/address/parse answers identically and is billed as parse", async () => {
        const services = testServices();
        await withService(services, async (send) => {
          const body = JSON.stringify({ line: "PO BOX 12, AUSTIN TX 78701" });
          const current = await send(parse(body));
          const older = await send({ ...parse(body), url: "/v1/address/parse" });
          assert.equal(older.status, 200);
          assert.deepEqual(older.json(), current.json());
          assert.equal(services.usage.records.size, 2);
        });
      });

      test("an empty line is a 200 answer and is billed", async () => {
        const { response, services } = await exchange(parse(JSON.stringify({ line: "   " })));
        assert.equal(response.status, 200);
        assert.equal(services.usage.records.size, 1);
      });

      test("extra fields are ignored", async () => {
        const { response } = await exchange(
          parse(JSON.stringify({ line: "1 MAIN ST", extra: [1, { a: 2 }] })),
        );
        assert.equal(response.status, 200);
      });

      for (const [name, body] of [
        ["truncated JSON", '{"line":'],
        ["empty body", ""],
        ["text", "line=1 MAIN ST"],
        ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ] as const) {
        test(`400 invalid_json: ${name}, not billed, logged with its code`, async () => {
          const { response, services } = await exchange(parse(body));
          assertError(response, 400, "invalid_json");
          assert.match(response.headers["x-request-id"] ?? "", REQUEST_ID);
          assert.equal(services.usage.records.size, 0);
          assert.equal(services.requestLog.entries[0]?.errorCode, "invalid_json");
          assert.equal(response.headers["server-timing"], undefined);
        });
      }

      test("400 invalid_json whatever the Content-Type", async () => {
        for (const type of [
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/json; charset=utf-8",
        ]) {
          const { response } = await exchange(parse("{nope", { ...auth, "content-type": type }));
          assertError(response, 400, "invalid_json");
        }
      });

      test("a JSON body is read whatever the Content-Type, or with none", async () => {
        for (const headers of [{ ...auth, "content-type": "text/plain" }, auth]) {
          const { response } = await exchange(parse(JSON.stringify({ line: "1 MAIN ST" }), headers));
          assert.equal(response.status, 200);
        }
      });

      for (const body of [
        "{}",
        '{"line":5}',
        '{"line":{"a":1}}',
        '{"line":null}',
        "[]",
        '"1 MAIN ST"',
        "null",
        "42",
      ]) {
        test(`400 line_required: ${body}`, async () => {
          const { response } = await exchange(parse(body));
          assertError(response, 400, "line_required");
        });
      }

      test("413 line_too_long with max 256 for 257 characters", async () => {
        const { response, services } = await exchange(parse(JSON.stringify({ line: "A".repeat(257) })));
        const body = assertError(response, 413, "line_too_long");
        assert.equal(body.max, 256);
        assert.equal(services.usage.records.size, 0);
      });

      test("length is counted in characters, not bytes or UTF-16 units", async () => {
        for (const line of ["😀".repeat(256), "é".repeat(256), "A".repeat(256)]) {
          const { response } = await exchange(parse(JSON.stringify({ line })));
          assert.equal(response.status, 200, line.slice(0, 4));
        }
        const { response } = await exchange(parse(JSON.stringify({ line: "😀".repeat(257) })));
        assertError(response, 413, "line_too_long");
      });

      test("413 body_too_large with the limit for a body over it", async () => {
        const { response } = await exchange(parse(JSON.stringify({ line: "x".repeat(70_000) })));
        const body = assertError(response, 413, "body_too_large");
        assert.equal(body.max, 65536);
      });

      test("500 internal_error when the parser fails, not billed", async () => {
        const failing = {
          parse(): never {
            throw new Error("boom");
          },
        };
        const { response, services } = await exchange(parse(JSON.stringify({ line: "1 MAIN ST" })), {
          parser: failing,
        });
        const body = assertError(response, 500, "internal_error");
        assert.doesNotMatch(String(body.message), /boom/);
        assert.equal(services.usage.records.size, 0);
      });
    });

    describe("lookup", () => {
      const bare = { addressNumber: "2100", streetName: "MILVIA", streetSuffix: "ST", zip5: "94704" };

      test("200: bare components; Server-Timing with r2fetch, match and total; billed as lookup", async () => {
        const { response, services } = await exchange(lookup(bare));
        assert.equal(response.status, 200, response.text);
        assert.equal(response.json().status, "not_found");
        assert.match(response.headers["server-timing"] ?? "", /r2fetch;dur=.*match;dur=.*total;dur=/);
        assert.equal([...services.usage.records.values()][0]?.operation, "lookup");
      });

      test("200: a whole parse answer (type street and components) and numbers as values", async () => {
        const parseAnswer = {
          input: "x",
          type: "street",
          components: { ...bare, addressNumber: 2100 },
          lines: [],
          warnings: [],
        };
        const { response } = await exchange(lookup(parseAnswer));
        assert.equal(response.status, 200, response.text);
      });

      test("the older path /v1/property/lookup answers identically", async () => {
        const { response } = await exchange({ ...lookup(bare), url: "/v1/property/lookup" });
        assert.equal(response.status, 200);
        assert.equal(response.json().readPath, "chunk");
      });

      test("null counts as absent; secondaryUnits of a parse answer is accepted", async () => {
        const components = {
          ...bare,
          zip5: null,
          city: "BERKELEY",
          state: "CA",
          secondaryUnits: [{ type: "APT", id: "1" }],
        };
        const { response } = await exchange(lookup({ type: "street", components }));
        assert.equal(response.status, 200, response.text);
      });

      test("400 invalid_json", async () => {
        assertError((await exchange(lookup("{"))).response, 400, "invalid_json");
      });

      for (const body of [
        "[]",
        '"MAIN"',
        "7",
        "null",
        { ...bare, streetName: true },
        { ...bare, zip5: { a: 1 } },
        { components: "x" },
        { ...bare, secondaryUnits: "APT 1" },
        { type: "street", components: { ...bare, city: [1] } },
      ]) {
        test(`400 components_required: ${JSON.stringify(body)}`, async () => {
          assertError((await exchange(lookup(body))).response, 400, "components_required");
        });
      }

      test("422 unsupported_type echoes type; a PO box parse answer gets it before street_required", async () => {
        const poBox = { type: "po_box", components: { poBoxType: "PO BOX", poBoxId: "12", zip5: "78701" } };
        const body = assertError((await exchange(lookup(poBox))).response, 422, "unsupported_type");
        assert.equal(body.type, "po_box");
        const bareRural = assertError(
          (await exchange(lookup({ ...bare, type: "rural_route" }))).response,
          422,
          "unsupported_type",
        );
        assert.equal(bareRural.type, "rural_route");
      });

      for (const body of [
        { zip5: "94704" },
        { streetName: "", zip5: "94704" },
        { streetName: " .,- ", zip5: "94704" },
        { streetName: null, zip5: "94704" },
      ]) {
        test(`400 street_required: ${JSON.stringify(body)}`, async () => {
          assertError((await exchange(lookup(body))).response, 400, "street_required");
        });
      }

      test("400 location_required without zip5 and city", async () => {
        const body = assertError(
          (await exchange(lookup({ streetName: "MILVIA", state: "CA" }))).response,
          400,
          "location_required",
        );
        assert.equal(body.states, undefined);
      });

      test("400 location_required with states when the city exists in several states", async () => {
        const { response } = await exchange(lookup({ streetName: "MAIN", city: "SPRINGFIELD" }), {
          parcels: oneParcelIndex(undefined, 34),
        });
        assert.equal(assertError(response, 400, "location_required").states, 34);
      });

      test("503 matchkey_unavailable when the index cannot be read; 500 internal_error on a failure; neither billed", async () => {
        const down = await exchange(lookup(bare), {
          parcels: oneParcelIndex(new IndexUnavailableError("store down")),
        });
        assertError(down.response, 503, "matchkey_unavailable");
        const broken = await exchange(lookup(bare), { parcels: oneParcelIndex(new TypeError("bug")) });
        assertError(broken.response, 500, "internal_error");
        assert.equal(down.services.usage.records.size + broken.services.usage.records.size, 0);
      });
    });

    describe("lookup by ID", () => {
      test("200: the record; Server-Timing with r2fetch and total; billed as lookup_by_id", async () => {
        const { response, services } = await exchange(byId(KNOWN_ID));
        assert.equal(response.status, 200);
        assert.deepEqual(response.json(), RECORD);
        assert.match(response.headers["server-timing"] ?? "", /r2fetch;dur=.*total;dur=/);
        assert.equal([...services.usage.records.values()][0]?.operation, "lookup_by_id");
      });

      test("the older path /v1/property/lookup/{id} answers identically; ULIDs are case-insensitive", async () => {
        const older = await exchange({ ...byId(KNOWN_ID), url: `/v1/property/lookup/${KNOWN_ID}` });
        assert.deepEqual(older.response.json(), RECORD);
        const lower = await exchange(byId(`adr_${KNOWN_ID.slice(4).toLowerCase()}`));
        assert.equal(lower.response.status, 200);
      });

      for (const id of [
        "adr_123",
        "xyz",
        `adr_${"U".repeat(26)}`,
        `adr_8${"0".repeat(25)}`,
        `ADR_${KNOWN_ID.slice(4)}`,
        `${KNOWN_ID}0`,
        "adr_%20%20",
      ]) {
        test(`400 invalid_id: ${id}`, async () => {
          assertError((await exchange(byId(id))).response, 400, "invalid_id");
        });
      }

      test("422 unsupported_id_type for a building ID", async () => {
        assertError((await exchange(byId(`bld_${KNOWN_ID.slice(4)}`))).response, 422, "unsupported_id_type");
      });

      test("404 not_found as JSON echoing service_id, not billed", async () => {
        const unknown = "adr_01HV2J3K4M5N6P7Q8R9S0T1V2X";
        const { response, services } = await exchange(byId(unknown));
        assert.equal(assertError(response, 404, "not_found").service_id, unknown);
        assert.equal(services.usage.records.size, 0);
        assert.match(response.headers["x-request-id"] ?? "", REQUEST_ID);
      });

      test("503 matchkey_unavailable when the index cannot be read", async () => {
        const { response } = await exchange(byId(KNOWN_ID), {
          parcels: oneParcelIndex(new IndexUnavailableError("chunk corrupt")),
        });
        assertError(response, 503, "matchkey_unavailable");
      });
    });

    describe("authentication and the order of checks", () => {
      for (const [name, headers] of [
        ["no header", {}],
        ["another scheme", { authorization: `Basic ${TEST_KEY}` }],
        ["Bearer alone", { authorization: "Bearer" }],
        ["two tokens", { authorization: `Bearer ${TEST_KEY} extra` }],
        ["unknown key", { authorization: "Bearer sk_unknown" }],
      ] as const) {
        test(`401 invalid_api_key with WWW-Authenticate: Bearer: ${name}; no request ID, not logged`, async () => {
          const { response, services } = await exchange(parse('{"line":"1 MAIN ST"}', { ...headers }));
          assertError(response, 401, "invalid_api_key");
          assert.equal(response.headers["www-authenticate"], "Bearer");
          assert.equal(response.headers["x-request-id"], undefined);
          assert.equal(services.requestLog.entries.length, 0);
          assert.equal(services.usage.records.size, 0);
        });
      }

      test("the scheme is case-insensitive", async () => {
        const { response } = await exchange(parse('{"line":"1"}', { authorization: `bearer ${TEST_KEY}` }));
        assert.equal(response.status, 200);
      });

      test("401 for a revoked key; the key check precedes the body", async () => {
        const services = testServices();
        services.accounts.revokeKey(TEST_KEY);
        await withService(services, async (send) => {
          assertError(await send(parse("{broken")), 401, "invalid_api_key");
        });
      });

      test("429 rate_limited once one address presents more different unknown keys than allowed", async () => {
        const services = testServices(); // allows 5 different unknown keys a minute
        await withService(services, async (send) => {
          for (let i = 0; i < 5; i++) {
            const headers = { authorization: `Bearer sk_guess_${i}` };
            assertError(await send(parse("{}", headers)), 401, "invalid_api_key");
            assertError(await send(parse("{}", headers)), 401, "invalid_api_key"); // the same key again does not count
          }
          const limited = await send(parse("{}", { authorization: "Bearer sk_guess_6" }));
          assertError(limited, 429, "rate_limited");
          assert.equal(limited.headers["retry-after"], "60");
          // A valid key from the same address is still served.
          assert.equal((await send(parse('{"line":"1 MAIN ST"}'))).status, 200);
        });
      });

      test("a malformed Authorization header is a presented key: it counts toward the limit too", async () => {
        const services = testServices(); // allows 5 different unknown keys a minute
        await withService(services, async (send) => {
          for (let i = 0; i < 5; i++) {
            const refused = await send(parse("{}", { authorization: `Basic guess${i}` }));
            assertError(refused, 401, "invalid_api_key");
          }
          assertError(await send(parse("{}", { authorization: "Basic guess6" })), 429, "rate_limited");
        });
      });

      test("503 unavailable when keys cannot be checked: the store fails or hangs (no hang)", async () => {
        const failing = {
          async authenticate(): Promise<never> {
            throw new Error("db down");
          },
          async close() {},
        };
        assertError(
          (await exchange(parse('{"line":"1"}'), { accounts: failing as never })).response,
          503,
          "unavailable",
        );
        const hanging = { authenticate: () => new Promise<never>(() => {}), async close() {} };
        const started = Date.now();
        assertError(
          (await exchange(parse('{"line":"1"}'), { accounts: hanging as never })).response,
          503,
          "unavailable",
        );
        assert.ok(Date.now() - started < 2000);
      });

      test("403 team_paused precedes body checks and 402; has a request ID; logged; not billed", async () => {
        const services = testServices();
        services.accounts.addTeam({ teamId: TEST_TEAM, status: "paused", creditMicros: 0 });
        await withService(services, async (send) => {
          for (const body of ["{broken", JSON.stringify({ line: "x".repeat(300) }), '{"line":"1 MAIN ST"}']) {
            const response = await send(parse(body));
            assertError(response, 403, "team_paused");
            assert.match(response.headers["x-request-id"] ?? "", REQUEST_ID);
          }
          assertError(await send(byId("nonsense")), 403, "team_paused");
        });
        assert.equal(services.usage.records.size, 0);
        assert.deepEqual(
          services.requestLog.entries.map((entry) => entry.errorCode),
          Array(4).fill("team_paused"),
        );
      });

      test("402 insufficient_credit, then 402 budget_exceeded, both before body checks", async () => {
        const broke = testServices();
        broke.accounts.addTeam({
          teamId: TEST_TEAM,
          creditMicros: 0,
          budgetMicros: 10,
          monthSpendMicros: 10,
        });
        await withService(broke, async (send) =>
          assertError(await send(parse("{broken")), 402, "insufficient_credit"),
        );
        const capped = testServices();
        capped.accounts.addTeam({ teamId: TEST_TEAM, budgetMicros: 5_000_000, monthSpendMicros: 5_000_000 });
        await withService(capped, async (send) =>
          assertError(await send(lookup("{broken")), 402, "budget_exceeded"),
        );
        const under = testServices();
        under.accounts.addTeam({ teamId: TEST_TEAM, budgetMicros: 5_000_000, monthSpendMicros: 4_999_999 });
        await withService(under, async (send) =>
          assert.equal((await send(parse('{"line":"1"}'))).status, 200),
        );
      });

      test("503 unavailable instead of an unbilled 200 when the usage record cannot be made durable", async () => {
        const ledger = {
          async record(): Promise<never> {
            throw new Error("disk full");
          },
          async close() {},
        };
        const { response, services } = await exchange(parse('{"line":"1 MAIN ST"}'), { usage: ledger });
        assertError(response, 503, "unavailable");
        assert.equal(response.headers["server-timing"], undefined);
        assert.equal(services.requestLog.entries[0]?.errorCode, "unavailable");
        assert.equal(services.requestLog.entries[0]?.status, 503);
      });

      test("the request log records method, path without query, status, code, latency, team and key", async () => {
        const { services } = await exchange({ ...byId("adr_bad"), url: "/v1/verify/lookup/adr_bad?x=1" });
        const [entry] = services.requestLog.entries;
        assert.ok(entry);
        assert.equal(entry.method, "GET");
        assert.equal(entry.path, "/v1/verify/lookup/adr_bad");
        assert.equal(entry.status, 400);
        assert.equal(entry.errorCode, "invalid_id");
        assert.equal(entry.teamId, TEST_TEAM);
        assert.equal(entry.keyId, "key_test");
        assert.ok(entry.latencyMs >= 0);
        assert.match(entry.requestId, REQUEST_ID);
      });
    });

    describe("other paths, methods and CORS", () => {
      for (const [method, url] of [
        ["GET", "/"],
        ["GET", "/v1/verify/parse"],
        ["PUT", "/v1/verify/parse"],
        ["DELETE", "/v1/verify/lookup"],
        ["OPTIONS", "/v1/verify/parse"],
        ["OPTIONS", "/v1/verify/lookup"],
        ["HEAD", `/v1/verify/lookup/${KNOWN_ID}`],
        ["POST", `/v1/verify/lookup/${KNOWN_ID}`],
        ["POST", "/v1/verify/parse/"],
        ["POST", "/v2/verify/parse"],
      ] as const) {
        test(`404 plain text: ${method} ${url}`, async () => {
          const headers = { ...auth, origin: "https://example.com", "access-control-request-method": "POST" };
          const { response } = await exchange({ method, url, headers });
          assert.equal(response.status, 404);
          assert.match(response.headers["content-type"] ?? "", /^text\/plain/);
          if (method !== "HEAD") assert.equal(response.text, "Not Found\n");
          assert.ok(!Object.keys(response.headers).some((name) => name.startsWith("access-control-")));
        });
      }

      test("no CORS headers on answers, whatever the Origin", async () => {
        const headers = { ...json, origin: "https://example.com" };
        for (const request of [
          parse('{"line":"1"}', headers),
          parse("{", headers),
          parse("{}", { origin: "https://x" }),
        ]) {
          const { response } = await exchange(request);
          assert.ok(!Object.keys(response.headers).some((name) => name.startsWith("access-control-")));
        }
      });
    });
  });
}
