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
