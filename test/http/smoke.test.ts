import assert from "node:assert/strict";
import { test } from "node:test";
import { auth, testApp } from "../support/test-app.js";

test("a parse with a valid key answers 200 JSON", async () => {
  const app = testApp();
  const response = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers: auth,
    payload: { line: "" },
  });
  assert.equal(response.statusCode, 200);
  assert.equal(response.json().type, "ambiguous");
  await app.close();
});
