import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ERROR_STATUS } from "../../src/errors.js";
import { listRoutes } from "../../src/http/app.js";
import { WARNING_CODES } from "../../src/parse/parse-answer.js";
import { projectPath } from "../../src/paths.js";
import pino from "pino";
import { buildApp } from "../../src/http/app.js";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../../src/parse/model/model-parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { documentedOnly } from "../support/documented-answers.js";
import { testApp, testServices } from "../support/test-app.js";

const documented = JSON.parse(readFileSync(projectPath("docs", "openapi.json"), "utf8"));

test("docs/openapi.json describes exactly the API routes the service serves", async () => {
  const app = testApp();
  await app.ready();
  // The portal and the reference (/docs) are pages for people, not the API the document describes.
  const served = listRoutes(app)
    .filter(({ url }) => !url.startsWith("/portal") && !url.startsWith("/docs"))
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

test("GET /openapi.json serves the document without a key, naming the address it was asked at", async () => {
  const app = testApp();
  const response = await app.inject({
    method: "GET",
    url: "/openapi.json",
    headers: { host: "api.test:9000" },
  });
  assert.equal(response.statusCode, 200);
  const { servers, ...rest } = response.json();
  const { servers: _written, ...expected } = documented;
  assert.deepEqual(rest, expected);
  assert.deepEqual(servers, [{ url: "http://api.test:9000", description: "This service." }]);
  assert.equal(documented.openapi, "3.1.0");
  await app.close();
});

test("PUBLIC_URL fixes the document's server", async () => {
  const app = buildApp(testServices(), {
    logger: pino({ level: "silent" }),
    bodyLimit: 65536,
    trustProxy: false,
    publicUrl: "https://api.example.com/",
  });
  const response = await app.inject({
    method: "GET",
    url: "/openapi.json",
    headers: { host: "10.0.0.7:8080" },
  });
  assert.equal(response.json().servers[0].url, "https://api.example.com");
  await app.close();
});

test("GET /docs serves the reference and its assets from the service, without a key", async () => {
  const app = testApp();
  const page = await app.inject({ method: "GET", url: "/docs" });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers["content-type"]), /^text\/html/);
  assert.match(String(page.headers["content-security-policy"]), /script-src 'self'/);
  const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  assert.deepEqual(sources, ["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/start.js"]);
  for (const source of sources) {
    const asset = await app.inject({ method: "GET", url: source });
    assert.equal(asset.statusCode, 200, source);
    assert.ok(asset.body.length > 20, source);
  }
  assert.match((await app.inject({ method: "GET", url: "/docs/start.js" })).body, /url: "\/openapi.json"/);
  const missing = await app.inject({ method: "GET", url: "/docs/nothing.js" });
  assert.equal(missing.statusCode, 404);
  assert.match(String(missing.headers["content-type"]), /^text\/plain/);
  await app.close();
});

/** Every schema object with `properties`, by where it is in the document. */
function objectsWithProperties(
  node: unknown,
  at = "#",
): Array<[string, Record<string, { description?: string }>]> {
  if (node === null || typeof node !== "object") return [];
  const own = (node as { properties?: Record<string, { description?: string }> }).properties;
  const children = Object.entries(node).flatMap(([key, value]) =>
    objectsWithProperties(value, `${at}/${key}`),
  );
  return own ? [[at, own], ...children] : children;
}

test("every operation, parameter and property of the document says what it is", () => {
  const undescribed = objectsWithProperties(documented).flatMap(([at, properties]) =>
    Object.entries(properties)
      .filter(([, property]) => !property.description)
      .map(([name]) => `${at}.${name}`),
  );
  assert.deepEqual(undescribed, []);
  const tags = new Set((documented.tags as { name: string }[]).map((tag) => tag.name));
  for (const [path, operations] of Object.entries(
    documented.paths as Record<string, Record<string, Operation>>,
  )) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method} ${path}`;
      assert.ok(operation.summary && operation.description, `${name}: summary and description`);
      assert.ok(operation.tags?.length === 1 && tags.has(operation.tags[0]!), `${name}: a declared tag`);
      for (const parameter of operation.parameters ?? [])
        assert.ok(parameter.description, `${name} ${parameter.name}`);
      for (const [status, response] of Object.entries(operation.responses))
        assert.ok(response.description, `${name} ${status}`);
    }
  }
});

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; description?: string }[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { examples?: Record<string, { value: unknown }> }> }
  >;
}

const operation = (path: string, method: string): Operation => documented.paths[path][method];
const examplesOf = (content: Operation["requestBody"] extends infer C ? C : never) =>
  Object.values(content?.content["application/json"]?.examples ?? {}).map((example) => example.value);
const answerExamples = (op: Operation, status: string): unknown[] =>
  Object.values(op.responses[status]?.content?.["application/json"]?.examples ?? {}).map(
    (example) => example.value,
  );

test("examples: each operation's requests and answers, every lookup outcome, errors; documented fields only", () => {
  const parse = operation("/v1/verify/parse", "post");
  const lookup = operation("/v1/verify/lookup", "post");
  const byId = operation("/v1/verify/lookup/{service_id}", "get");
  assert.ok(examplesOf(parse.requestBody).length >= 2 && examplesOf(lookup.requestBody).length >= 5);
  const parsed = answerExamples(parse, "200") as { type: string }[];
  assert.deepEqual(new Set(parsed.map((answer) => answer.type)), new Set(["street", "po_box"]));
  const looked = answerExamples(lookup, "200") as { status: string }[];
  assert.deepEqual(
    new Set(looked.map((answer) => answer.status)),
    new Set(["matched", "matched_building", "ambiguous", "no_situs_parcel", "not_found"]),
  );
  const records = answerExamples(byId, "200") as { status: string }[];
  assert.deepEqual(records.map((record) => record.status).sort(), ["active", "superseded"]);
  parsed.forEach(documentedOnly("ParseAnswer"));
  looked.forEach(documentedOnly("LookupAnswer"));
  records.forEach(documentedOnly("ParcelRecord"));
  const errors = [parse, lookup, byId].flatMap((op) =>
    Object.keys(op.responses)
      .filter((status) => status !== "200")
      .flatMap((status) => answerExamples(op, status) as { error: string }[]),
  );
  assert.ok(errors.length >= 4);
  for (const error of errors) assert.ok(error.error in ERROR_STATUS, error.error);
});

test("the parse examples are what the parser answers", () => {
  const parser = new ModelParser(new RuleParser(), loadModelFile(DEFAULT_MODEL_FILE));
  for (const answer of answerExamples(operation("/v1/verify/parse", "post"), "200") as { input: string }[])
    assert.deepEqual(parser.parse(answer.input), answer);
});

test("the document's error and warning codes are the service's", () => {
  const schemas = documented.components.schemas;
  assert.deepEqual([...schemas.Error.properties.error.enum].sort(), Object.keys(ERROR_STATUS).sort());
  assert.deepEqual(schemas.Warning.properties.code.enum, [...WARNING_CODES]);
});
