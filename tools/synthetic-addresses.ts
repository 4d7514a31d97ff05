import type { LabelledLine } from "./labelled-corpus.js";

export function generateSynthetic(count: number, seed: number): LabelledLine[] {
  void count;
  void seed;
  return [];
}
