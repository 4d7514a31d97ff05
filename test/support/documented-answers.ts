import assert from "node:assert/strict";
import fastJson from "fast-json-stringify";
import { answerSchema, type AnswerSchemaName } from "../../src/http/response-schemas.js";

/**
 * Asserts an answer has exactly the fields docs/openapi.json documents for it: a serializer
 * compiled from the schema writes only the declared fields (and refuses a missing required one),
 * so an answer it writes unchanged has nothing the document lacks.
 */
export function documentedOnly(name: AnswerSchemaName): (answer: unknown) => void {
  const write = fastJson(answerSchema(name) as object) as (value: unknown) => string;
  return (answer) => assert.deepEqual(JSON.parse(write(answer)), JSON.parse(JSON.stringify(answer)));
}
