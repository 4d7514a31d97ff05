import { assemble, type LabelledParse } from "./assemble.js";
import type { ParseAnswer } from "./parse-answer.js";
import type { Token } from "./token.js";
import { tokenize } from "./tokenize.js";

/**
 * A labeller's reading of a tokenized line: its labels for assembly or, where the labeller has
 * settled the answer itself (the model backing off to the rules, whose answer is assembled
 * already), that answer.
 */
export type Reading = { labelled: LabelledParse } | { answer: ParseAnswer };

/** The second stage: one label a token (model/ for the CRF, rules/ for the rules). */
export interface Labeller {
  read(input: string, tokens: Token[]): Reading;
}

/**
 * The parse pipeline, the same for both backends:
 * 1. **tokenize** (tokenize.ts): the line into tokens with their offsets in it;
 * 2. **label** (a `Labeller`): one label a token, by the CRF (model/model-parser.ts, which asks
 *    the rules where it doubts itself) or by the rules (rules/label-address.ts);
 * 3. **assemble** (assemble.ts, assembly/): labels to components, standard lines, warnings and
 *    confidence.
 */
export function parseAddress(input: string, labeller: Labeller): ParseAnswer {
  const tokens = tokenize(input);
  const reading = labeller.read(input, tokens);
  return "answer" in reading ? reading.answer : assemble(reading.labelled);
}
