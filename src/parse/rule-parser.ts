import { assemble } from "./assemble.js";
import type { ModelInfo, ParseAnswer } from "./parse-answer.js";
import type { Parser } from "./parser.js";
import { cityGazetteer } from "./rules/city-gazetteer.js";
import { labelAddress, type RuleLabelling } from "./rules/label-address.js";
import type { Token } from "./token.js";
import { parseAddress, type Labeller, type Reading } from "./parse-address.js";

export type { RuleLabelling };

/**
 * The rule-based backend (SPEC `backend: "heuristic"`): Publication 28 rules label the tokens,
 * the shared assembly (src/parse/assemble.ts) does the rest. It is also the fallback of the
 * model backend.
 */
export class RuleParser implements Parser, Labeller {
  readonly model: ModelInfo = { name: "situs-rules", version: "0.1.0", backend: "heuristic" };

  /**
   * `preloadGazetteer`: build the city gazetteer now (0.5–1.5 s) rather than on the first parse;
   * the service does, so no request waits for it; tests that never parse do not.
   */
  constructor(options: { preloadGazetteer?: boolean } = {}) {
    if (options.preloadGazetteer === true) cityGazetteer();
  }

  label(tokens: Token[]): RuleLabelling {
    return labelAddress(tokens);
  }

  parse(line: string): ParseAnswer {
    return parseAddress(line, this);
  }

  /** The rules' labels for assembly. */
  read(input: string, tokens: Token[]): Reading {
    const { labels, confidence, warnings } = this.label(tokens);
    return { labelled: { input, tokens, labels, confidence, model: this.model, extraWarnings: warnings } };
  }

  /** The rules' answer for a line already tokenized, from its labelling (labelled here unless given). */
  answer(input: string, tokens: Token[], labelled: RuleLabelling = this.label(tokens)): ParseAnswer {
    const { labels, confidence, warnings } = labelled;
    return assemble({ input, tokens, labels, confidence, model: this.model, extraWarnings: warnings });
  }
}
