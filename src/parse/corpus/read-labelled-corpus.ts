import { readFileSync } from "node:fs";

/** One token of a hand-labelled address as the corpus splits it, with its offsets in `raw`. */
export interface CorpusToken {
  text: string;
  label: string;
  start: number;
  end: number;
}

export interface LabelledAddress {
  /** The address as written: token texts and the text between them, entities decoded. */
  raw: string;
  tokens: CorpusToken[];
}

const ADDRESS = /<AddressString>([\s\S]*?)<\/AddressString>/g;
const PART = /<([A-Za-z]+)>([^<]*)<\/\1>|([^<]+)/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, name: string) =>
    name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name]!,
  );
}

/**
 * Reads the usaddress training XML (`<AddressString>` elements, one child element a token,
 * element name = label). The raw string is rebuilt from token texts and what lies between
 * them; repeated raw strings are kept once, the first (docs/parser.md "Corpus protocol").
 * A malformed element ends the read of that address only, never the file.
 */
export function parseLabelledCorpus(xml: string): LabelledAddress[] {
  const seen = new Set<string>();
  const addresses: LabelledAddress[] = [];
  for (const match of xml.matchAll(ADDRESS)) {
    const address = parseAddress(match[1]!);
    if (address.tokens.length === 0 || seen.has(address.raw)) continue;
    seen.add(address.raw);
    addresses.push(address);
  }
  return addresses;
}

function parseAddress(inner: string): LabelledAddress {
  let raw = "";
  const tokens: CorpusToken[] = [];
  for (const part of inner.matchAll(PART)) {
    if (part[1] === undefined) {
      raw += decode(part[3]!).replace(/\s+/g, " ");
      continue;
    }
    const text = decode(part[2]!);
    tokens.push({ text, label: part[1], start: raw.length, end: raw.length + text.length });
    raw += text;
  }
  const trimmed = raw.trimStart();
  const shift = raw.length - trimmed.length;
  for (const token of tokens) {
    token.start -= shift;
    token.end -= shift;
  }
  return { raw: trimmed.trimEnd(), tokens };
}

export function readLabelledCorpus(path: string): LabelledAddress[] {
  return parseLabelledCorpus(readFileSync(path, "utf8"));
}
