import { emissions, type CrfWeights } from "./crf/crf.js";
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
  private ids = new Int32Array(1024);
  private offsets = new Int32Array(65);
  private emit = new Float64Array(1024);

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
    const features = this.extractor.extract(input, tokens);
    const total = features.offsets[n] as number;
    if (this.ids.length < total) this.ids = new Int32Array(total * 2);
    let kept = 0;
    if (this.offsets.length <= n) this.offsets = new Int32Array(n * 2 + 1);
    const offsets = this.offsets;
    for (let t = 0; t < n; t++) {
      offsets[t] = kept;
      for (let k = features.offsets[t] as number; k < (features.offsets[t + 1] as number); k++) {
        const id = this.dictionary.get(features.keys[k] as number);
        if (id >= 0) this.ids[kept++] = id;
      }
    }
    offsets[n] = kept;
    const L = this.weights.labelCount;
    if (this.emit.length < n * L) this.emit = new Float64Array(n * L * 2);
    const emit = emissions(this.weights, { length: n, offsets, features: this.ids }, this.emit);
    const { path, score, logZ } = this.decoder.decode(emit, n);
    const labels: Label[] = new Array<Label>(n);
    for (let t = 0; t < n; t++) labels[t] = this.labels[path[t] as number] as Label;
    return { labels, sequenceProbability: Math.min(1, Math.exp(score - logZ)) };
  }
}
