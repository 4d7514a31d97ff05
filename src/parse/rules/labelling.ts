import { warningMessage } from "../assembly/warning-messages.js";
import type { Label } from "../labels.js";
import type { Warning, WarningCode } from "../parse-answer.js";
import type { Token } from "../token.js";

/**
 * The rule labeller's working state: the tokens' texts, the label given to each so far
 * (undefined: not yet placed), and the guesses made, which lower the confidence.
 */
export class Labelling {
  readonly texts: string[];
  readonly labels: Array<Label | undefined>;
  readonly warnings: Warning[] = [];
  private penalty = 0;

  constructor(readonly tokens: readonly Token[]) {
    this.texts = tokens.map((token) => token.text);
    this.labels = new Array<Label | undefined>(tokens.length).fill(undefined);
  }

  get length(): number {
    return this.texts.length;
  }

  text(i: number): string | undefined {
    return this.texts[i];
  }

  free(i: number): boolean {
    return i >= 0 && i < this.texts.length && this.labels[i] === undefined;
  }

  /** True when a comma or line break comes before token i. */
  boundary(i: number): boolean {
    return this.tokens[i]?.boundaryBefore ?? false;
  }

  set(from: number, to: number, label: Label): void {
    for (let i = from; i < to; i++) this.labels[i] = label;
  }

  /** A guess lowers confidence by `amount`; see docs/parser.md "Confidence". */
  guess(amount: number): void {
    this.penalty += amount;
  }

  warn(code: WarningCode, from: number, to: number): void {
    const first = this.tokens[from];
    const last = this.tokens[to - 1];
    const warning: Warning = { code, message: warningMessage(code) };
    if (first && last && to > from) {
      warning.start = first.start;
      warning.end = last.end;
    }
    this.warnings.push(warning);
  }

  confidence(): number {
    return Math.max(0.05, 1 - this.penalty);
  }

  /** Every token still unplaced becomes `other`. */
  finish(): Label[] {
    return this.labels.map((label) => label ?? "other");
  }
}
