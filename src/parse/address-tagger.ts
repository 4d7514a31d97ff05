import type { CrfWeights } from "./crf/crf.js";
import { FeatureDictionary } from "./crf/feature-dictionary.js";
import type { StoredModel } from "./crf/model-file.js";
import { Decoder } from "./crf/decoder.js";
import { FeatureExtractor, type FeatureConfig } from "./features.js";
import { LABELS, type Label } from "./labels.js";
import type { Token } from "./token.js";

export interface TaggedTokens {
  labels: Label[];
  /** P(labels | line) under the model: the probability of the whole labelling. */
  sequenceProbability: number;
}

/**
 * Labels the tokens of one line with a trained CRF: features → ids through the model's
 * dictionary → emission scores → Viterbi path, and the forward pass for the path's probability.
 * Holds reusable buffers, so one tagger serves one thread of calls.
 */
export class AddressTagger {
  private readonly extractor: FeatureExtractor;
  private readonly dictionary: FeatureDictionary;
  private readonly weights: CrfWeights;
  private readonly labels: Label[];
  private readonly decoder: Decoder;
  private emit = new Float64Array(1024);
  private readonly wordRows = new Map<string, Float64Array>();

  constructor(model: StoredModel) {
    this.labels = model.header.labels.map((name) => {
      if (!(LABELS as readonly string[]).includes(name)) throw new Error(`model label "${name}" is unknown`);
      return name as Label;
    });
    this.extractor = new FeatureExtractor(model.header.features as unknown as FeatureConfig);
    this.dictionary = new FeatureDictionary(model.featureKeys);
    this.weights = model.weights;
    this.decoder = new Decoder(model.weights);
  }

  tag(input: string, tokens: readonly Token[]): TaggedTokens {
    const n = tokens.length;
    if (n === 0) return { labels: [], sequenceProbability: 1 };
    const L = this.weights.labelCount;
    if (this.emit.length < n * L) this.emit = new Float64Array(n * L * 2);
    const emit = this.emit;
    const features = this.extractor.extract(input, tokens, false);
    const state = this.weights.state;
    for (let t = 0; t < n; t++) {
      emit.set(this.wordEmission((tokens[t] as Token).text), t * L);
      for (let k = features.offsets[t] as number; k < (features.offsets[t + 1] as number); k++) {
        const id = this.dictionary.get(features.keys[k] as number);
        if (id < 0) continue;
        for (let y = 0; y < L; y++)
          emit[t * L + y] = (emit[t * L + y] as number) + (state[id * L + y] as number);
      }
    }
    const { path, score, logZ } = this.decoder.decode(emit, n);
    const labels: Label[] = new Array<Label>(n);
    for (let t = 0; t < n; t++) labels[t] = this.labels[path[t] as number] as Label;
    return { labels, sequenceProbability: Math.min(1, Math.exp(score - logZ)) };
  }

  /**
   * The summed weights of a word's own features (they do not depend on its neighbours), cached
   * per distinct word: a token then costs one look-up for them instead of one per feature.
   */
  private wordEmission(text: string): Float64Array {
    let row = this.wordRows.get(text);
    if (row !== undefined) return row;
    const L = this.weights.labelCount;
    row = new Float64Array(L);
    for (const key of this.extractor.wordKeys(text)) {
      const id = this.dictionary.get(key);
      if (id < 0) continue;
      for (let y = 0; y < L; y++) row[y] = (row[y] as number) + (this.weights.state[id * L + y] as number);
    }
    if (this.wordRows.size >= WORD_ROWS) this.wordRows.clear();
    this.wordRows.set(text, row);
    return row;
  }
}

/** Distinct words whose emission rows are cached (bounded for a long-running service). */
const WORD_ROWS = 50_000;
