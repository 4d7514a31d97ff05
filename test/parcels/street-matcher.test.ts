import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { damerauDistance, editDistance } from "../../src/parcels/lookup/edit-distance.js";
import { editBudget, MAX_EDITS, sameDigits, StreetMatcher } from "../../src/parcels/lookup/street-matcher.js";

/** The textbook optimal string alignment distance, full matrix, no cut-off: the oracle. */
function naiveDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Unrestricted Damerau–Levenshtein (Lowrance & Wagner), fresh matrices and maps: the oracle. */
function naiveDamerau(a: string, b: string): number {
  const infinity = a.length + b.length;
  const d = Array.from({ length: a.length + 2 }, () => new Array<number>(b.length + 2).fill(0));
  d[0]![0] = infinity;
  for (let i = 0; i <= a.length; i++) [d[i + 1]![0], d[i + 1]![1]] = [infinity, i];
  for (let j = 0; j <= b.length; j++) [d[0]![j + 1], d[1]![j + 1]] = [infinity, j];
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= a.length; i++) {
    let lastColumn = 0;
    for (let j = 1; j <= b.length; j++) {
      const k = lastRow.get(b[j - 1]!) ?? 0;
      const l = lastColumn;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      if (cost === 0) lastColumn = j;
      d[i + 1]![j + 1] = Math.min(
        d[i]![j]! + cost,
        d[i + 1]![j]! + 1,
        d[i]![j + 1]! + 1,
        d[k]![l]! + (i - k - 1) + 1 + (j - l - 1),
      );
    }
    lastRow.set(a[i - 1]!, i);
  }
  return d[a.length + 1]![b.length + 1]!;
}

const name = fc.stringMatching(/^[A-E0-2 ]{1,9}$/);

test("the bounded edit distance agrees with the full-matrix oracle up to its bound", () => {
  fc.assert(
    fc.property(name, name, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
      const expected = naiveDistance(a, b);
      assert.equal(editDistance(a, b, max), expected <= max ? expected : max + 1);
    }),
    { numRuns: 2000 },
  );
  assert.equal(editDistance("MAIN", "MIAN", 2), 1, "a transposition is one edit");
  assert.equal(editDistance("OAKHILL", "OAK HILL", 2), 1, "so is a space");
});

test("Damerau–Levenshtein: symmetric, never above the restricted distance, transpositions after edits", () => {
  fc.assert(
    fc.property(name, name, (a, b) => {
      const distance = damerauDistance(a, b);
      assert.equal(distance, damerauDistance(b, a));
      assert.ok(distance <= naiveDistance(a, b));
      assert.ok(distance >= Math.abs(a.length - b.length));
      assert.equal(distance === 0, a === b);
    }),
    { numRuns: 2000 },
  );
  assert.equal(damerauDistance("LINCOLN", "LINCNO"), 2, "drop L, swap ON (restricted: 3)");
  assert.equal(damerauDistance("CA", "ABC"), 2);
  assert.equal(damerauDistance("KITTEN", "SITTING"), 3);
});

test("Damerau–Levenshtein reuses its matrix between calls and agrees with the oracle", () => {
  // Lengths vary from call to call (a longer call leaves cells a shorter one must not read),
  // and letters beyond ASCII take the other path of the last-row table.
  const word = fc.stringMatching(/^[A-DÑÉ1 ]{0,24}$/);
  fc.assert(
    fc.property(fc.array(fc.tuple(word, word), { minLength: 1, maxLength: 6 }), (pairs) => {
      for (const [a, b] of pairs) assert.equal(damerauDistance(a, b), naiveDamerau(a, b), `${a} / ${b}`);
    }),
    { numRuns: 1000 },
  );
  // A query too long for the kept matrix gets one of its own; the next call is unharmed.
  const long = "MAIN".repeat(80);
  assert.equal(damerauDistance(long, `${long.slice(1)}X`), naiveDamerau(long, `${long.slice(1)}X`));
  assert.equal(damerauDistance("PEÑA", "PENA"), 1);
  assert.equal(damerauDistance("ÉÑ", "ÑÉ"), 1);
});

test("the deletion index finds exactly the streets a brute-force scan finds", () => {
  fc.assert(
    fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 25 }), name, (streets, query) => {
      const matcher = new StreetMatcher(streets);
      const found = matcher
        .near(query)
        .map((s) => `${s.name}:${s.distance}:${s.inBudget}`)
        .sort();
      const expected = streets
        .filter((s) => s !== query)
        .map((s) => [s, damerauDistance(query, s)] as const)
        .filter(([, distance]) => distance <= MAX_EDITS)
        .map(([s, distance]) => `${s}:${distance}:${distance <= editBudget(s)}`)
        .sort();
      assert.deepEqual(found, expected);
    }),
    { numRuns: 400 },
  );
});

test("street numbers are never fuzzy: a near miss keeps the digits", () => {
  assert.equal(sameDigits("4HT", "4TH"), true);
  assert.equal(sameDigits("01TH", "10TH"), true);
  assert.equal(sameDigits("4HT", "14TH"), false);
  const near = new StreetMatcher(["4TH", "14TH"]).near("4HT");
  assert.deepEqual(
    near.map((s) => [s.name, s.sameDigits]),
    [
      ["4TH", true],
      ["14TH", false],
    ],
  );
});
