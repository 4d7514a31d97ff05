import { namesNumber } from "./ordinal-name.js";
import { lengthBudget } from "./street-matcher.js";
import type { NearStreet } from "./street-matcher.js";

/**
 * Which near-miss street answers, among the near streets that have a fit at the house number
 * (DECISIONS.md "Fuzzy"). Pure: the caller finds the streets and their fits (parcel-lookup.ts).
 *
 * Street numbers are never fuzzy (`sameDigits`), so the first choice is the nearest street with the
 * query's digits, within its own edit budget. It answers only if no other street with a fit is
 * within one more edit (whatever its budget and digits), so two streets that fit a near miss about
 * equally make it ambiguous. One exception: a street that lacks one of the query's digits would
 * need a digit changed into another (`5HT` → `4TH`), which is never guessed (`13TH` is no typo of
 * `12TH`); its digit edits count twice in that comparison. A street that has every digit of the
 * query (`1TS` → `12TH`, a digit lost) counts at its plain distance.
 *
 * A street with other digits answers only as a **digit guess**, when no street with the query's
 * digits fits: the query must not spell a street number itself (`IST` and `11ST` may be typos of
 * `1ST`; `22ND` names a street the index may lack or another ZIP may hold), the guess restores or
 * drops one digit and changes none (`keepsQueryDigits`), stays within the budget of a name
 * without the digit guard (`lengthBudget`), and is the only street with a fit at all.
 */
export interface NearFit {
  street: NearStreet;
}

export type NearMissChoice<T extends NearFit> =
  | { kind: "none" }
  /** `edits`: the edits the answer needed, digit edits counted twice (they lower confidence). */
  | { kind: "matched"; answer: T; edits: number }
  | { kind: "ambiguous"; contenders: T[]; edits: number };

const weight = (street: NearStreet): number =>
  street.distance + (street.keepsQueryDigits ? 0 : street.digitEdits);

export function chooseNearMiss<T extends NearFit>(query: string, fits: readonly T[]): NearMissChoice<T> {
  const sorted = [...fits].sort((a, b) => weight(a.street) - weight(b.street));
  const best = sorted.find((fit) => fit.street.sameDigits && fit.street.inBudget);
  if (best) {
    const contenders = sorted.filter((fit) => weight(fit.street) <= best.street.distance + 1);
    return contenders.length === 1
      ? { kind: "matched", answer: best, edits: best.street.distance }
      : { kind: "ambiguous", contenders, edits: best.street.distance };
  }
  const guess = sorted[0];
  if (!guess || sorted.length > 1 || !isDigitGuess(query, guess.street)) return { kind: "none" };
  return { kind: "matched", answer: guess, edits: guess.street.distance + guess.street.digitEdits };
}

function isDigitGuess(query: string, street: NearStreet): boolean {
  return (
    !namesNumber(query) &&
    street.keepsQueryDigits &&
    street.digitEdits === 1 &&
    street.distance <= lengthBudget(street.name)
  );
}
