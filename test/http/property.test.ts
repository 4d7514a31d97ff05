import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { TEST_KEY, testApp } from "../support/test-app.js";

/**
 * Random bodies and headers at every route: whatever arrives, the answer is the spec's status
 * set, JSON for every API answer (plain text only for 404 of unknown paths), never a 500.
 */
const app = testApp();
after(() => app.close());

const ROUTES = [
  ["POST", "/v1/verify/parse"],
  ["POST", "/v1/address/parse"],
  ["POST", "/v1/verify/lookup"],
  ["POST", "/v1/property/lookup"],
  ["GET", "/v1/verify/lookup/adr_01HV2J3K4M5N6P7Q8R9S0T1V2W"],
  ["GET", "/v1/property/lookup/adr_01HV2J3K4M5N6P7Q8R9S0T1V2W"],
] as const;

const body = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ line: value })),
  fc
    .dictionary(
      fc.constantFrom("line", "streetName", "zip5", "city", "type", "components", "addressNumber", "x"),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map((value) => JSON.stringify(value)),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
);

const authorization = fc.oneof(
  fc.constant(`Bearer ${TEST_KEY}`),
  fc.string({ maxLength: 80 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
  fc.string({ maxLength: 40 }).map((value) => `Bearer ${value.replace(/[^\x21-\x7e]/g, "")}`),
);

const contentType = fc.constantFrom(
  "application/json",
  "text/plain",
  "application/octet-stream",
  "multipart/form-data; boundary=x",
  "",
  "application/json; charset=latin1",
);

describe("property: random requests never break the contract", () => {
  test("random bodies, keys and content types at every route", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        body,
        authorization,
        contentType,
        async ([method, url], payload, auth, type) => {
          const headers: Record<string, string> = { authorization: auth };
          if (type !== "") headers["content-type"] = type;
          const response = await app.inject({
            method,
            url,
            headers,
            ...(method === "POST" ? { payload } : {}),
          });
          assert.ok(
            [200, 400, 401, 404, 413, 422, 429].includes(response.statusCode),
            `${response.statusCode} ${response.body}`,
          );
          assert.match(String(response.headers["content-type"]), /^application\/json/);
          const parsed = JSON.parse(response.body) as Record<string, unknown>;
          if (response.statusCode >= 400) assert.equal(typeof parsed.error, "string");
        },
      ),
      { numRuns: 400, seed: 20261120 },
    );
  });

  test("random IDs on the lookup-by-ID path", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (id) => {
        const url = `/v1/verify/lookup/${encodeURIComponent(id)}`;
        const response = await app.inject({
          method: "GET",
          url,
          headers: { authorization: `Bearer ${TEST_KEY}` },
        });
        assert.ok([200, 400, 404, 422].includes(response.statusCode), `${id} → ${response.statusCode}`);
        assert.match(String(response.headers["content-type"]), /^application\/json/);
        if (response.statusCode !== 200) assert.equal(typeof JSON.parse(response.body).error, "string");
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test("deeply nested JSON is answered, not crashed on", async () => {
    for (const depth of [1_000, 30_000]) {
      const nested = "[".repeat(depth) + "]".repeat(depth);
      for (const [method, url] of ROUTES.filter(([m]) => m === "POST")) {
        const response = await app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${TEST_KEY}` },
          payload: nested,
        });
        assert.ok([400, 413].includes(response.statusCode), `${depth}: ${response.statusCode}`);
      }
      const inLine = `{"line":${"[".repeat(depth / 10)}${"]".repeat(depth / 10)}}`;
      const response = await app.inject({
        method: "POST",
        url: "/v1/verify/parse",
        headers: { authorization: `Bearer ${TEST_KEY}` },
        payload: inLine,
      });
      assert.equal(response.statusCode, 400);
    }
  });
});
