import type { Candidate } from "../lookup-types.js";
import type { StreetAnswer, StreetMatch, StreetRows } from "./match-ladder.js";
import { AMBIGUOUS_EACH, answerCandidates, MAX_CANDIDATES, notFound } from "./match-ladder.js";

/** One reading's answer (query-readings.ts) on the rows of its street. */
export interface ReadingMatch extends StreetMatch {
  rows: StreetRows;
}

/**
 * The answer across the readings of one query. The best level wins (exact 1 > filled in 0.95 >
 * corrected 0.8 > weak 0.3), so a reading that fits exactly always beats another reading's
 * correction of a suffix. Readings at that level that lead to different parcels make the answer
 * `ambiguous` with all their parcels as candidates: which spelling the caller meant is not ours to
 * pick. Pure; `matches` is not empty.
 */
export function chooseReading(matches: readonly ReadingMatch[]): StreetAnswer {
  const best = Math.max(...matches.map((match) => match.level));
  const tied = matches.filter((match) => match.level === best);
  const first = tied[0]!;
  const parcels = parcelsOf(first.answer);
  if (tied.every((match) => parcelsOf(match.answer) === parcels)) return first.answer;
  const candidates = new Map<string, Candidate>();
  for (const match of tied) {
    const each = match.answer.matchConfidence * AMBIGUOUS_EACH;
    for (const candidate of answerCandidates(match.answer, match.rows, each)) {
      const known = candidates.get(candidate.service_id ?? "");
      if (!known || known.matchConfidence < candidate.matchConfidence)
        candidates.set(candidate.service_id ?? "", candidate);
    }
  }
  const ranked = [...candidates.values()].sort((a, b) => b.matchConfidence - a.matchConfidence);
  return { ...notFound(), status: "ambiguous", candidates: ranked.slice(0, MAX_CANDIDATES) };
}

/** The parcels an answer leads to: its own, else its candidates'. */
function parcelsOf(answer: StreetAnswer): string {
  return (
    answer.service_id ??
    answer.candidates
      .map((candidate) => candidate.service_id ?? "")
      .sort()
      .join(",")
  );
}
