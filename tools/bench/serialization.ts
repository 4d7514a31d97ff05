import fastJson from "fast-json-stringify";
import { answerSchema } from "../../src/http/response-schemas.js";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../../src/parse/model/model-parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { generateLines } from "../parser/address-lines.js";

/**
 * Writing parse answers: JSON.stringify against the serializer Fastify compiles from the route's
 * response schema (docs/openapi.json), over the answers to 10,000 varied lines, in alternate
 * rounds so drift of the machine hits both alike.
 *   npm run bench:serialization
 */
const rules = new RuleParser();
const parser = new ModelParser(rules, loadModelFile(DEFAULT_MODEL_FILE));
const answers = generateLines(10_000).map((line) => parser.parse(line));
// As Fastify's compiler builds it for a response schema (no shared schemas, default options).
const compiled = fastJson(answerSchema("ParseAnswer") as object) as (value: unknown) => string;

for (const answer of answers.slice(0, 200)) {
  if (compiled(answer) !== JSON.stringify(answer)) throw new Error(`different output for ${answer.input}`);
}

function rate(write: (value: unknown) => string): number {
  let bytes = 0;
  const started = process.hrtime.bigint();
  for (let round = 0; round < 5; round++) for (const answer of answers) bytes += write(answer).length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (bytes === 0) throw new Error("nothing written");
  return (answers.length * 5) / seconds;
}

rate(JSON.stringify);
rate(compiled);
const plain: number[] = [];
const schema: number[] = [];
for (let round = 0; round < 7; round++) {
  plain.push(rate(JSON.stringify));
  schema.push(rate(compiled));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[3]!;
const us = (perSecond: number) => (1e6 / perSecond).toFixed(2);
console.log(
  `parse answers written, median of 7 alternate rounds over ${answers.length} answers: ` +
    `JSON.stringify ${us(median(plain))} µs, compiled response schema ${us(median(schema))} µs ` +
    `(${(median(schema) / median(plain)).toFixed(2)}× as fast)`,
);
