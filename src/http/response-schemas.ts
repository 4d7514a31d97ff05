import { loadOpenApiDocument } from "./routes/openapi.js";

/** The answers of the API's 200s, as docs/openapi.json names their schemas. */
export type AnswerSchemaName = "ParseAnswer" | "LookupAnswer" | "ParcelRecord";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

let schemas: Record<string, Json> | undefined;

/**
 * The documented schema of a 200 answer, from docs/openapi.json with its `$ref`s written out in
 * place: tests hold every answer to it, and `npm run bench:serialization` compiles it.
 *
 * The routes do not serialize through it. A serializer compiled from this schema by
 * fast-json-stringify (what Fastify does with a route's response schema) takes 1.2 to 1.8 times
 * as long as JSON.stringify to write a parse answer (4.9 against 2.7 µs, 5.9 against 4.8 µs in
 * two runs of `npm run bench:serialization`): the answers are small objects of short strings
 * with many optional fields, which V8's native JSON.stringify writes faster than generated
 * JavaScript does.
 */
export function answerSchema(name: AnswerSchemaName): Json {
  schemas ??= (JSON.parse(loadOpenApiDocument()) as { components: { schemas: Record<string, Json> } })
    .components.schemas;
  return inline(schemas[name] ?? null, schemas);
}

const REF_PREFIX = "#/components/schemas/";

function inline(node: Json, all: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((item) => inline(item, all));
  if (node === null || typeof node !== "object") return node;
  const ref = node.$ref;
  if (typeof ref === "string" && ref.startsWith(REF_PREFIX)) {
    return inline(all[ref.slice(REF_PREFIX.length)] ?? null, all);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, all)]));
}
