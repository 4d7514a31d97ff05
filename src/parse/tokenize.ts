import * as WORDS from "./vocabulary/generated-words.js";
import { wordSet } from "./vocabulary/words.js";
import { standardState, standardUnitDesignator } from "../usps/usps.js";
import type { Token } from "./token.js";

/**
 * Splits one address line into tokens, keeping each token's UTF-16 offsets in the input so
 * warnings can point at it. Both parse backends read these tokens.
 *
 * - Whitespace separates tokens; commas, semicolons and line breaks separate them too and set
 *   `boundaryBefore` on the next token (the writer's own field boundary).
 * - Token text is uppercased with accents folded (`Ñ` → `N`); punctuation is dropped
 *   (Pub 28 §212: no punctuation in delivery lines), except `/` between digits (fractions),
 *   `-` inside numbers (`112-10`) and `#`, which, like `&`, is a token of its own.
 * - Glued forms are split: `RR03` → `RR 03`, `P.O.BOX12` → `PO BOX 12`, `#12` → `# 12`,
 *   `APT4B` → `APT 4B`, `94114-2414` → `94114 2414`, `941142414` → `94114 2414`,
 *   `WINSTON-SALEM` → `WINSTON SALEM`, `I-10` → `I 10`, `TX-71` → `TX 71`.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const chunk = new Chunk();
  let boundary = false;
  let i = 0;
  const n = input.length;
  while (i < n) {
    const kind = charKind(input.charCodeAt(i));
    if (kind !== WORD) {
      if (kind === BOUNDARY) boundary = true;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && charKind(input.charCodeAt(j)) === WORD) j++;
    const before = tokens.length;
    chunk.read(input, i, j);
    chunk.emit(tokens);
    if (tokens.length > before) {
      if (boundary && before > 0) tokens[before]!.boundaryBefore = true;
      boundary = false;
    }
    i = j;
  }
  return tokens;
}

const WORD = 0;
const SEPARATOR = 1;
const BOUNDARY = 2;

/**
 * ASCII character kinds: commas, semicolons and line breaks are field boundaries; whitespace and
 * bracketing punctuation (`( ) [ ] { } < > " |`) separate tokens; everything else is word.
 */
const ASCII_KINDS = new Uint8Array(128);
for (const c of [9, 11, 12, 32, 34, 40, 41, 60, 62, 91, 93, 123, 124, 125]) ASCII_KINDS[c] = SEPARATOR;
for (const c of [10, 13, 44, 59]) ASCII_KINDS[c] = BOUNDARY;

function charKind(c: number): number {
  if (c < 128) return ASCII_KINDS[c]!;
  return c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000 ? SEPARATOR : WORD;
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const COMBINING_MARKS = /\p{M}/gu;

/**
 * Prefixes that writers glue to a number (`APT4B`, `RR03`, `BOX12`, `PSC1234`, `I10`): every
 * Appendix C2 designator form plus the box, route and highway words that take a number.
 */
const GLUE_PREFIXES: ReadonlySet<string> = wordSet(WORDS.GLUE_PREFIXES);

function isGluePrefix(word: string): boolean {
  return GLUE_PREFIXES.has(word) || (word !== "NO" && standardUnitDesignator(word) !== undefined);
}

/**
 * `TX-71`, `US-101`, `CA-1`: a state or US route written with a hyphen, read as `TX 71` (the
 * highway forms then give `TX HIGHWAY 71`). A state code before a number of up to four digits
 * and perhaps a letter, not right after a unit designator (`APT IN-5` is a unit's number).
 */
function isStateRoute(parts: readonly string[], before: readonly Token[]): boolean {
  const previous = before[before.length - 1]?.text;
  // APT IN-5, # CA-2: after a unit designator it is the unit's number.
  if (previous !== undefined && (previous === "#" || standardUnitDesignator(previous) !== undefined))
    return false;
  return (
    parts.length === 2 &&
    parts[0]!.length === 2 &&
    (parts[0] === "US" || standardState(parts[0]!) === parts[0]) &&
    /^\d{1,4}[A-Z]?$/.test(parts[1]!)
  );
}

/** One run of non-separator characters, cleaned: kept characters with their input offsets. */
class Chunk {
  private text = "";
  private starts: number[] = [];
  private ends: number[] = [];
  /** Set when every character was kept: offsets are then `base + index`, no arrays needed. */
  private plain = false;
  private base = 0;

  read(input: string, from: number, to: number): void {
    this.plain = isPlain(input, from, to);
    this.base = from;
    if (this.plain) {
      // Fast path: letters and digits only, one character per offset.
      this.text = input.slice(from, to).toUpperCase();
      return;
    }
    this.starts.length = 0;
    this.ends.length = 0;
    let text = "";
    for (let i = from; i < to; i++) {
      const c = input.charCodeAt(i);
      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 35 || c === 38 || c === 45 || c === 47) {
        text += input[i];
      } else if (c >= 97 && c <= 122) {
        text += String.fromCharCode(c - 32);
      } else if (c < 128) {
        continue; // other ASCII punctuation is dropped
      } else {
        const point = input.codePointAt(i)!;
        const char = String.fromCodePoint(point);
        const width = char.length;
        if (LETTER_OR_NUMBER.test(char)) {
          const folded = char.normalize("NFD").replace(COMBINING_MARKS, "").toUpperCase();
          // One offset pair per UTF-16 unit of the folded text: token ends index by unit.
          for (let u = 0; u < folded.length; u++) {
            this.starts.push(i);
            this.ends.push(i + width);
          }
          text += folded;
        }
        i += width - 1;
        continue;
      }
      this.starts.push(i);
      this.ends.push(i + 1);
    }
    this.text = text;
  }

  /** Splits the cleaned chunk at `#`, `&` and `/` not between digits, then each piece further. */
  emit(out: Token[]): void {
    const text = this.text;
    let pieceStart = 0;
    for (let k = 0; k <= text.length; k++) {
      const c = k < text.length ? text.charCodeAt(k) : -1;
      const splitsHere =
        c === -1 || c === 35 || c === 38 || (c === 47 && !(isDigitAt(text, k - 1) && isDigitAt(text, k + 1)));
      if (!splitsHere) continue;
      this.emitPiece(pieceStart, k, out);
      if (c === 35 || c === 38) this.push(k, k + 1, text[k]!, out);
      pieceStart = k + 1;
    }
  }

  /** A piece without `#`/`&`: trims hyphens, splits ZIP+4 and letter-only hyphenation. */
  private emitPiece(from: number, to: number, out: Token[]): void {
    while (from < to && this.text.charCodeAt(from) === 45) from++;
    while (to > from && this.text.charCodeAt(to - 1) === 45) to--;
    if (from >= to) return;
    const piece = this.text.slice(from, to);
    const hyphen = piece.indexOf("-");
    if (hyphen < 0) return this.emitWord(from, to, out);
    const parts = piece.split("-");
    if (isZipPlus4(parts) || parts.every(isLetters) || isGluePrefix(parts[0]!) || isStateRoute(parts, out)) {
      let at = from;
      for (const part of parts) {
        if (part !== "") this.emitWord(at, at + part.length, out);
        at += part.length + 1;
      }
      return;
    }
    this.push(from, to, piece.replace(/-+/g, "-"), out);
  }

  /** A word without hyphens: splits glued prefixes (`APT4B`, `POBOX12`) and 9-digit ZIPs. */
  private emitWord(from: number, to: number, out: Token[]): void {
    const word = this.text.slice(from, to);
    const letters = leadingLetters(word);
    if (letters === word.length) {
      if (word === "POBOX") {
        this.push(from, from + 2, "PO", out);
        this.push(from + 2, to, "BOX", out);
        return;
      }
      return this.push(from, to, word, out);
    }
    if (letters > 0 && isDigitAt(word, letters)) {
      const prefix = word.slice(0, letters);
      if (prefix === "POBOX") {
        this.push(from, from + 2, "PO", out);
        this.push(from + 2, from + 5, "BOX", out);
        return this.push(from + 5, to, word.slice(5), out);
      }
      if (isGluePrefix(prefix)) {
        this.push(from, from + letters, prefix, out);
        return this.push(from + letters, to, word.slice(letters), out);
      }
    }
    if (word.length === 9 && letters === 0 && isDigits(word)) {
      this.push(from, from + 5, word.slice(0, 5), out);
      return this.push(from + 5, to, word.slice(5), out);
    }
    this.push(from, to, word, out);
  }

  private push(from: number, to: number, text: string, out: Token[]): void {
    if (this.plain) out.push({ text, start: this.base + from, end: this.base + to, boundaryBefore: false });
    else out.push({ text, start: this.starts[from]!, end: this.ends[to - 1]!, boundaryBefore: false });
  }
}

function isPlain(input: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = input.charCodeAt(i) | 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}

function isDigitAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  return c >= 48 && c <= 57;
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isDigitAt(text, i)) return false;
  return text.length > 0;
}

function isLetters(text: string): boolean {
  return leadingLetters(text) === text.length;
}

function leadingLetters(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) break;
    if (c === 45 || c === 47) break;
    i++;
  }
  return i;
}

function isZipPlus4(parts: string[]): boolean {
  return (
    parts.length === 2 &&
    parts[0]!.length === 5 &&
    parts[1]!.length === 4 &&
    isDigits(parts[0]!) &&
    isDigits(parts[1]!)
  );
}
