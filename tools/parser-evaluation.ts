import type { Label } from "../src/parse/labels.js";
import { LABELS } from "../src/parse/labels.js";
import type { Token } from "../src/parse/token.js";
import type { LabelledLine } from "./labelled-corpus.js";

/** What a backend answered for one held-out line: a label per token and a confidence. */
export interface Prediction {
  labels: readonly Label[];
  confidence: number;
}

export type Labeller = (input: string, tokens: readonly Token[]) => Prediction;

/** Running totals for one backend over held-out lines. */
export class Scoreboard {
  lines = 0;
  linesRight = 0;
  tokens = 0;
  tokensRight = 0;
  private readonly predicted = new Map<Label, number>();
  private readonly gold = new Map<Label, number>();
  private readonly correct = new Map<Label, number>();
  /** Per confidence bin of width 0.1: [lines, lines entirely right]. */
  readonly bins = Array.from({ length: 10 }, () => [0, 0] as [number, number]);

  add(line: LabelledLine, prediction: Prediction): boolean {
    let right = 0;
    line.labels.forEach((gold, t) => {
      const label = prediction.labels[t];
      bump(this.gold, gold);
      if (label !== undefined) bump(this.predicted, label);
      if (label !== gold) return;
      right++;
      bump(this.correct, gold);
    });
    const allRight = right === line.labels.length;
    this.lines++;
    this.tokens += line.labels.length;
    this.tokensRight += right;
    if (allRight) this.linesRight++;
    const bin = this.bins[Math.min(9, Math.floor(prediction.confidence * 10))]!;
    bin[0]++;
    if (allRight) bin[1]++;
    return allRight;
  }

  precision(label: Label): number {
    return (this.correct.get(label) ?? 0) / Math.max(1, this.predicted.get(label) ?? 0);
  }

  recall(label: Label): number {
    return (this.correct.get(label) ?? 0) / Math.max(1, this.gold.get(label) ?? 0);
  }

  goldCount(label: Label): number {
    return this.gold.get(label) ?? 0;
  }
}

function bump(map: Map<Label, number>, label: Label): void {
  map.set(label, (map.get(label) ?? 0) + 1);
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/** The report: headline figures, per-label precision/recall and the reliability table, side by side. */
export function formatReport(boards: ReadonlyArray<[string, Scoreboard]>): string {
  const out: string[] = [];
  const names = boards.map(([name]) => name.padStart(22)).join("");
  out.push(`${"".padEnd(24)}${names}`);
  out.push(
    `${"addresses entirely right".padEnd(24)}${boards.map(([, b]) => `${percent(b.linesRight / b.lines)} of ${b.lines}`.padStart(22)).join("")}`,
  );
  out.push(
    `${"tokens right".padEnd(24)}${boards.map(([, b]) => `${percent(b.tokensRight / b.tokens)} of ${b.tokens}`.padStart(22)).join("")}`,
  );
  out.push(
    "",
    `${"label (gold tokens)".padEnd(24)}${boards.map(([name]) => `${name} P / R`.padStart(22)).join("")}`,
  );
  const first = boards[0]?.[1];
  for (const label of LABELS) {
    if (first === undefined || first.goldCount(label) === 0) continue;
    const cells = boards.map(([, b]) =>
      `${percent(b.precision(label))} / ${percent(b.recall(label))}`.padStart(22),
    );
    out.push(`${`${label} (${first.goldCount(label)})`.padEnd(24)}${cells.join("")}`);
  }
  for (const [name, board] of boards) {
    out.push("", `reliability (${name}): confidence bin, lines, share entirely right`);
    board.bins.forEach(([count, right], i) => {
      if (count > 0)
        out.push(
          `  ${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}  ${String(count).padStart(6)}  ${percent(right / count)}`,
        );
    });
  }
  return out.join("\n");
}

/** One wrong line for the error listing: each token with gold label, and the prediction where it differs. */
export function describeError(line: LabelledLine, predicted: readonly Label[]): string {
  const parts = line.tokens.map((token, t) => {
    const gold = line.labels[t];
    return predicted[t] === gold ? `${token.text}/${gold}` : `${token.text}/${gold}!=${predicted[t]}`;
  });
  return `  ${line.input}\n    ${parts.join(" ")}`;
}
