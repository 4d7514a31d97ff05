import type { LonLat } from "./record-source.js";

/** What the parser fills: the line's record itself (no copy per line): its values by field index, and the point. */
export interface ParsedLine {
  line: number;
  fields: string[];
  point: LonLat | null;
}

const enum Code {
  Quote = 34,
  Backslash = 92,
  Colon = 58,
  Comma = 44,
  OpenBrace = 123,
  CloseBrace = 125,
  OpenBracket = 91,
  CloseBracket = 93,
}

/**
 * A fast path for the usual GeoJSON-lines feature (OpenAddresses, GDAL's GeoJSONSeq): members
 * `type`, `properties` (flat: strings, numbers, booleans, null) and `geometry` (a Point or null),
 * read straight into the field values without building the feature object JSON.parse would (that
 * object and its strings are most of the cost of a line). Anything else (escapes in a key, a nested
 * property, another geometry, another member) answers undefined and the caller parses the line
 * with JSON.parse; so does anything malformed. Values are those of the JSON.parse path, except that
 * control characters inside strings and numbers JSON forbids (`01`, `+1`) are accepted.
 */
export class FeatureLineParser {
  /** Field index of the n-th property of the previous line: the next line likely has the same keys. */
  private readonly guess: number[] = [];
  /**
   * The previous line's value of each field: a value written again (a county, city, ZIP, state
   * line after line) is that string, not a new one, as csv.ts does for CSV fields, so normalizers
   * memoized on the previous value answer at once and fewer strings are made.
   */
  private previous: string[] = [];

  constructor(
    private readonly names: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
  ) {}

  /** The line text[from, to), which has no backslash (the caller checks): no string has escapes. */
  parse(text: string, from: number, to: number, lineNumber = 0): ParsedLine | undefined {
    const fields = new Array<string>(this.names.length).fill("");
    const line: ParsedLine = { line: lineNumber, fields, point: null };
    if (text.startsWith(COMPACT_START, from)) {
      // OpenAddresses' own layout: one comparison instead of three members' worth of checks
      const at = this.properties(text, from + COMPACT_START.length - 1, to, fields);
      if (at === -1 || !text.startsWith(COMPACT_GEOMETRY, at)) return undefined;
      const end = point(text, at + COMPACT_GEOMETRY.length, to, line);
      return end !== -1 && text.charCodeAt(end) === Code.CloseBrace && skip(text, end + 1, to) === to
        ? line
        : undefined;
    }
    let at = text.charCodeAt(from) === Code.OpenBrace ? from : skip(text, from, to);
    if (text.charCodeAt(at) !== Code.OpenBrace) return undefined;
    let feature = false;
    for (at++; ; at++) {
      if (text.charCodeAt(at) !== Code.Quote) at = skip(text, at, to);
      const keyEnd = stringEnd(text, at, to);
      if (keyEnd === -1) return undefined;
      const keyAt = at + 1;
      at = keyEnd + 1;
      if (text.charCodeAt(at) !== Code.Colon) at = skip(text, at, to);
      if (text.charCodeAt(at) !== Code.Colon) return undefined;
      at++;
      if (text.charCodeAt(at) <= 32) at = skip(text, at, to);
      if (isKey(text, keyAt, keyEnd, "type")) {
        const end = stringEnd(text, at, to);
        if (end === -1 || end - at !== 8 || !text.startsWith("Feature", at + 1)) return undefined;
        feature = true;
        at = end + 1;
      } else if (isKey(text, keyAt, keyEnd, "properties")) at = this.properties(text, at, to, fields);
      else if (isKey(text, keyAt, keyEnd, "geometry")) at = point(text, at, to, line);
      else return undefined;
      if (at === -1) return undefined;
      let code = text.charCodeAt(at);
      if (code <= 32) code = text.charCodeAt((at = skip(text, at, to)));
      if (code === Code.CloseBrace) return feature && skip(text, at + 1, to) === to ? line : undefined;
      if (code !== Code.Comma) return undefined;
    }
  }

  /** A flat properties object into `fields`; answers the index after it, or -1. */
  private properties(text: string, at: number, to: number, fields: string[]): number {
    if (text.charCodeAt(at) !== Code.OpenBrace) return text.startsWith("null", at) ? at + 4 : -1;
    at++;
    if (text.charCodeAt(at) <= 32) at = skip(text, at, to);
    if (text.charCodeAt(at) === Code.CloseBrace) return at + 1;
    for (let n = 0; ; n++) {
      if (text.charCodeAt(at) !== Code.Quote) return -1;
      const slot = this.slot(text, at, to, n);
      if (slot === undefined) return -1;
      at = this.keyEnd + 1;
      if (text.charCodeAt(at) !== Code.Colon) at = skip(text, at, to);
      if (text.charCodeAt(at) !== Code.Colon) return -1;
      at++;
      let code = text.charCodeAt(at);
      if (code <= 32) code = text.charCodeAt((at = skip(text, at, to)));
      let value: string;
      if (code === Code.Quote) {
        const end = stringEnd(text, at, to);
        if (end === -1) return -1;
        const same = slot === -1 ? undefined : this.previous[slot];
        value =
          same !== undefined && same.length === end - at - 1 && text.startsWith(same, at + 1)
            ? same
            : text.slice(at + 1, end);
        at = end + 1;
      } else if (code === 110 && text.startsWith("null", at)) {
        value = "";
        at += 4;
      } else if (code === 116 && text.startsWith("true", at)) {
        value = "true";
        at += 4;
      } else if (code === 102 && text.startsWith("false", at)) {
        value = "false";
        at += 5;
      } else {
        const end = numberEnd(text, at, to);
        const number = decimal(text, at, end);
        if (!Number.isFinite(number)) return -1;
        value = String(number);
        at = end;
      }
      if (slot !== -1) fields[slot] = value;
      code = text.charCodeAt(at);
      if (code <= 32) code = text.charCodeAt((at = skip(text, at, to)));
      if (code === Code.CloseBrace) {
        this.previous = fields;
        return at + 1;
      }
      if (code !== Code.Comma) return -1;
      at++;
      if (text.charCodeAt(at) <= 32) at = skip(text, at, to);
    }
  }

  /** Where the key read by `slot` ends (its closing quote). */
  private keyEnd = 0;

  /**
   * The field index of the key whose opening quote is at `at` (-1: not a field; undefined: no key),
   * trying the previous line's n-th key first, which needs no search for the closing quote.
   */
  private slot(text: string, at: number, to: number, n: number): number | undefined {
    const guess = this.guess[n];
    if (guess !== undefined) {
      const name = this.names[guess]!;
      const end = at + 1 + name.length;
      if (text.charCodeAt(end) === Code.Quote && end < to && text.startsWith(name, at + 1)) {
        this.keyEnd = end;
        return guess;
      }
    }
    const end = stringEnd(text, at, to);
    if (end === -1) return undefined;
    this.keyEnd = end;
    const slot = this.index.get(text.slice(at + 1, end)) ?? -1;
    if (slot !== -1) this.guess[n] = slot;
    return slot;
  }
}

const COMPACT_START = '{"type":"Feature","properties":{';
const COMPACT_GEOMETRY = ',"geometry":';
const COMPACT_POINT = '{"type":"Point","coordinates":[';

/** A Point or null geometry into `line.point`; answers the index after it, or -1 (any other geometry). */
function point(text: string, at: number, to: number, line: ParsedLine): number {
  if (text.startsWith(COMPACT_POINT, at)) {
    const start = at + COMPACT_POINT.length;
    const comma = numberEnd(text, start, to);
    const end = numberEnd(text, comma + 1, to);
    if (text.charCodeAt(comma) === Code.Comma && text.charCodeAt(end) === Code.CloseBracket) {
      const lon = decimal(text, start, comma);
      const lat = decimal(text, comma + 1, end);
      if (text.charCodeAt(end + 1) === Code.CloseBrace && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
        line.point = { lon, lat };
        return end + 2;
      }
    }
  }
  if (text.startsWith("null", at)) return at + 4;
  if (text.charCodeAt(at) !== Code.OpenBrace) return -1;
  let isPoint = false;
  let lon = NaN;
  let lat = NaN;
  for (at = skip(text, at + 1, to); ; at = skip(text, at + 1, to)) {
    const keyEnd = stringEnd(text, at, to);
    if (keyEnd === -1) return -1;
    const keyAt = at + 1;
    at = skip(text, keyEnd + 1, to);
    if (text.charCodeAt(at) !== Code.Colon) return -1;
    at = skip(text, at + 1, to);
    if (isKey(text, keyAt, keyEnd, "type")) {
      const end = stringEnd(text, at, to);
      if (end === -1 || end - at !== 6 || !text.startsWith("Point", at + 1)) return -1;
      isPoint = true;
      at = end + 1;
    } else if (isKey(text, keyAt, keyEnd, "coordinates")) {
      if (text.charCodeAt(at) !== Code.OpenBracket) return -1;
      at = skip(text, at + 1, to);
      let end = numberEnd(text, at, to);
      lon = decimal(text, at, end);
      at = skip(text, end, to);
      if (text.charCodeAt(at) !== Code.Comma) return -1;
      at = skip(text, at + 1, to);
      end = numberEnd(text, at, to);
      lat = decimal(text, at, end);
      at = skip(text, end, to);
      if (text.charCodeAt(at) !== Code.CloseBracket) return -1; // a third coordinate (z): the general path
      at++;
    } else return -1;
    at = skip(text, at, to);
    const code = text.charCodeAt(at);
    if (code === Code.CloseBrace) break;
    if (code !== Code.Comma) return -1;
  }
  if (!isPoint || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return -1;
  line.point = { lon, lat };
  return at + 1;
}

function isKey(text: string, from: number, to: number, key: string): boolean {
  return to - from === key.length && text.startsWith(key, from);
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * The number text[from, to) as `Number` reads it, without cutting the text out for plain decimals
 * of at most 15 digits: their digits as an integer divided by a power of ten are both exact
 * doubles, and IEEE division rounds correctly (Clinger 1990), as row-reader.ts's parseDecimal.
 */
function decimal(text: string, from: number, to: number): number {
  const negative = text.charCodeAt(from) === 45; // "-"
  let digits = 0;
  let mantissa = 0;
  let fraction = -1;
  for (let i = negative ? from + 1 : from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (code === 46 && fraction < 0) fraction = 0;
    else return to > from ? Number(text.slice(from, to)) : NaN;
  }
  if (digits === 0 || digits > 15 || fraction === 0) return to > from ? Number(text.slice(from, to)) : NaN;
  const value = mantissa / POWERS_OF_TEN[Math.max(fraction, 0)]!;
  return negative ? -value : value;
}

/** The index of the first non-whitespace character at or after `at` (JSON whitespace). */
function skip(text: string, at: number, to: number): number {
  while (at < to) {
    const code = text.charCodeAt(at);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) break;
    at++;
  }
  return at;
}

/** The closing quote of a string starting at `at` (the line has no backslash: no escapes), or -1. */
function stringEnd(text: string, at: number, to: number): number {
  if (text.charCodeAt(at) !== Code.Quote) return -1;
  const end = text.indexOf('"', at + 1);
  return end === -1 || end >= to ? -1 : end;
}

/** The end of the characters a JSON number may have. */
function numberEnd(text: string, at: number, to: number): number {
  while (at < to) {
    const code = text.charCodeAt(at);
    // 0-9 . - + e E
    if (
      (code >= 48 && code <= 57) ||
      code === 46 ||
      code === 45 ||
      code === 43 ||
      code === 101 ||
      code === 69
    )
      at++;
    else break;
  }
  return at;
}
