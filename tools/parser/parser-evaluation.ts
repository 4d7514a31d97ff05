import type { Label } from "../../src/parse/labels.js";
import { STRING_COMPONENTS, type Components, type StringComponent } from "../../src/parse/parse-answer.js";

/** `other` holds what fits nowhere; it is not scored as a component (here and in eval:parser). */
export const SCORED = STRING_COMPONENTS.filter((name) => name !== "other");

/** One backend's answer on one held-out line. */
export interface Outcome {
  components: Components;
  labels: readonly Label[];
  confidence: number;
}

/** Whether every scored component of an answer equals the gold one ("entirely right"). */
export function entirelyRight(gold: Components, components: Components): boolean {
  return SCORED.every((name) => gold[name] === components[name]);
}

/**
 * Running totals for one backend over held-out lines: lines with every component right, tokens
 * in the right component (labels as assembly reads them), per-component precision/recall, and
 * lines and right lines per confidence bin.
 */
export class Scoreboard {
  lines = 0;
  linesRight = 0;
  tokens = 0;
  tokensRight = 0;
  readonly tally = new Map<StringComponent, { predicted: number; gold: number; right: number }>(
    SCORED.map((name) => [name, { predicted: 0, gold: 0, right: 0 }]),
  );
  /** Per confidence bin of width 0.1: [lines, lines entirely right]. */
  readonly bins = Array.from({ length: 10 }, () => [0, 0] as [number, number]);

  add(gold: Components, goldLabels: readonly Label[], outcome: Outcome): boolean {
    for (const name of SCORED) {
      const tally = this.tally.get(name)!;
      if (gold[name] !== undefined) tally.gold++;
      if (outcome.components[name] !== undefined) tally.predicted++;
      if (gold[name] !== undefined && gold[name] === outcome.components[name]) tally.right++;
    }
    const allRight = entirelyRight(gold, outcome.components);
    goldLabels.forEach((label, t) => {
      this.tokens++;
      if (outcome.labels[t] === label) this.tokensRight++;
    });
    this.lines++;
    if (allRight) this.linesRight++;
    const bin = this.bins[Math.min(9, Math.floor(outcome.confidence * 10))]!;
    bin[0]++;
    if (allRight) bin[1]++;
    return allRight;
  }
}

const percent = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
const cell = (text: string) => text.padStart(24);

/**
 * Fits the exponent a of the calibration confidence = p^a to (p, right) pairs of held-out lines
 * by least squares (Brier score), over a grid of 0.1 steps from 0.1 to 5.
 */
export function fitCalibrationExponent(samples: ReadonlyArray<[number, boolean]>): {
  exponent: number;
  brier: number;
  rawBrier: number;
} {
  const brier = (a: number) => brierScore(samples, a);
  let best = { exponent: 1, brier: brier(1) };
  for (let a = 0.1; a <= 5.0001; a += 0.1) {
    const value = brier(a);
    if (value < best.brier) best = { exponent: Math.round(a * 10) / 10, brier: value };
  }
  return { ...best, rawBrier: brier(1) };
}

/** Mean squared distance between P(labels)^a and being entirely right (1) or not (0). */
export function brierScore(samples: ReadonlyArray<[number, boolean]>, a: number): number {
  return (
    samples.reduce((sum, [p, right]) => sum + (p ** a - (right ? 1 : 0)) ** 2, 0) /
    Math.max(1, samples.length)
  );
}

/** A reliability table of (confidence, right) pairs: bins of width 0.1. */
export function reliabilityTable(title: string, samples: ReadonlyArray<[number, boolean]>): string {
  const bins = Array.from({ length: 10 }, () => [0, 0] as [number, number]);
  for (const [confidence, right] of samples) {
    const bin = bins[Math.min(9, Math.floor(confidence * 10))]!;
    bin[0]++;
    if (right) bin[1]++;
  }
  const rows = bins.flatMap(([count, right], i) =>
    count === 0
      ? []
      : [
          `  ${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)} | ${String(count).padStart(5)} | ${percent(right, count)}`,
        ],
  );
  return [`reliability, ${title}: confidence bin | lines | share entirely right`, ...rows].join("\n");
}

/** Headline figures, per-component precision/recall and reliability tables, backends side by side. */
export function formatReport(boards: ReadonlyArray<[string, Scoreboard]>): string {
  const out: string[] = [`${"".padEnd(26)}${boards.map(([name]) => cell(name)).join("")}`];
  const row = (title: string, value: (b: Scoreboard) => string) =>
    out.push(`${title.padEnd(26)}${boards.map(([, b]) => cell(value(b))).join("")}`);
  row("addresses entirely right", (b) => `${percent(b.linesRight, b.lines)} of ${b.lines}`);
  row("tokens right (component)", (b) => `${percent(b.tokensRight, b.tokens)} of ${b.tokens}`);
  out.push("", `${"component (gold)".padEnd(26)}${boards.map(() => cell("precision / recall")).join("")}`);
  const first = boards[0]?.[1];
  for (const name of SCORED) {
    const gold = first?.tally.get(name)?.gold ?? 0;
    if (gold === 0) continue;
    row(`${name} (${gold})`, (b) => {
      const t = b.tally.get(name)!;
      return `${percent(t.right, t.predicted)} / ${percent(t.right, t.gold)}`;
    });
  }
  for (const [name, board] of boards) {
    out.push("", `reliability, ${name}: confidence bin | lines | share entirely right`);
    board.bins.forEach(([count, right], i) => {
      if (count === 0) return;
      out.push(
        `  ${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)} | ${String(count).padStart(5)} | ${percent(right, count)}`,
      );
    });
  }
  return out.join("\n");
}

/** One wrong line for the error listing: tokens with gold label, and the prediction where it differs. */
export function describeError(
  input: string,
  tokens: ReadonlyArray<{ text: string }>,
  gold: readonly Label[],
  predicted: readonly Label[],
): string {
  const parts = tokens.map((token, t) =>
    predicted[t] === gold[t] ? `${token.text}/${gold[t]}` : `${token.text}/${gold[t]}!=${predicted[t]}`,
  );
  return `  ${input}\n    ${parts.join(" ")}`;
}

/** The components of a wrong answer that differ from gold's: `name gold → answer`. */
export function describeComponentDifferences(gold: Components, components: Components): string {
  return SCORED.filter((name) => gold[name] !== components[name])
    .map((name) => `${name} ${gold[name] ?? "-"} → ${components[name] ?? "-"}`)
    .join("; ");
}
