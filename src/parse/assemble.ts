import { addressType } from "./assembly/address-type.js";
import { addBoxComponents } from "./assembly/box-components.js";
import { boxLabels } from "./assembly/box-labels.js";
import { countyAsOther } from "./assembly/county-labels.js";
import { deliveryLines } from "./assembly/delivery-lines.js";
import { Draft, labelRuns } from "./assembly/draft.js";
import { foreignSpan, type ForeignSpan } from "./assembly/foreign-signals.js";
import { streetLabels } from "./assembly/street-labels.js";
import { lotAfterStreet, unitLabels, unitSignInStreet } from "./assembly/unit-labels.js";
import { firmLabels } from "./assembly/firm-labels.js";
import { addPlaceComponents } from "./assembly/place-components.js";
import { addStreetComponents } from "./assembly/street-components.js";
import { addUnitComponents } from "./assembly/unit-components.js";
import { warningMessage } from "./assembly/warning-messages.js";
import { stateHighwayName } from "./vocabulary/highway.js";
import { LABELS } from "./labels.js";
import type { Label } from "./labels.js";
import type { AddressType, Components, ModelInfo, ParseAnswer, Warning } from "./parse-answer.js";
import type { Token } from "./token.js";

export { labelProblem } from "./assembly/label-problem.js";

/** What a labelling backend hands to assembly: tokens of `input`, one label each, its certainty. */
export interface LabelledParse {
  input: string;
  tokens: Token[];
  labels: readonly Label[];
  confidence: number;
  model: ModelInfo;
  /** Warnings the backend raised itself (`ambiguous_city_street`, `model_unavailable` ...). */
  extraWarnings?: Warning[];
  /**
   * `foreignSpan(tokens, labels)` when the backend has looked already (assembly's relabelling
   * of streets and box groups leaves the state labels it reads as they are); looked up when
   * absent.
   */
  foreign?: ForeignSpan | null;
}

/** `low_confidence` below this (SPEC "Limits"). */
export const LOW_CONFIDENCE = 0.6;
const MAX_LINE = 40;
/** Confidence of an answer whose type could not be determined (below LOW_CONFIDENCE). */
const AMBIGUOUS_TYPE_CAP = 0.5;

/**
 * The one path from labelled tokens to a parse answer, shared by both backends: components →
 * standardization → lines → warnings → confidence. Pure; never throws on any labelling.
 */
export function assemble(parse: LabelledParse): ParseAnswer {
  const { input, tokens } = parse;
  if (tokens.length === 0) return emptyAnswer(parse);
  const labels = readLabels(tokens, parse.labels);
  const draft = new Draft(tokens, labelRuns(labels.labels));
  addStreetComponents(draft);
  addUnitComponents(draft);
  addBoxComponents(draft);
  addPlaceComponents(draft, labels.intersectionAt >= 0);
  const street = draft.components.streetName;
  if (street !== undefined) draft.components.streetName = stateHighwayName(street, draft.components.state);
  const signals = { intersection: labels.intersectionAt >= 0, generalDelivery: draft.has("generalDelivery") };
  const type = addressType(draft.components, signals);
  const lines = deliveryLines(type, draft.components);
  addTypeWarnings(draft, type, labels.intersectionAt);
  for (const line of lines) if (line.length > MAX_LINE) draft.warn("line_overflow");
  const foreign = parse.foreign !== undefined ? parse.foreign : foreignSpan(tokens, labels.labels);
  if (foreign) draft.warn("possibly_foreign", foreign.from, foreign.to);
  const warnings = [...draft.warnings, ...(parse.extraWarnings ?? [])];
  const confidence = answerConfidence(type, draft.components, parse.confidence);
  if (confidence < LOW_CONFIDENCE) warnings.push({ code: "low_confidence", message: lowConfidenceMessage });
  return {
    input,
    type,
    components: inSpecOrder(draft.components),
    lines,
    warnings,
    confidence,
    model: parse.model,
  };
}

/**
 * An assembled answer with another confidence: the same parse, its `low_confidence` warning
 * (always the last) given or taken away as the new confidence says. Assembles nothing again.
 */
export function withConfidence(answer: ParseAnswer, value: number): ParseAnswer {
  const confidence = answerConfidence(answer.type, answer.components, value);
  const warnings = answer.warnings.filter((warning) => warning.code !== "low_confidence");
  if (confidence < LOW_CONFIDENCE) warnings.push({ code: "low_confidence", message: lowConfidenceMessage });
  return { ...answer, warnings, confidence };
}

/**
 * An answer whose type cannot be told (an intersection, nothing but place words, nothing but
 * unit designators) is no usable address however sure its labels are: its confidence stays
 * below the low_confidence threshold. A firm with its place (`BUDD INSURANCE AGENCY
 * COLDWATER MI`) is a plain reading and keeps its confidence.
 */
function answerConfidence(type: AddressType, components: Components, value: number): number {
  const capped = type === "ambiguous" && components.firm === undefined;
  return roundConfidence(capped ? Math.min(value, AMBIGUOUS_TYPE_CAP) : value);
}

const lowConfidenceMessage = warningMessage("low_confidence");

/** The labels as assembly reads them (box groups, lots, streets, units, an intersection's second street). */
function readLabels(tokens: readonly Token[], labels: readonly Label[]) {
  return secondStreetAsOther(
    firmLabels(
      tokens,
      unitLabels(
        tokens,
        streetLabels(
          tokens,
          lotAfterStreet(tokens, unitSignInStreet(tokens, boxLabels(tokens, countyAsOther(tokens, labels)))),
        ),
      ),
    ),
  );
}

/**
 * Each token's component in the answer assembled from `labels`: the labels after assembly's
 * readings, so two labellings that make the same components label the tokens alike (the
 * evaluation scores tokens by this).
 */
export function assembledLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  return readLabels(tokens, labels).labels;
}

function emptyAnswer(parse: LabelledParse): ParseAnswer {
  const blank = parse.input.trim() === "";
  const warnings: Warning[] = blank
    ? [{ code: "empty_input", message: warningMessage("empty_input") }]
    : [
        { code: "ambiguous_type", message: "The line holds no letters or digits." },
        {
          code: "unknown_tokens",
          message: "The line holds no letters or digits.",
          start: 0,
          end: parse.input.length,
        },
        { code: "low_confidence", message: lowConfidenceMessage },
      ];
  warnings.push(...(parse.extraWarnings ?? []));
  const components = blank ? {} : { other: parse.input.trim() };
  return {
    input: parse.input,
    type: "ambiguous",
    components,
    lines: [],
    warnings,
    confidence: 0,
    model: parse.model,
  };
}

/**
 * An intersection names two streets; the first is the answer's street, the words of the second
 * are kept in `other` for inspection (SPEC: an intersection is no delivery address).
 */
function secondStreetAsOther(labels: readonly Label[]): { labels: readonly Label[]; intersectionAt: number } {
  // The joining word after the first street (CORNER OF 5TH AVE AND MAIN ST: the AND).
  let at = -1;
  let streetSeen = false;
  for (let i = 0; i < labels.length && at < 0; i++) {
    if (STREET_PART.has(labels[i]!)) streetSeen = true;
    else if (labels[i] === "intersection" && streetSeen) at = i;
  }
  if (at < 0) at = labels.lastIndexOf("intersection");
  if (at < 0) return { labels, intersectionAt: -1 };
  const copy = labels.slice();
  for (let i = at + 1; i < copy.length; i++) if (STREET_PART.has(copy[i]!)) copy[i] = "other";
  return { labels: copy, intersectionAt: at };
}

/** The street's own labels: addressNumber … postdirectional, in LABELS order. */
const STREET_PART: ReadonlySet<Label> = new Set(
  LABELS.slice(LABELS.indexOf("addressNumber"), LABELS.indexOf("postdirectional") + 1),
);

/** Warnings that depend on the type: what a delivery address of that type lacks (SPEC table). */
function addTypeWarnings(draft: Draft, type: AddressType, intersectionAt: number): void {
  const c = draft.components;
  const streetLike = type === "street" || type === "dual" || type === "ambiguous";
  if (streetLike && c.addressNumber === undefined) {
    const name = draft.runsOf("streetName")[0];
    if (name) draft.warn("missing_address_number", name.from, name.to);
    else if (type !== "ambiguous" || intersectionAt < 0) draft.warn("missing_address_number");
  }
  if (streetLike && c.streetName === undefined) {
    const suffix = draft.runsOf("streetSuffix")[0];
    if (suffix) draft.warn("missing_street_name", suffix.from, suffix.to);
    else if (intersectionAt < 0) draft.warn("missing_street_name");
  }
  if (c.city === undefined) draft.warn("missing_city");
  if (c.state === undefined && !draft.hasWarning("invalid_state")) draft.warn("missing_state");
  if (c.zip5 === undefined && !draft.hasWarning("invalid_zip")) draft.warn("missing_zip");
  if (type === "dual") {
    const box = [
      ...draft.runsOf("poBoxType"),
      ...draft.runsOf("poBoxId"),
      ...draft.runsOf("ruralRouteType"),
      ...draft.runsOf("ruralRouteId"),
    ];
    const from = Math.min(...box.map((run) => run.from));
    const to = Math.max(...box.map((run) => run.to));
    draft.warn("dual_address", from, to);
  }
  if (intersectionAt >= 0) {
    draft.warn("unsupported_intersection", 0, lastStreetToken(draft) + 1);
  }
  if (type === "ambiguous") draft.warn("ambiguous_type");
}

function lastStreetToken(draft: Draft): number {
  let last = 0;
  for (const run of draft.runs)
    if (STREET_PART.has(run.label) || run.label === "intersection" || run.label === "other")
      last = run.to - 1;
  return last;
}

/**
 * The components found, without the absent ones (SPEC: omitted). The draft holds every key in
 * SPEC order (`secondaryUnits` after the occupancy pair), so the copy keeps that order; for-in
 * over that one object shape is V8's fast path.
 */
function inSpecOrder(components: Components): Components {
  const found: Record<string, unknown> = {};
  for (const key in components) {
    const value = components[key as keyof Components];
    if (value !== undefined) found[key] = value;
  }
  return found as Components;
}

function roundConfidence(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}
