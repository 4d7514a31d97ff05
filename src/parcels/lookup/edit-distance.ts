/**
 * Optimal string alignment distance (Damerau–Levenshtein restricted to non-overlapping
 * transpositions; Damerau 1964, Wagner & Fischer 1974): insertions, deletions, substitutions and
 * swaps of two adjacent letters each cost 1. The matrix row for `a[i]` is filled from the previous
 * two rows; the search stops as soon as a whole row exceeds `max`:
 *
 *          ""  M  A  I  N
 *      ""   0  1  2  3  4
 *      M    1  0  1  2  3
 *      I    2  1  1  1  2        d[i][j] = min(d[i-1][j] + 1, d[i][j-1] + 1,
 *      A    3  2  1  1  2                      d[i-1][j-1] + (a[i] ≠ b[j]),
 *      N    4  3  2  2  1                      d[i-2][j-2] + 1 if a[i]a[i-1] = b[j-1]b[j])
 *
 * Answers the distance, or `max + 1` when it is larger than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] ?? max + 1, max + 1);
}

/** Every string obtained from `word` by deleting up to `depth` characters (SymSpell's index keys). */
export function deletions(word: string, depth: number): Set<string> {
  const result = new Set<string>([word]);
  let frontier = [word];
  for (let level = 0; level < depth; level++) {
    const next: string[] = [];
    for (const text of frontier) {
      for (let i = 0; i < text.length; i++) {
        const shorter = text.slice(0, i) + text.slice(i + 1);
        if (!result.has(shorter)) {
          result.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return result;
}

/**
 * Unrestricted Damerau–Levenshtein distance (Lowrance & Wagner 1975): like `editDistance`, but a
 * transposition may also follow another edit of the same letters, so `LINCOLN` → `LINCNO` (drop
 * `L`, swap `ON`) is 2, where the restricted distance says 3. `lastRow` remembers, per letter,
 * the last row of `a` holding it; `d` has one extra border row and column set to a sentinel:
 *
 *              sentinel  ""  b1 b2 …
 *   sentinel      ∞      ∞   ∞  ∞
 *   ""            ∞      0   1  2
 *   a1            ∞      1   d[i][j] = min(substitute, insert, delete,
 *   …                                  d[k−1][l−1] + (i−k−1) + 1 + (j−l−1))  k, l: last matches
 */
export function damerauDistance(a: string, b: string): number {
  const sentinel = a.length + b.length;
  const width = b.length + 2;
  const size = (a.length + 2) * width;
  // Every cell read below is written earlier in the same call, so the matrix is reused as is;
  // one for a freak of a query (a street name kilobytes long) is made for that call alone.
  if (matrix.length < size && size <= MAX_KEPT_CELLS)
    matrix = new Int32Array(Math.min(MAX_KEPT_CELLS, Math.max(size, matrix.length * 2)));
  const d = matrix.length >= size ? matrix : new Int32Array(size);
  d[0] = sentinel;
  for (let i = 0; i <= a.length; i++) {
    d[(i + 1) * width] = sentinel;
    d[(i + 1) * width + 1] = i;
  }
  for (let j = 0; j <= b.length; j++) {
    d[j + 1] = sentinel;
    d[width + j + 1] = j;
  }
  lastRowAscii.fill(0);
  let lastRowOther: Map<number, number> | undefined;
  for (let i = 1; i <= a.length; i++) {
    const letter = a.charCodeAt(i - 1);
    let lastColumn = 0;
    for (let j = 1; j <= b.length; j++) {
      const other = b.charCodeAt(j - 1);
      const k = other < 128 ? (lastRowAscii[other] as number) : (lastRowOther?.get(other) ?? 0);
      const l = lastColumn;
      const cost = letter === other ? 0 : 1;
      if (cost === 0) lastColumn = j;
      d[(i + 1) * width + j + 1] = Math.min(
        (d[i * width + j] as number) + cost,
        (d[(i + 1) * width + j] as number) + 1,
        (d[i * width + j + 1] as number) + 1,
        (d[k * width + l] as number) + (i - k - 1) + 1 + (j - l - 1),
      );
    }
    if (letter < 128) lastRowAscii[letter] = i;
    else (lastRowOther ??= new Map()).set(letter, i);
  }
  return d[(a.length + 1) * width + b.length + 1] as number;
}

/**
 * The matrix and the last-row table of `damerauDistance`, kept between calls: fuzzy lookup
 * compares a query with dozens of names, and fresh arrays for each were most of its garbage.
 * Letters outside ASCII (rare in street names) go to a map.
 */
let matrix = new Int32Array(256);
/** The largest matrix kept between calls: two names of 254 letters. */
const MAX_KEPT_CELLS = 256 * 256;
const lastRowAscii = new Int32Array(128);
