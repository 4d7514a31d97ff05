import { encodeUlid } from "../format/binary-ulid.js";
import type { DecodedChunk } from "../format/chunk-format.js";
import type { Candidate, LookupAnswer } from "../lookup-types.js";
import type { TextField } from "../parcel-row.js";

/**
 * The outcome ladder of one street (SPEC.md "Lookup outcome"): given the active rows of a street
 * (one ZIP or all ZIPs of a city) and a normalized query, which parcel, building, ambiguity or
 * weak match answers. Pure: rows in, answer out; location, fuzzy search and diagnostics are the
 * caller's (parcel-lookup.ts).
 */
export interface Hit {
  chunk: DecodedChunk;
  row: number;
}

export interface StreetQuery {
  addressNumber: string;
  addressNumberSuffix: string;
  predirectional: string;
  streetSuffix: string;
  postdirectional: string;
  occupancyId: string;
  /**
   * Fields whose empty value was given, not omitted: a reading that moved the word into the street
   * name (query-readings.ts) says the street has none, so a parcel that records one is corrected.
   */
  pinned?: readonly RelaxableField[];
  /**
   * A reading that guessed where a word belongs (a type word taken from the name, a lost type word
   * put back): a fit that also needs a suffix or directional corrected is refused, as for a near
   * miss (`matchStreet`).
   */
  guessed?: true;
  /** A reading that puts back a word the input lost (query-readings.ts): a fit is a correction. */
  restoresWord?: true;
}

/** One street's active rows (over one or several chunks), found by house number. */
export interface StreetRows {
  /** Rows at a house number; `""` for rows with no number recorded. */
  at(addressNumber: string): Hit[];
  all(): Hit[];
}

export type StreetAnswer = Omit<LookupAnswer, "searched" | "readPath" | "fuzzy" | "state_inferred">;

/**
 * Confidences, which are also the levels readings are ranked by (reading-choice.ts): exact 1; a
 * suffix or directional the input omitted 0.95; one it got wrong 0.8; the weak no-number or
 * unnumbered-parcel match 0.3; nothing 0.
 */
export const EXACT = 1;
export const FILLED_IN = 0.95;
export const CORRECTED = 0.8;
export const WEAK = 0.3;
export const NONE = 0;
const UNIT_NOT_FOUND = 0.85;
export const AMBIGUOUS_EACH = 0.5;
/** No house number on a street of several parcels: its unnumbered parcel, else any of them. */
const STREET_UNNUMBERED = 0.2;
const STREET_PARCEL = 0.1;
export const MAX_CANDIDATES = 10;

const text = (hit: Hit, field: TextField): string => hit.chunk.text(hit.row, field);
const idOf = (hit: Hit): string => `adr_${hit.chunk.id(hit.row)}`;
const keyOf = (hit: Hit): string => hit.chunk.idKey(hit.row);
const nullable = (value: string): string | null => (value === "" ? null : value);

function buildingOf(hit: Hit): string | null {
  const bytes = hit.chunk.buildingIdBytes(hit.row);
  return bytes ? `bld_${encodeUlid(bytes)}` : null;
}

export function candidateOf(hit: Hit, matchConfidence: number): Candidate {
  return {
    service_id: idOf(hit),
    building_id: buildingOf(hit),
    apn: nullable(text(hit, "apn")),
    fips: nullable(text(hit, "fips")),
    lat: hit.chunk.lat(hit.row),
    lon: hit.chunk.lon(hit.row),
    zip5: nullable(text(hit, "zip5")),
    addressNumber: nullable(text(hit, "addressNumber")),
    streetName: nullable(text(hit, "streetName")),
    streetSuffix: nullable(text(hit, "streetSuffix")),
    occupancyId: nullable(text(hit, "occupancyId")),
    matchConfidence,
  };
}

function answer(
  status: StreetAnswer["status"],
  top: Hit | null,
  confidence: number,
  candidates: Candidate[] = [],
): StreetAnswer {
  const result: StreetAnswer = {
    status,
    service_id: top ? idOf(top) : null,
    building_id: top ? buildingOf(top) : null,
    apn: top ? nullable(text(top, "apn")) : null,
    fips: top ? nullable(text(top, "fips")) : null,
    lat: top ? top.chunk.lat(top.row) : null,
    lon: top ? top.chunk.lon(top.row) : null,
    matchConfidence: top ? confidence : 0,
    candidates: candidates.slice(0, MAX_CANDIDATES),
  };
  return result;
}

export function notFound(): StreetAnswer {
  return answer("not_found", null, 0);
}

/**
 * An answer's parcels as candidates at `confidence`: its top-level parcel (found again among the
 * street's rows, since answers carry no hidden state), else its own candidates.
 */
export function answerCandidates(result: StreetAnswer, rows: StreetRows, confidence: number): Candidate[] {
  const id = result.service_id;
  const top = id ? rows.all().find((hit) => idOf(hit) === id) : undefined;
  return top ? [candidateOf(top, confidence)] : result.candidates;
}

/** One hit per parcel, preferring its unitless entry (the parcel's own address). */
function byParcel(hits: Hit[]): Hit[] {
  if (hits.length < 2) return hits.slice();
  const parcels = new Map<string, Hit>();
  for (const hit of hits) {
    const id = keyOf(hit);
    const known = parcels.get(id);
    if (!known || (text(known, "occupancyId") !== "" && text(hit, "occupancyId") === ""))
      parcels.set(id, hit);
  }
  return [...parcels.values()];
}

function ambiguous(hits: Hit[], each = AMBIGUOUS_EACH): StreetAnswer {
  return answer(
    "ambiguous",
    null,
    0,
    byParcel(hits).map((hit) => candidateOf(hit, each)),
  );
}

/** An answer and the level it was reached at (`EXACT` … `NONE`), by which readings are ranked. */
export interface StreetMatch {
  answer: StreetAnswer;
  level: number;
}

/**
 * The answer for a street's rows. `singleZip` allows the unnumbered-parcel weak match of SPEC.md;
 * `guessedStreet` (a near miss, or a reading that guessed where a word belongs) refuses fits that
 * also need a suffix or directional corrected: two guesses at once are how a typo becomes a wrong
 * parcel.
 */
export function matchStreet(
  query: StreetQuery,
  street: StreetRows,
  singleZip: boolean,
  guessedStreet = query.guessed === true,
): StreetMatch {
  if (query.addressNumber === "") return noNumber(street);
  const atNumber = street.at(query.addressNumber);
  if (atNumber.length === 0) {
    const parcels = byParcel(street.at(""));
    return singleZip && parcels.length === 1
      ? { answer: answer("no_situs_parcel", parcels[0]!, WEAK), level: WEAK }
      : { answer: notFound(), level: NONE };
  }
  const best = bestFits(query, atNumber);
  if (guessedStreet && best.confidence === CORRECTED) return { answer: notFound(), level: NONE };
  const { fits } = best;
  const confidence = query.restoresWord ? CORRECTED : best.confidence;
  if (fits.length > 1 && new Set(fits.map(situsOf)).size > 1)
    return { answer: ambiguous(fits, confidence * AMBIGUOUS_EACH), level: confidence };
  // A unit the parcel does not list lowers the level too, so a reading that finds the unit's own
  // address (`800 5TH 1/2` read as street `5TH 1/2`) beats one that ignores the unit.
  const matched = matchSitus(query, fits, confidence);
  return {
    answer: matched,
    level: matched.service_id !== null ? Math.min(confidence, matched.matchConfidence) : confidence,
  };
}

/**
 * No house number (SPEC.md `no_situs_parcel`: "input had no house number and the answer is a parcel
 * on that street"): the street's only parcel at 0.3; on a street of several, its one parcel with no
 * number recorded, else the first, below that, with the street's parcels as candidates.
 */
function noNumber(street: StreetRows): StreetMatch {
  const parcels = byParcel(street.all());
  if (parcels.length === 0) return { answer: notFound(), level: NONE };
  if (parcels.length === 1) return { answer: answer("no_situs_parcel", parcels[0]!, WEAK), level: WEAK };
  const unnumbered = byParcel(street.at(""));
  const own = unnumbered.length === 1 ? keyOf(unnumbered[0]!) : undefined;
  const ordered =
    own === undefined ? parcels : [unnumbered[0]!, ...parcels.filter((hit) => keyOf(hit) !== own)];
  const candidates = ordered
    .slice(0, MAX_CANDIDATES)
    .map((hit) => candidateOf(hit, keyOf(hit) === own ? STREET_UNNUMBERED : STREET_PARCEL));
  return {
    answer: answer("no_situs_parcel", ordered[0]!, candidates[0]!.matchConfidence, candidates),
    level: WEAK,
  };
}

function situsOf(hit: Hit): string {
  return `${text(hit, "addressNumberSuffix")}|${text(hit, "predirectional")}|${text(hit, "streetSuffix")}|${text(hit, "postdirectional")}|${text(hit, "zip5")}`;
}

const RELAXABLE = ["streetSuffix", "predirectional", "postdirectional"] as const satisfies ReadonlyArray<
  keyof StreetQuery & TextField
>;
export type RelaxableField = (typeof RELAXABLE)[number];

/**
 * Rows at the number that fit the suffix and directionals: exactly, else with an omitted one filled
 * in, else (DECISIONS.md "Wrong suffix or directional") with the fewest given ones corrected. A
 * given number suffix, suffix or directional that a row records differently, or not at all, is a
 * correction (0.8): no answer that contradicts the input reaches 0.9.
 */
function bestFits(query: StreetQuery, rows: Hit[]): { fits: Hit[]; confidence: number } {
  const numberSuffixFits = rows.filter(
    (hit) => text(hit, "addressNumberSuffix") === query.addressNumberSuffix,
  );
  const pool = numberSuffixFits.length > 0 ? numberSuffixFits : rows;
  let best: Hit[] = [];
  let bestWrong = Infinity;
  let filled = false;
  for (const hit of pool) {
    let wrong = pool === rows ? 1 : 0;
    let omitted = false;
    for (const field of RELAXABLE) {
      const given = query[field];
      const recorded = text(hit, field);
      if (given === "" && !query.pinned?.includes(field)) omitted ||= recorded !== "";
      else if (given !== recorded) wrong++;
    }
    if (wrong < bestWrong) [best, bestWrong, filled] = [[hit], wrong, omitted];
    else if (wrong === bestWrong) {
      best.push(hit);
      filled ||= omitted;
    }
  }
  const confidence = bestWrong > 0 ? CORRECTED : filled ? FILLED_IN : EXACT;
  return { fits: best, confidence };
}

/** One situs: a plain parcel, one parcel with alias units, or a building of unit parcels. */
function matchSitus(query: StreetQuery, rows: Hit[], confidence: number): StreetAnswer {
  // One row of no building (most answers): matched, lower when it does not list the unit asked.
  const only = rows.length === 1 ? rows[0]! : undefined;
  if (only && only.chunk.buildingIdBytes(only.row) === null) {
    const listed = query.occupancyId === "" || text(only, "occupancyId") === query.occupancyId;
    return answer("matched", only, listed ? confidence : confidence * UNIT_NOT_FOUND);
  }
  const isBuilding = rows.some((hit) => hit.chunk.buildingIdBytes(hit.row) !== null);
  const own = byParcel(rows.filter((hit) => text(hit, "occupancyId") === ""));
  const unitRows = rows.filter((hit) => text(hit, "occupancyId") !== "");
  if (query.occupancyId !== "") {
    const named = byParcel(unitRows.filter((hit) => text(hit, "occupancyId") === query.occupancyId));
    if (named.length === 1) return answer("matched", named[0]!, confidence);
    if (named.length > 1) return ambiguous(named, confidence * AMBIGUOUS_EACH);
  }
  if (!isBuilding) {
    const parcels = byParcel(rows);
    if (parcels.length > 1) return ambiguous(parcels, confidence * AMBIGUOUS_EACH);
    return answer(
      "matched",
      parcels[0]!,
      query.occupancyId !== "" ? confidence * UNIT_NOT_FOUND : confidence,
    );
  }
  const ownKeys = new Set(own.map(keyOf));
  const unitParcels = byParcel(unitRows).filter((hit) => !ownKeys.has(keyOf(hit)));
  const units = unitParcels.map((hit) => candidateOf(hit, confidence * UNIT_NOT_FOUND));
  const unitFlags = { unit_required: true as const, unit_count: unitParcels.length };
  if (own.length === 1) {
    const status = query.occupancyId !== "" ? "matched_building" : "matched";
    const factor = query.occupancyId !== "" ? UNIT_NOT_FOUND : 1;
    return Object.assign(answer(status, own[0]!, confidence * factor, units), unitFlags);
  }
  // SPEC.md: building_id is set whenever the address has unit parcels, with or without a parcel.
  const building = buildingOf(rows.find((hit) => hit.chunk.buildingIdBytes(hit.row) !== null)!);
  if (own.length > 1)
    return Object.assign(ambiguous(own, confidence * AMBIGUOUS_EACH), { building_id: building });
  return Object.assign(answer("matched_building", null, 0, units), unitFlags, { building_id: building });
}
