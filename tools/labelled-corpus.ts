import { readFileSync } from "node:fs";
import type { Label } from "../src/parse/labels.js";
import type { Token } from "../src/parse/token.js";
import { tokenize } from "../src/parse/tokenize.js";

/**
 * The usaddress XML corpora (../shared/data/usaddress/training) as labelled lines for the CRF:
 * the raw line is the text of each <AddressString> with its tags removed; it goes through our
 * own tokenizer, and each of our tokens takes the label of the XML element its first character
 * falls in, mapped to our labels as ../shared/data/README.md says.
 */
export interface LabelledLine {
  input: string;
  tokens: Token[];
  labels: Label[];
}

const LABEL_MAP: Record<string, Label> = {
  AddressNumber: "addressNumber",
  AddressNumberPrefix: "addressNumber",
  AddressNumberSuffix: "addressNumberSuffix",
  StreetNamePreDirectional: "predirectional",
  StreetNamePostDirectional: "postdirectional",
  StreetNamePreModifier: "streetName",
  StreetNamePreType: "streetName",
  StreetName: "streetName",
  StreetNamePostModifier: "streetName",
  StreetNamePostType: "streetSuffix",
  OccupancyType: "occupancyType",
  SubaddressType: "occupancyType",
  OccupancyIdentifier: "occupancyId",
  SubaddressIdentifier: "occupancyId",
  USPSBoxType: "poBoxType",
  USPSBoxID: "poBoxId",
  USPSBoxGroupType: "ruralRouteType",
  USPSBoxGroupID: "ruralRouteId",
  Recipient: "firm",
  BuildingName: "firm",
  LandmarkName: "firm",
  PlaceName: "city",
  StateName: "state",
  ZipCode: "zip5",
  CornerOf: "intersection",
  IntersectionSeparator: "intersection",
  NotAddress: "other",
  CountryName: "other",
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x?[0-9a-fA-F]+|\w+);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** A labelled stretch of a raw line: characters [start, end) carry `tag`. */
export interface Span {
  start: number;
  end: number;
  tag: string;
}

/** Reads one corpus file; lines whose tags are unknown or that tokenize to nothing are skipped. */
export function readLabelledCorpus(file: string): LabelledLine[] {
  const xml = readFileSync(file, "utf8");
  const lines: LabelledLine[] = [];
  for (const match of xml.matchAll(/<AddressString>([\s\S]*?)<\/AddressString>/g)) {
    const line = labelLine(match[1] ?? "");
    if (line !== undefined) lines.push(line);
  }
  return lines;
}

function labelLine(inner: string): LabelledLine | undefined {
  let input = "";
  const spans: Span[] = [];
  const element = /<(\w+)>([\s\S]*?)<\/\1>/g;
  let last = 0;
  for (const match of inner.matchAll(element)) {
    input += unescapeXml(inner.slice(last, match.index)).replace(/\s+/g, " ");
    const text = unescapeXml(match[2] ?? "");
    spans.push({ start: input.length, end: input.length + text.length, tag: match[1] ?? "" });
    input += text;
    last = (match.index ?? 0) + match[0].length;
  }
  input += unescapeXml(inner.slice(last)).replace(/\s+/g, " ");
  if (spans.some((span) => LABEL_MAP[span.tag] === undefined)) return undefined;
  return labelBySpans(input, spans, LABEL_MAP);
}

/**
 * Tokenizes a raw line and labels each token by the span its first character falls in
 * (`tagLabels` maps span tags to our labels); undefined when the line has no tokens.
 */
export function labelBySpans(input: string, spans: readonly Span[], tagLabels: Readonly<Record<string, Label>>): LabelledLine | undefined {
  const tokens = tokenize(input);
  if (tokens.length === 0) return undefined;
  const labels = tokens.map((token, t) => tokenLabel(token, tokens[t - 1], spans, tagLabels));
  return { input, tokens, labels: fixRuralBoxes(labels) };
}

function tokenLabel(token: Token, previous: Token | undefined, spans: readonly Span[], tagLabels: Readonly<Record<string, Label>>): Label {
  const span = spans.find((s) => token.start >= s.start && token.start < s.end);
  if (span === undefined) return token.text === "#" ? "occupancyType" : "other";
  const label = tagLabels[span.tag] as Label;
  // RR2 as one group-ID element: the tokenizer splits off RR, which is the route type.
  if (label === "ruralRouteId" && token.start === span.start && span.end > token.end && ROUTE_WORDS.has(token.text)) {
    return "ruralRouteType";
  }
  // A ZIP+4 written 94114-2414 is one element; the tokenizer splits it and the add-on is zip4.
  if (label === "zip5" && previous !== undefined && previous.end > span.start && /^\d{4}$/.test(token.text)) {
    return "zip4";
  }
  return label;
}

/** RR 2 BOX 152: the box belongs to the route (DECISIONS.md "Rural route": ruralRouteId `2 BOX 152`). */
const ROUTE_WORDS = new Set(["RR", "HC", "HCR", "RFD", "RT", "RTE", "ROUTE"]);

function fixRuralBoxes(labels: Label[]): Label[] {
  let inRoute = false;
  return labels.map((label) => {
    if (label === "ruralRouteType" || label === "ruralRouteId") inRoute = true;
    if (inRoute && (label === "poBoxType" || label === "poBoxId")) return "ruralRouteId";
    if (label !== "ruralRouteId" && label !== "ruralRouteType") inRoute = false;
    return label;
  });
}
