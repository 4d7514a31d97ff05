import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.js";
import { MAX_LINE_LENGTH } from "../../parse/parse-answer.js";
import type { ParseAnswer } from "../../parse/parse-answer.js";
import type { Services } from "../services.js";
import { isPlainObject, readJsonBody } from "../json-body.js";
import "../request-context.js";
import { TurnBatch } from "../turn/turn-batch.js";

/** POST /v1/verify/parse and its older alias POST /v1/address/parse. */
export function registerParseRoutes(app: FastifyInstance, services: Services): void {
  const parses = new TurnBatch();
  for (const url of ["/v1/verify/parse", "/v1/address/parse"]) {
    app.post(url, { config: { operation: "parse" } }, async (request): Promise<ParseAnswer> => {
      const line = readLine(request.body);
      const timing = request.situs!.timing;
      return parses.run(() => timing.measure("inference", () => services.parser.parse(line)));
    });
  }
}

export function readLine(rawBody: unknown): string {
  const body = readJsonBody(rawBody);
  const line = isPlainObject(body) ? body.line : undefined;
  if (typeof line !== "string") {
    throw new ApiError("line_required", 'The body must be an object with a "line" string.');
  }
  checkLineLength(line);
  return line;
}

/** A line longer than 256 characters is 413 `line_too_long` (SPEC.md "Limits"). */
export function checkLineLength(line: string): void {
  if (characterCount(line) > MAX_LINE_LENGTH) {
    throw new ApiError("line_too_long", `The line is longer than ${MAX_LINE_LENGTH} characters.`, {
      max: MAX_LINE_LENGTH,
    });
  }
}

/** Characters are code points: an emoji counts once although it takes two UTF-16 units. */
function characterCount(text: string): number {
  if (text.length <= MAX_LINE_LENGTH) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}
