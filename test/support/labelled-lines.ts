import assert from "node:assert/strict";
import { assemble } from "../../src/parse/assemble.js";
import type { Label } from "../../src/parse/labels.js";
import type { ParseAnswer } from "../../src/parse/parse-answer.js";
import type { Token } from "../../src/parse/token.js";
import { tokenize } from "../../src/parse/tokenize.js";

/** Lines labelled by hand, for the tests of assembly and of its relabellings (streets, boxes). */
export const TEST_MODEL = { name: "test", version: "0.0.0", backend: "model" } as const;

/** Short names for labels, so that a hand-labelled line reads on one line in the tests. */
export const SHORT_LABELS = {
  A: "addressNumber",
  N: "streetName",
  S: "streetSuffix",
  P: "postdirectional",
  BT: "poBoxType",
  BI: "poBoxId",
  RT: "ruralRouteType",
  RI: "ruralRouteId",
  C: "city",
  ST: "state",
  Z: "zip5",
} as const satisfies Record<string, Label>;

/** What `relabel` makes of a line labelled `labels` (one label per token, checked). */
export function relabelLine(
  relabel: (tokens: readonly Token[], labels: readonly Label[]) => readonly Label[],
  line: string,
  labels: Label[],
): readonly Label[] {
  const tokens = tokenize(line);
  assert.equal(tokens.length, labels.length, `${line}: one label per token`);
  return relabel(tokens, labels);
}

/** The answer assembly gives a line labelled `labels`. */
export function assembleLine(line: string, labels: Label[], confidence: number): ParseAnswer {
  return assemble({ input: line, tokens: tokenize(line), labels, confidence, model: TEST_MODEL });
}
