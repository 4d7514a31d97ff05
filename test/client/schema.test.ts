import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import openapiTS, { astToString } from "openapi-typescript";
import { format, resolveConfig } from "prettier";
import { projectPath } from "../../src/paths.js";

test("the client's types are generated from docs/openapi.json as it is (npm run generate:client)", async () => {
  const file = projectPath("packages", "client", "src", "schema.ts");
  const document = JSON.parse(readFileSync(projectPath("docs", "openapi.json"), "utf8"));
  const generated = astToString(await openapiTS(document));
  const header = readFileSync(file, "utf8").split("\n").slice(0, 5).join("\n");
  const formatted = await format(`${header}\n\n${generated}`, {
    ...(await resolveConfig(file)),
    filepath: file,
  });
  assert.equal(formatted, readFileSync(file, "utf8"));
});
