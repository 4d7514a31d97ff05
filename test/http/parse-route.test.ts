import assert from "node:assert/strict";
import { test } from "node:test";
import { auth, testApp } from "../support/test-app.js";

test("parse: a street line answers 200 with the rule-based parse", async () => {
  const app = testApp();
  const response = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers: auth,
    payload: { line: "123 N Main St Apt 4B, Springfield, IL 62701-1234" },
  });
  assert.equal(response.statusCode, 200);
  const answer = response.json();
  assert.equal(answer.type, "street");
  assert.deepEqual(answer.lines, ["123 N MAIN ST APT 4B", "SPRINGFIELD IL  62701-1234"]);
  assert.deepEqual(answer.model, { name: "situs-rules", version: "0.1.0", backend: "heuristic" });
  assert.deepEqual(answer.warnings, []);
  await app.close();
});

test("parse: 256 characters are accepted, 257 give 413 line_too_long with max", async () => {
  const app = testApp();
  const ok = await app.inject({
    method: "POST",
    url: "/v1/address/parse",
    headers: auth,
    payload: { line: "1".repeat(256) },
  });
  assert.equal(ok.statusCode, 200);
  const tooLong = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers: auth,
    payload: { line: "1".repeat(257) },
  });
  assert.equal(tooLong.statusCode, 413);
  assert.deepEqual(
    { error: tooLong.json().error, max: tooLong.json().max },
    { error: "line_too_long", max: 256 },
  );
  await app.close();
});

test("parse: no key gives 401 and parses nothing", async () => {
  const app = testApp();
  const response = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    payload: { line: "1 Main St" },
  });
  assert.equal(response.statusCode, 401);
  assert.equal(response.json().error, "invalid_api_key");
  await app.close();
});
