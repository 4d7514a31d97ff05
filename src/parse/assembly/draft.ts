import { LABELS, LABEL_INDEX } from "../labels.js";
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

/** Where the run of `labels[from]`'s label that starts at `from` ends. */
export function runEnd(labels: readonly (Label | undefined)[], from: number): number {
  let end = from + 1;
  while (end < labels.length && labels[end] === labels[from]) end++;
  return end;
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
  /** Every key present from the start, in SPEC order: one object shape for all parses (speed). */
  readonly components: Components = blankComponents();
  readonly warnings: Warning[] = [];
  private readonly otherParts: Array<{ at: number; text: string }> = [];
  /** Runs per label index (LABELS order): an array, not a Map, as it is built for every parse. */
  private readonly runsByLabel: Array<Run[] | undefined> = new Array<Run[] | undefined>(LABELS.length);

  constructor(
    readonly tokens: readonly Token[],
    readonly runs: readonly Run[],
  ) {
    for (const run of runs) {
      const index = LABEL_INDEX.get(run.label)!;
      const list = this.runsByLabel[index];
      if (list) list.push(run);
      else this.runsByLabel[index] = [run];
    }
  }

  runsOf(label: Label): readonly Run[] {
    return this.runsByLabel[LABEL_INDEX.get(label)!] ?? NO_RUNS;
  }

  has(label: Label): boolean {
    return this.runsByLabel[LABEL_INDEX.get(label)!] !== undefined;
  }

  words(from: number, to: number): string[] {
    const words: string[] = [];
    for (let i = from; i < to; i++) words.push(this.tokens[i]!.text);
    return words;
  }

  text(run: Run): string {
    let text = this.tokens[run.from]!.text;
    for (let i = run.from + 1; i < run.to; i++) text += ` ${this.tokens[i]!.text}`;
    return text;
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
    const text = runs.length === 1 ? this.text(first) : runs.map((run) => this.text(run)).join(" ");
    return { text, from: first.from, to: last.to };
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

function blankComponents(): Components {
  return {
    addressNumber: undefined,
    addressNumberSuffix: undefined,
    predirectional: undefined,
    streetName: undefined,
    streetSuffix: undefined,
    postdirectional: undefined,
    occupancyType: undefined,
    occupancyId: undefined,
    secondaryUnits: undefined,
    poBoxType: undefined,
    poBoxId: undefined,
    ruralRouteType: undefined,
    ruralRouteId: undefined,
    firm: undefined,
    urbanization: undefined,
    city: undefined,
    state: undefined,
    zip5: undefined,
    zip4: undefined,
    other: undefined,
  };
}
