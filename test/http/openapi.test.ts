import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ERROR_STATUS } from "../../src/errors.js";
import { listRoutes } from "../../src/http/app.js";
import { WARNING_CODES } from "../../src/parse/parse-answer.js";
import { projectPath } from "../../src/paths.js";
import { testApp } from "../support/test-app.js";

const documented = JSON.parse(readFileSync(projectPath("docs", "openapi.json"), "utf8"));

test("docs/openapi.json describes exactly the API routes the service serves", async () => {
  const app = testApp();
  await app.ready();
  // The web portal (/portal) is pages for people, not part of the API the document describes.
  const served = listRoutes(app)
    .filter(({ url }) => !url.startsWith("/portal"))
    .map(({ method, url }) => `${method} ${url.replace(/:(\w+)/g, "{$1}")}`)
    .sort();
  const inDocument = Object.entries(documented.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
  assert.deepEqual(served, inDocument);
  await app.close();
});

test("GET /openapi.json serves the document without a key", async () => {
  const app = testApp();
  const response = await app.inject({ method: "GET", url: "/openapi.json" });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), documented);
  assert.equal(documented.openapi, "3.1.0");
  await app.close();
});

test("the document's error and warning codes are the service's", () => {
  const schemas = documented.components.schemas;
  assert.deepEqual([...schemas.Error.properties.error.enum].sort(), Object.keys(ERROR_STATUS).sort());
  assert.deepEqual(schemas.Warning.properties.code.enum, [...WARNING_CODES]);
});
