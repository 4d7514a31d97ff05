/** A feature's text, a top-level member (parsed), or the start or end of the features array. */
export type ScanItem = string | { member: string; value: unknown } | { features: "start" | "end" };

type State =
  | "start"
  | "key"
  | "nextKey"
  | "colon"
  | "value"
  | "afterMember"
  | "array"
  | "feature"
  | "afterFeature"
  | "done";

const WHITESPACE = new Set([32, 9, 10, 13]);

/**
 * A streaming reader of a GeoJSON FeatureCollection (RFC 7946 §3.3): the members of the top-level
 * object are parsed as they come (they are small: `type`, `name`, `crs`, `bbox`), the `features`
 * array is cut into one text per feature by bracket depth (strings and escapes respected), for
 * `JSON.parse` one feature at a time. Members may come in any order: Pierce County's file has
 * `features` before `type`. Text is pushed a chunk at a time; a county file of a gigabyte is never
 * held whole.
 */
export class FeatureCollectionScanner {
  private text = "";
  private pos = 0;
  private state: State = "start";
  private key = "";
  /** Progress through a feature or member value being cut: where it starts, where scanning resumes, depth. */
  private valueStart = -1;
  private scan = 0;
  private depth = 0;
  /** In the features array: no feature since "[" or the last ",". */
  private firstFeature = true;
  /** Features cut so far. */
  features = 0;

  constructor(private readonly file: string) {}

  get done(): boolean {
    return this.state === "done";
  }

  /** Appends text; what was consumed is dropped, what a feature in progress needs is kept. */
  push(chunk: string): void {
    const keep = this.valueStart >= 0 ? this.valueStart : this.pos;
    this.text = keep > 0 ? this.text.slice(keep) + chunk : this.text + chunk;
    this.pos -= keep;
    this.scan -= keep;
    if (this.valueStart >= 0) this.valueStart -= keep;
  }

  /** Throws when the text ended before the FeatureCollection did. */
  end(): void {
    if (this.state === "done") {
      if (this.text.slice(this.pos).trim() !== "")
        throw new Error(`${this.file}: text after the end of the GeoJSON object`);
      return;
    }
    if (this.state === "start" && this.text.trim() === "") throw new Error(`${this.file}: the file is empty`);
    const where =
      this.state === "feature" || this.state === "afterFeature" || this.state === "array"
        ? `inside the features array, after ${this.features} complete features`
        : "before the GeoJSON object closes";
    throw new Error(`${this.file}: truncated GeoJSON: the file ends ${where}`);
  }

  /** The next member, feature text or array boundary; undefined when more text is needed or the object is done. */
  next(): ScanItem | undefined {
    for (;;) {
      if (this.state === "feature") return this.feature();
      if (this.state === "value") return this.memberValue();
      if (this.state === "done") return undefined;
      const at = this.skipSpace();
      if (at === -1) return undefined;
      const code = this.text.charCodeAt(at);
      const item = this.step(code, at);
      if (item === null) return undefined;
      if (item !== undefined) return item;
    }
  }

  /** One structural character in state; answers an item, null for "need more text", undefined to go on. */
  private step(code: number, at: number): ScanItem | null | undefined {
    switch (this.state) {
      case "start":
        if (code !== 123) this.fail(at, "a GeoJSON file is a JSON object");
        this.pos = at + 1;
        this.state = "key";
        return undefined;
      case "key":
      case "nextKey": {
        if (code === 125 && this.state === "key") {
          this.pos = at + 1;
          this.state = "done";
          return undefined;
        }
        if (code !== 34) this.fail(at, "expected a member name");
        const close = stringEnd(this.text, at + 1);
        if (close === -1) return null;
        this.key = JSON.parse(this.text.slice(at, close + 1)) as string;
        this.pos = close + 1;
        this.state = "colon";
        return undefined;
      }
      case "colon":
        if (code !== 58) this.fail(at, 'expected ":"');
        this.pos = at + 1;
        this.state = this.key === "features" ? "array" : "value";
        return undefined;
      case "array":
        if (code !== 91) this.fail(at, '"features" is not an array');
        this.pos = at + 1;
        this.state = "afterFeature";
        this.firstFeature = true;
        return { features: "start" };
      case "afterFeature":
        if (code === 93) {
          this.pos = at + 1;
          this.state = "afterMember";
          return { features: "end" };
        }
        if (!this.firstFeature) {
          if (code !== 44) this.fail(at, 'expected "," or "]" between features');
          this.pos = at + 1;
          this.firstFeature = true;
          return undefined;
        }
        if (code !== 123) this.fail(at, "a feature is a JSON object");
        this.firstFeature = false;
        this.state = "feature";
        this.valueStart = at;
        this.scan = at;
        this.depth = 0;
        return undefined;
      case "afterMember":
        if (code === 125) {
          this.pos = at + 1;
          this.state = "done";
          return undefined;
        }
        if (code !== 44) this.fail(at, 'expected "," or "}" after a member');
        this.pos = at + 1;
        this.state = "nextKey";
        return undefined;
      default:
        return undefined;
    }
  }

  /** The text of the feature being cut, once its closing brace has arrived. */
  private feature(): string | undefined {
    const end = this.cutComposite();
    if (end === -1) return undefined;
    const text = this.text.slice(this.valueStart, end);
    this.pos = end;
    this.valueStart = -1;
    this.state = "afterFeature";
    this.features++;
    return text;
  }

  /** A member's value (any JSON value), parsed, once it is complete. */
  private memberValue(): ScanItem | undefined {
    if (this.valueStart === -1) {
      const at = this.skipSpace();
      if (at === -1) return undefined;
      this.valueStart = at;
      this.scan = at;
      this.depth = 0;
    }
    const code = this.text.charCodeAt(this.valueStart);
    let end: number;
    if (code === 123 || code === 91) end = this.cutComposite();
    else if (code === 34) {
      const close = stringEnd(this.text, this.valueStart + 1);
      end = close === -1 ? -1 : close + 1;
    } else end = scalarEnd(this.text, this.valueStart);
    if (end === -1) return undefined;
    const raw = this.text.slice(this.valueStart, end);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      this.fail(this.valueStart, `the value of "${this.key}" is not JSON`);
    }
    this.pos = end;
    this.valueStart = -1;
    this.state = "afterMember";
    return { member: this.key, value };
  }

  /**
   * Scans an object or array from where the last call stopped; answers the index after its closing
   * bracket, or -1 when the text ends first (the progress is kept for the next push).
   */
  private cutComposite(): number {
    const text = this.text;
    let depth = this.depth;
    let i = this.scan;
    for (const n = text.length; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code === 34) {
        const close = stringEnd(text, i + 1);
        if (close === -1) break;
        i = close;
      } else if (code === 123 || code === 91) depth++;
      else if (code === 125 || code === 93) {
        if (--depth === 0) {
          this.depth = 0;
          return i + 1;
        }
      }
    }
    this.scan = i;
    this.depth = depth;
    return -1;
  }

  /** The index of the next non-whitespace character from `pos` (which moves there), or -1. */
  private skipSpace(): number {
    const text = this.text;
    let i = this.pos;
    while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
    this.pos = i;
    return i < text.length ? i : -1;
  }

  private fail(at: number, reason: string): never {
    const context = JSON.stringify(this.text.slice(Math.max(0, at - 20), at + 20));
    throw new Error(`${this.file}: not a GeoJSON FeatureCollection: ${reason} (near ${context})`);
  }
}

/** The index of the quote closing a string whose text starts at `from`, or -1 if it has not arrived. */
function stringEnd(text: string, from: number): number {
  for (let i = text.indexOf('"', from); i !== -1; i = text.indexOf('"', i + 1)) {
    let backslashes = 0;
    for (let j = i - 1; j >= from && text.charCodeAt(j) === 92; j--) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}

/** The end of a number or literal (`true`, `null`): the next delimiter, or -1 if the text ends first. */
function scalarEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 125 || code === 93 || WHITESPACE.has(code)) return i;
  }
  return -1;
}
