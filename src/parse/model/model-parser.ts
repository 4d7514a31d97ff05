import { readFileSync } from "node:fs";
import { projectPath } from "../../paths.js";
import { AddressTagger, type TaggedTokens } from "./address-tagger.js";
import { assemble, labelProblem, withConfidence } from "../assemble.js";
import { foreignSpan } from "../assembly/foreign-signals.js";
import { directionalBeforeCity } from "./city-directional.js";
import { decodeModel, type Calibration } from "../crf/model-file.js";
import { streetCityGuess } from "./model-warnings.js";
import type { Label } from "../labels.js";
import {
  STRING_COMPONENTS,
  type Components,
  type ModelInfo,
  type ParseAnswer,
  type Warning,
} from "../parse-answer.js";
import type { Parser } from "../parser.js";
import type { RuleLabelling, RuleParser } from "../rule-parser.js";
import type { Token } from "../token.js";
import { parseAddress, type Labeller, type Reading } from "../parse-address.js";

/** Where the shipped model lives (`npm run train` writes it; PARSER_MODEL_FILE overrides). */
export const DEFAULT_MODEL_FILE = projectPath("data", "model", "situs-crf.bin");

/** What the model backend needs from a tagger; the CRF's AddressTagger, or a fault in tests. */
export interface Tagger {
  readonly info: { name: string; version: string; calibration?: Calibration };
  tag(input: string, tokens: readonly Token[]): TaggedTokens;
}

/** Loads the tagger; throws when the model cannot be used (missing, unknown version, corrupt). */
export type TaggerLoader = () => Tagger;

/** The shipped model file's tagger. */
export function loadModelFile(path: string): TaggerLoader {
  return () => {
    const stored = decodeModel(readFileSync(path));
    const tagger = new AddressTagger(stored);
    return {
      info: {
        name: stored.header.name,
        version: stored.header.version,
        calibration: stored.header.calibration,
      },
      tag: (input, tokens) => tagger.tag(input, tokens),
    };
  };
}

/**
 * The model backend (SPEC `backend: "model"`): tokenize → CRF labels → the shared assembly.
 * The rule-based parser answers instead when the model cannot run (`model_unavailable`, with
 * `backend: "heuristic"`) or when its labels make no consistent address (`model_output_invalid`),
 * and, with `backend: "heuristic"` and no warning of its own, for foreign lines and where the
 * model is unsure and the rules are sure of another reading (MODEL_UNSURE). Where the model is
 * unsure and the rules read the line the same way (same labels, or labels that give the same
 * components), the model answers with the confidence calibrated for such agreement; where both
 * are unsure and read it differently, or the model's labels make no address, the answer claims
 * at most DISAGREEMENT_CAP.
 * It never throws for a line: the service starts and answers without the model file.
 */
export class ModelParser implements Parser, Labeller {
  private readonly tagger: Tagger | undefined;
  /** Why the model is unavailable, for the start-up log; undefined when it loaded. */
  readonly unavailableReason: string | undefined;

  constructor(
    private readonly fallback: RuleParser,
    load: TaggerLoader,
    /**
     * `backOff: false` keeps the model's answer and its plain calibration where it doubts it,
     * without asking the rules (evaluation, benchmarks).
     */
    private readonly options: { backOff: boolean } = { backOff: true },
  ) {
    try {
      this.tagger = load();
    } catch (error) {
      this.unavailableReason = error instanceof Error ? error.message : String(error);
    }
  }

  get model(): ModelInfo {
    return this.tagger === undefined
      ? this.fallback.model
      : { name: this.tagger.info.name, version: this.tagger.info.version, backend: "model" };
  }

  parse(line: string): ParseAnswer {
    return parseAddress(line, this);
  }

  /** The model's labels for assembly, or the answer the rules give where the model gives way. */
  read(line: string, tokens: Token[]): Reading {
    if (this.tagger === undefined)
      return { answer: this.fallbackAnswer(line, "model_unavailable", MODEL_UNAVAILABLE, tokens) };
    let tagged: TaggedTokens;
    try {
      tagged = this.tagger.tag(line, tokens);
    } catch {
      return { answer: this.fallbackAnswer(line, "model_unavailable", MODEL_FAILED, tokens) };
    }
    const labels = modelReading(tokens, tagged.labels);
    // Foreign lines are outside what the model learned (US addresses only): the rules, which
    // know postcodes and provinces by pattern, answer them, whatever the model's labels.
    if (foreignSpan(tokens, labels) !== null) return { answer: this.fallback.answer(line, tokens) };
    if (labelProblem(tokens, labels) !== null) {
      // A line the model could not read as one address is a hard line for the rules too: in
      // cross-validation their answers to such lines were right one time in ten.
      return {
        answer: this.fallbackAnswer(line, "model_output_invalid", MODEL_INVALID, tokens, DISAGREEMENT_CAP),
      };
    }
    const probability = tagged.sequenceProbability;
    const calibration = this.tagger.info.calibration;
    const guess = streetCityGuess(tokens, labels);
    const parse = {
      input: line,
      tokens,
      labels,
      confidence: probability ** (calibration?.exponent ?? 1),
      model: this.model,
      extraWarnings: guess === undefined ? [] : [guess],
      foreign: null,
    };
    if (this.options.backOff && probability < MODEL_UNSURE) {
      const rules = this.fallback.label(tokens);
      // Two labellers that err on different lines agreeing: in cross-validation such answers
      // are right about four times in five whatever the model's doubt, so their confidence has
      // its own exponent (docs/parser-model.md "Calibration").
      const agreement = probability ** (calibration?.agreementExponent ?? calibration?.exponent ?? 1);
      if (!sameLabels(rules.labels, labels)) {
        const own = assemble(capConfidence(parse, DISAGREEMENT_CAP));
        const ruled = this.fallback.answer(line, tokens, {
          ...rules,
          confidence: Math.min(rules.confidence, parse.confidence),
        });
        // Labels that differ can still read as one address (`MAPLE MOUNT` all name for one,
        // name and suffix for the other; a route's box as a PO box or as the route's): that is
        // agreement too, and the model's answer takes the agreement's confidence (withConfidence:
        // the same answer, not assembled again).
        if (sameComponents(ruled.components, own.components))
          return { answer: withConfidence(own, agreement) };
        // Back-off: where the model doubts its labels and the rules are sure of another reading,
        // the rules' labels answer, with the model's doubt as their confidence: in
        // cross-validation these answers are right less than one time in two, not as often as
        // the rules alone would claim (docs/parser-model.md "Back-off to the rules"). Where the
        // rules are unsure too, the model answers, capped: such answers were right one time in
        // four.
        return {
          answer: rules.confidence >= RULES_SURE ? this.backOffAnswer(rules, ruled, probability) : own,
        };
      }
      parse.confidence = agreement;
    }
    return { labelled: parse };
  }

  /**
   * A back-off answer that raises no warning (a whole address, every part known) is right more
   * often than the model's doubt says: in cross-validation about seven in ten such held-out
   * answers were entirely right, against fewer than one in two of the rules' answers with a
   * warning, which P(labels)^exponent fits. Such an answer gets its own power of P(labels)
   * (docs/parser-model.md "Calibration").
   */
  private backOffAnswer(rules: RuleLabelling, ruled: ParseAnswer, probability: number): ParseAnswer {
    const exponent = this.tagger?.info.calibration?.backOffExponent;
    if (exponent === undefined || !raisesNoWarning(ruled)) return ruled;
    return withConfidence(ruled, Math.min(rules.confidence, probability ** exponent));
  }

  /** The rules' answer with a warning, its confidence at most `confidenceCap`. */
  private fallbackAnswer(
    line: string,
    code: Warning["code"],
    message: string,
    tokens: Token[],
    confidenceCap = 1,
  ): ParseAnswer {
    const answer = this.fallback.answer(
      line,
      tokens,
      capConfidence(this.fallback.label(tokens), confidenceCap),
    );
    return { ...answer, warnings: [...answer.warnings, { code, message }] };
  }
}

/**
 * The tagger's labels as the model backend reads them: a directional between street and city is
 * settled by the ZIP gazetteer (city-directional.ts). The cross-validation scores this reading.
 */
export function modelReading(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  return directionalBeforeCity(tokens, labels);
}

/** No warning but the one a low confidence raises. */
export function raisesNoWarning(answer: ParseAnswer): boolean {
  return answer.warnings.every((warning) => warning.code === "low_confidence");
}

/** Whether two answers read the same address: every component, secondary units included. */
export function sameComponents(a: Components, b: Components): boolean {
  for (const name of STRING_COMPONENTS) if (a[name] !== b[name]) return false;
  return JSON.stringify(a.secondaryUnits ?? []) === JSON.stringify(b.secondaryUnits ?? []);
}

/** Whether two labellings of one line are the same. */
export function sameLabels(a: readonly Label[], b: readonly Label[]): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) if (a[t] !== b[t]) return false;
  return true;
}

/**
 * Below this probability of its labels the model asks the rules: their same labels raise its
 * confidence (agreement), and the model's answer gives way to a rule-based parse at
 * least RULES_SURE confident. Chosen by the cross-validation (0.6, 0.8 and 0.9 tried; 0.8 best).
 */
export const MODEL_UNSURE = 0.8;
const RULES_SURE = 0.9;

/**
 * The most an answer may claim where the model doubts its reading and the rules, unsure
 * themselves, read the line another way, or where the model's labels made no address: in
 * cross-validation such answers were right 27% and 10% of the time (docs/parser-model.md
 * "Calibration"). It is below the low_confidence threshold, so those answers say so.
 */
const DISAGREEMENT_CAP = 0.5;

function capConfidence<T extends { confidence: number }>(labelled: T, cap: number): T {
  return { ...labelled, confidence: Math.min(labelled.confidence, cap) };
}

const MODEL_UNAVAILABLE = "The parsing model is not available; the rule-based parser answered.";
const MODEL_FAILED = "The parsing model failed on this line; the rule-based parser answered.";
const MODEL_INVALID = "The model's labels were inconsistent; the rule-based parser's parse was used.";
