import { FeatureDictionary } from "../crf/feature-dictionary.js";
import type { StoredModel } from "../crf/model-file.js";
import { Decoder } from "../crf/decoder.js";
import { EmissionScorer } from "./emission-scorer.js";
import { FeatureExtractor, type FeatureConfig } from "./features.js";
import { nationalGazetteer } from "../../places/gazetteer.js";
import { KnownWords } from "./known-words.js";
import { LABELS, type Label } from "../labels.js";
import type { Token } from "../token.js";

export interface TaggedTokens {
  labels: Label[];
  /** P(labels | line) under the model: the probability of the whole labelling. */
  sequenceProbability: number;
}

/**
 * Labels the tokens of one line with a trained CRF: emission scores (EmissionScorer: the
 * features' weights through the model's dictionary) → Viterbi path, and the forward pass for
 * the path's probability. Holds reusable buffers, so one tagger serves one thread of calls.
 */
export class AddressTagger {
  /** The tagger's two stages, public so that tools/bench-model-stages.ts can time each alone. */
  readonly scorer: EmissionScorer;
  private readonly labels: Label[];
  readonly decoder: Decoder;

  constructor(model: StoredModel) {
    this.labels = model.header.labels.map((name) => {
      if (!(LABELS as readonly string[]).includes(name)) throw new Error(`model label "${name}" is unknown`);
      return name as Label;
    });
    const extractor = new FeatureExtractor(
      model.header.features as unknown as FeatureConfig,
      nationalGazetteer().placeWords(),
      new KnownWords(model.featureKeys),
    );
    this.scorer = new EmissionScorer(extractor, new FeatureDictionary(model.featureKeys), model.weights);
    this.decoder = new Decoder(model.weights);
  }

  tag(input: string, tokens: readonly Token[]): TaggedTokens {
    const n = tokens.length;
    if (n === 0) return { labels: [], sequenceProbability: 1 };
    const expEmit = this.scorer.score(input, tokens);
    // A line whose exponentials a double cannot hold is decoded from its log-space scores.
    const { path, score, logZ } =
      this.decoder.decodeExp(expEmit, n) ?? this.decoder.decode(this.scorer.logScores(), n);
    const labels: Label[] = new Array<Label>(n);
    for (let t = 0; t < n; t++) labels[t] = this.labels[path[t] as number] as Label;
    return { labels, sequenceProbability: Math.min(1, Math.exp(score - logZ)) };
  }
}
