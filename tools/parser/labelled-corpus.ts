import type { CorpusToken } from "../../src/parse/corpus/read-labelled-corpus.js";
import { readLabelledCorpus } from "../../src/parse/corpus/read-labelled-corpus.js";
import { alignLabels, toServiceLabels } from "../../src/parse/corpus/usaddress-labels.js";
import type { Label } from "../../src/parse/labels.js";
import type { Token } from "../../src/parse/token.js";
import { tokenize } from "../../src/parse/tokenize.js";

/**
 * A labelled line as the CRF trains on it: the raw line, our tokenizer's tokens, and one of our
 * labels per token (the corpus label of the corpus token covering the token's first character,
 * mapped as ../shared/data/README.md says: src/parse/corpus/).
 */
export interface LabelledLine {
  input: string;
  tokens: Token[];
  labels: Label[];
}

/** A usaddress-format corpus file as labelled lines (raw strings de-duplicated by the reader). */
export function readLabelledLines(file: string): LabelledLine[] {
  return readLabelledCorpus(file).flatMap((address) => {
    const tokens = tokenize(address.raw);
    if (tokens.length === 0) return [];
    return [{ input: address.raw, tokens, labels: toServiceLabels(alignLabels(tokens, address.tokens)) }];
  });
}

/** Labels our tokens of `input` from spans already carrying our labels (the synthetic generator). */
export function labelBySpans(input: string, spans: readonly CorpusToken[]): LabelledLine | undefined {
  const tokens = tokenize(input);
  if (tokens.length === 0) return undefined;
  return { input, tokens, labels: alignLabels(tokens, spans) as Label[] };
}
