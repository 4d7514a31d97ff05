import assert from "node:assert/strict";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pino } from "pino";
import { buildServices } from "../../src/app/composition.js";
import { loadConfig } from "../../src/config.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model/model-parser.js";
import { testApp } from "../support/test-app.js";

const KEY = "sk_test_model_0123456789abcdefghijklmnop";

async function parseWith(modelFile: string | undefined, line: string) {
  const env = {
    DATA_DIR: mkdtempSync(join(tmpdir(), "situs-")),
    DEMO_API_KEY: KEY,
    PARSER_MODEL_FILE: modelFile,
  };
  const services = await buildServices(loadConfig(env), pino({ level: "silent" }));
  const app = testApp(services);
  const response = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers: { authorization: `Bearer ${KEY}` },
    payload: { line },
  });
  await app.close();
  await services.close();
  return response;
}

test("the service starts and answers without the model file: rules, model_unavailable", async () => {
  const response = await parseWith("/nonexistent/situs-crf.bin", "123 Main St, Springfield, IL 62701");
  assert.equal(response.statusCode, 200);
  const answer = response.json();
  assert.equal(answer.model.backend, "heuristic");
  assert.ok(answer.warnings.some((w: { code: string }) => w.code === "model_unavailable"));
  assert.equal(answer.components.zip5, "62701");
});

test(
  "with the shipped model an ordinary line is answered by the model",
  { skip: existsSync(DEFAULT_MODEL_FILE) ? false : "no data/model/situs-crf.bin (run npm run train)" },
  async () => {
    const response = await parseWith(undefined, "123 Main St, Springfield, IL 62701");
    const answer = response.json();
    assert.deepEqual(answer.model, { name: "situs-crf", version: "0.3.0", backend: "model" });
    assert.deepEqual(answer.lines, ["123 MAIN ST", "SPRINGFIELD IL  62701"]);
    assert.deepEqual(answer.warnings, []);
  },
);
