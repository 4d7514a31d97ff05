import type { Label } from "../labels.js";
import type { Components, Warning, WarningCode } from "../parse-answer.js";
import type { Token } from "../token.js";
import { warningMessage } from "./warning-messages.js";

/** A maximal run of consecutive tokens with one label: tokens[from..to). */
export interface Run {
  label: Label;
  from: number;
  to: number;
}

/** Groups consecutive tokens with the same label. */
export function labelRuns(labels: readonly Label[]): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.label === label && last.to === i) last.to = i + 1;
    else runs.push({ label, from: i, to: i + 1 });
  }
  return runs;
}

/**
 * The answer being assembled from labelled tokens: components, warnings and the words that go to
 * `other`. Spans are token index ranges, turned into input offsets for warnings.
 */
export class Draft {
  readonly components: Components = {};
  readonly warnings: Warning[] = [];
  private readonly otherParts: Array<{ at: number; text: string }> = [];
  private readonly runsByLabel = new Map<Label, Run[]>();

  constructor(
    readonly tokens: readonly Token[],
    readonly runs: readonly Run[],
  ) {
    for (const run of runs) {
      const list = this.runsByLabel.get(run.label);
      if (list) list.push(run);
      else this.runsByLabel.set(run.label, [run]);
    }
  }

  runsOf(label: Label): readonly Run[] {
    return this.runsByLabel.get(label) ?? NO_RUNS;
  }

  has(label: Label): boolean {
    return this.runsByLabel.has(label);
  }

  words(from: number, to: number): string[] {
    const words: string[] = [];
    for (let i = from; i < to; i++) words.push(this.tokens[i]!.text);
    return words;
  }

  text(run: Run): string {
    return this.words(run.from, run.to).join(" ");
  }

  /**
   * The words of every run of `label` in input order. A component in separate parts of the line
   * is joined with a space and flagged `discontiguous_component` (SPEC "Warning object").
   */
  joined(label: Label): { text: string; from: number; to: number } | undefined {
    const runs = this.runsOf(label);
    const first = runs[0];
    if (first === undefined) return undefined;
    const last = runs[runs.length - 1]!;
    if (runs.length > 1) this.warn("discontiguous_component", runs[1]!.from, last.to);
    return { text: runs.map((run) => this.text(run)).join(" "), from: first.from, to: last.to };
  }

  warn(code: WarningCode, from?: number, to?: number): void {
    const warning: Warning = { code, message: warningMessage(code) };
    if (from !== undefined && to !== undefined && to > from) {
      warning.start = this.tokens[from]!.start;
      warning.end = this.tokens[to - 1]!.end;
    }
    this.warnings.push(warning);
  }

  hasWarning(code: WarningCode): boolean {
    return this.warnings.some((warning) => warning.code === code);
  }

  /** Words for `other`, kept in input order whatever order they are found in. */
  addOther(at: number, text: string): void {
    this.otherParts.push({ at, text });
  }

  finishOther(): void {
    if (this.otherParts.length === 0) return;
    this.otherParts.sort((a, b) => a.at - b.at);
    this.components.other = this.otherParts.map((part) => part.text).join(" ");
  }
}

const NO_RUNS: readonly Run[] = [];
