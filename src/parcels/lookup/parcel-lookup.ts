import { stateHighwayName } from "../../parse/vocabulary/highway.js";
import type { ChunkStreet, DecodedChunk } from "../format/chunk-format.js";
import { houseNumberKey } from "../format/chunk-format.js";
import { LOCAL_TYPES } from "../county-spellings.js";
import type { Gazetteer } from "../../places/gazetteer.js";
import type { IndexBuild } from "../store/index-build.js";
import { baseKey } from "../format/manifest.js";
import type { LocationAmbiguity, LookupAnswer, LookupRequest, ReadPath } from "../lookup-types.js";
import { notFoundAnswer } from "../lookup-types.js";
import type { Hit, StreetAnswer, StreetRows } from "./match-ladder.js";
import { answerCandidates, CORRECTED, EXACT, matchStreet, notFound } from "./match-ladder.js";
import {
  cleanText,
  normalizeDirectional,
  normalizeState,
  normalizeStreetName,
  normalizeSuffix,
  normalizeUnitId,
  normalizeUnitType,
  normalizeZip,
  numberSuffixOf,
  splitNumber,
  splitNumberSuffix,
  unitOf,
} from "../normalize.js";
import { chooseNearMiss } from "./near-miss-choice.js";
import type { Reading, StreetNames } from "./query-readings.js";
import { hasWordReadings, localTypeNames, suffixReadings, wordReadings } from "./query-readings.js";
import type { ReadingMatch } from "./reading-choice.js";
import { chooseReading } from "./reading-choice.js";
import type { NearStreet } from "./street-matcher.js";
import { StreetMatcher } from "./street-matcher.js";

/**
 * Lookup by address (SPEC.md "POST /v1/verify/lookup"): where to search (ZIP, or the city's ZIPs
 * from the gazetteer), then the matching ladder: exact street in the ZIP's chunk (`chunk`), near-miss
 * street there (`fuzzy_chunk`), then the same across every ZIP of the city (`whole`, `fuzzy`).
 */
export interface LookupQuery extends Reading {
  zip5: string;
  city: string;
  state: string;
  zipValid: boolean;
}

/** Normalizes a request with the code ingest uses, so both meet in one spelling. */
export function normalizeQuery(request: LookupRequest): LookupQuery {
  const number = splitNumber(request.addressNumber ?? "");
  const numberSuffix = splitNumberSuffix(request.addressNumberSuffix ?? "");
  const unitId = normalizeUnitId(request.occupancyId ?? "");
  const zip = normalizeZip(request.zip5 ?? "");
  return {
    addressNumber: number.addressNumber,
    addressNumberSuffix: numberSuffixOf(number, numberSuffix),
    predirectional: normalizeDirectional(request.predirectional ?? ""),
    streetName: stateHighwayName(
      normalizeStreetName(request.streetName),
      normalizeState(request.state ?? ""),
    ),
    streetSuffix: normalizeSuffix(request.streetSuffix ?? ""),
    postdirectional: normalizeDirectional(request.postdirectional ?? ""),
    occupancyId: unitOf(normalizeUnitType(request.occupancyType ?? ""), unitId, number, numberSuffix),
    zip5: zip?.zip5 ?? "",
    zipValid: zip !== undefined && (request.zip5 === undefined || zip.zip5 !== ""),
    city: cleanText(request.city ?? ""),
    state: normalizeState(request.state ?? ""),
  };
}

/** Fuzzy answers rank below every exact one (DECISIONS.md "Fuzzy"): scaled by this, less per edit. */
const FUZZY_FACTOR = 0.7;
const FUZZY_PER_EDIT = 0.1;
/** Deletion indexes of whole cities (and ZIPs in parts) kept, each built on its first near-miss lookup. */
const CITY_MATCHERS = 256;

interface Place {
  chunks: number[];
  singleZip: boolean;
  stateInferred?: string;
}

export class ParcelLookup {
  private readonly localTypeMaps = new WeakMap<DecodedChunk, Map<string, string[]>>();
  private readonly matchers = new WeakMap<DecodedChunk, StreetMatcher>();
  private readonly cityMatchers = new Map<string, StreetMatcher>();

  constructor(private readonly gazetteer: Gazetteer) {}

  async lookup(
    build: IndexBuild,
    request: LookupRequest,
    fetchMs: { value: number },
  ): Promise<LookupAnswer | LocationAmbiguity> {
    const query = normalizeQuery(request);
    const place = await this.locate(build, query);
    if ("error" in place) return place;
    if (place.chunks.length === 0) return withPlace(notFoundAnswer(), place);
    // A large ZIP's parts (chunk-parts.ts): the street dictionary says which hold the query's
    // streets, so a lookup reads those, as one chunk of the whole ZIP would answer.
    const parts = place.singleZip && place.chunks.length > 1 ? place.chunks : undefined;
    if (parts) place.chunks = await this.readingChunks(build, query, parts);
    else if (!place.singleZip) place.chunks = await this.cityChunks(build, query, place.chunks);
    const chunks = await this.load(build, place.chunks, fetchMs);
    // One ZIP's chunk is the query's own ZIP: no read of the manifest's entry (a cache miss).
    const searched = place.singleZip
      ? [`zip:${query.zip5}`]
      : [...new Set(place.chunks.map((index) => `zip:${baseKey(build.manifest.chunks[index]?.key ?? "")}`))];
    const exact = this.exact(query, chunks, place.singleZip);
    const fuzzy = exact?.settled
      ? undefined
      : this.fuzzy(
          query,
          parts ? await this.load(build, await this.nearChunks(build, query, parts), fetchMs) : chunks,
          place.singleZip,
        );
    // A near miss answers unless it found nothing where a reading's street gave a weak answer.
    const near =
      fuzzy !== undefined && (fuzzy.status !== "not_found" || exact === undefined) ? fuzzy : undefined;
    const readPath: ReadPath = near
      ? place.singleZip
        ? "fuzzy_chunk"
        : "fuzzy"
      : place.singleZip
        ? "chunk"
        : "whole";
    // Answers are fresh objects: diagnostics are added in place (spreading them is costly per lookup).
    const answer: LookupAnswer = Object.assign(near ?? exact!.answer, { searched, readPath });
    return withPlace(answer, place);
  }

  /** Chunks by manifest position, from the cache without a trip through the event loop when all are there. */
  private async load(
    build: IndexBuild,
    indexes: number[],
    fetchMs: { value: number },
  ): Promise<DecodedChunk[]> {
    const started = process.hrtime.bigint();
    const cached = indexes.map((index) => build.cachedChunk(index));
    const chunks = cached.every((chunk) => chunk !== undefined)
      ? cached
      : await Promise.all(indexes.map((index) => build.chunk(index)));
    fetchMs.value += Number(process.hrtime.bigint() - started) / 1e6;
    return chunks;
  }

  /**
   * The chunks of a city worth reading, from the build's street dictionary: those that have the
   * street under any reading of the query, else those that have a near miss of it (so `searched`
   * names what was read).
   */
  private async cityChunks(build: IndexBuild, query: LookupQuery, chunks: number[]): Promise<number[]> {
    const exact = await this.readingChunks(build, query, chunks);
    return exact.length > 0 ? exact : this.nearChunks(build, query, chunks);
  }

  /** The chunks that have the query's street under any of its readings (query-readings.ts). */
  private async readingChunks(build: IndexBuild, query: LookupQuery, chunks: number[]): Promise<number[]> {
    const dictionary = await build.streets();
    const exact = new Set<number>();
    const has = (name: string): boolean => {
      const having = chunks.filter((chunk) => dictionary.has(chunk, name));
      for (const chunk of having) exact.add(chunk);
      return having.length > 0;
    };
    const names: StreetNames = {
      has,
      withLocalType: (prefix) => LOCAL_TYPES.map((type) => `${prefix} ${type}`).filter(has),
    };
    has(query.streetName);
    wordReadings(query, names);
    suffixReadings(query, names);
    return chunks.filter((chunk) => exact.has(chunk));
  }

  /**
   * The chunks that have a near miss of the query's street (street-matcher.ts): every street
   * within MAX_EDITS is in one of them, so the near-miss search over these finds what it would
   * over all.
   */
  private async nearChunks(build: IndexBuild, query: LookupQuery, chunks: number[]): Promise<number[]> {
    const dictionary = await build.streets();
    const key = `${build.buildId}|${chunks.join(",")}`;
    let matcher = this.cityMatchers.get(key);
    if (!matcher) {
      if (this.cityMatchers.size >= CITY_MATCHERS) this.cityMatchers.clear();
      matcher = new StreetMatcher([...new Set(chunks.flatMap((chunk) => dictionary.streetsOf(chunk)))]);
      this.cityMatchers.set(key, matcher);
    }
    const near = matcher.near(query.streetName).map((street) => street.name);
    return chunks.filter((chunk) => near.some((street) => dictionary.has(chunk, street)));
  }

  /**
   * The chunks to search: the ZIP's, or (DECISIONS.md "Places") the city's ZIPs that have one,
   * and the chunks where the index has parcels recorded in that city (a community the gazetteer
   * does not name, or parcels without a ZIP).
   */
  private async locate(build: IndexBuild, query: LookupQuery): Promise<Place | LocationAmbiguity> {
    if (query.zip5 !== "" || !query.zipValid) {
      return { chunks: query.zipValid ? build.chunksOf(query.zip5) : [], singleZip: true };
    }
    const recorded = await build.places();
    const states = [
      ...new Set([...this.gazetteer.statesOf(query.city), ...recorded.statesOf(query.city)]),
    ].sort();
    let state = query.state;
    let stateInferred: string | undefined;
    if (state === "") {
      if (states.length > 1) return { error: "location_required", states: states.length };
      state = stateInferred = states[0] ?? "";
    }
    const zips = state === "" ? [] : this.gazetteer.zipsOf(query.city, state);
    const chunks = [
      ...new Set([...zips.flatMap((zip) => build.chunksOf(zip)), ...recorded.chunksOf(query.city, state)]),
    ].sort((a, b) => a - b);
    return { chunks, singleZip: false, ...(stateInferred ? { stateInferred } : {}) };
  }

  /** The street's rows in every chunk that has it, or undefined when none has. */
  private street(chunks: DecodedChunk[], name: string): StreetRows | undefined {
    const ranges: Array<[DecodedChunk, ChunkStreet]> = [];
    for (const chunk of chunks) {
      const street = chunk.street(name);
      if (street) ranges.push([chunk, street]);
    }
    return ranges.length > 0 ? new ChunkStreetRows(ranges) : undefined;
  }

  /**
   * The exact ladder over the readings of the query (query-readings.ts): the query as given, the
   * readings of words it has, and when none of those fits exactly the readings that move its
   * suffix; reading-choice.ts picks the answer. It is `settled` when the street as given is in the
   * chunks or a reading fits at the number; otherwise the near-miss search runs first (a reading's
   * street that merely exists does not hide a near miss of the street as given). Undefined when no
   * reading's street is in the chunks. A plain query that fits is one street lookup.
   */
  private exact(
    query: LookupQuery,
    chunks: DecodedChunk[],
    singleZip: boolean,
  ): { answer: StreetAnswer; settled: boolean } | undefined {
    const street = this.street(chunks, query.streetName);
    const first = street ? matchStreet(query, street, singleZip) : undefined;
    if (first?.level === EXACT && !hasWordReadings(query)) return { answer: first.answer, settled: true };
    const names = this.streetNames(chunks);
    const matches: ReadingMatch[] = first && street ? [{ ...first, rows: street }] : [];
    const run = (readings: readonly Reading[]): void => {
      for (const reading of readings) {
        const rows = this.street(chunks, reading.streetName)!;
        matches.push({ ...matchStreet(reading, rows, singleZip), rows });
      }
    };
    run(wordReadings(query, names));
    if (!matches.some((match) => match.level === EXACT)) run(suffixReadings(query, names));
    if (matches.length === 0) return undefined;
    const answer = matches.length === 1 ? matches[0]!.answer : chooseReading(matches);
    return { answer, settled: street !== undefined || matches.some((match) => match.level >= CORRECTED) };
  }

  /**
   * Near-miss street names (street-matcher.ts): every near street with a fit at the number is a
   * contender, and near-miss-choice.ts decides which answers, so a typo that two streets explain
   * about equally is `ambiguous`, never `matched` (DECISIONS.md "Fuzzy").
   */
  private fuzzy(
    query: LookupQuery,
    chunks: DecodedChunk[],
    singleZip: boolean,
  ): StreetAnswer & { fuzzy?: true } {
    const near = new Map<string, NearStreet>();
    for (const chunk of chunks) {
      for (const street of this.matcher(chunk).near(query.streetName)) {
        const known = near.get(street.name);
        if (!known || street.distance < known.distance) near.set(street.name, street);
      }
    }
    const fits = [...near.values()]
      .map((street) => {
        const rows = this.street(chunks, street.name)!;
        return { street, rows, answer: matchStreet(query, rows, singleZip, true).answer };
      })
      .filter((result) => result.answer.status !== "not_found");
    const choice = chooseNearMiss(query.streetName, fits);
    if (choice.kind === "none") return notFound();
    const factor = FUZZY_FACTOR - FUZZY_PER_EDIT * (choice.edits - 1);
    if (choice.kind === "matched") return scaled(choice.answer.answer, factor);
    const candidates = choice.contenders
      .flatMap((result) => answerCandidates(result.answer, result.rows, result.answer.matchConfidence))
      .map((candidate) => ({
        ...candidate,
        matchConfidence: candidate.matchConfidence * factor,
        fuzzy: true as const,
      }));
    return { ...notFound(), status: "ambiguous", candidates: candidates.slice(0, 10), fuzzy: true };
  }

  /** The street names of the chunks, as the readings ask for them (query-readings.ts). */
  private streetNames(chunks: DecodedChunk[]): StreetNames {
    return {
      has: (name) => chunks.some((chunk) => chunk.street(name) !== undefined),
      withLocalType: (prefix) => {
        const found = chunks.flatMap((chunk) => this.localTypeMap(chunk).get(prefix) ?? []);
        return found.length > 1 ? [...new Set(found)] : found;
      },
    };
  }

  /** A chunk's street names that end in a local type word, by the words before it. */
  private localTypeMap(chunk: DecodedChunk): Map<string, string[]> {
    let map = this.localTypeMaps.get(chunk);
    if (!map) {
      map = localTypeNames(chunk.streets().map((street) => street.name));
      this.localTypeMaps.set(chunk, map);
    }
    return map;
  }

  private matcher(chunk: DecodedChunk): StreetMatcher {
    let matcher = this.matchers.get(chunk);
    if (!matcher) {
      matcher = new StreetMatcher(chunk.streets().map((street) => street.name));
      this.matchers.set(chunk, matcher);
    }
    return matcher;
  }
}

function scaled(answer: StreetAnswer, factor: number): StreetAnswer & { fuzzy: true } {
  return {
    ...answer,
    matchConfidence: answer.matchConfidence * factor,
    candidates: answer.candidates.map((c) => ({
      ...c,
      matchConfidence: c.matchConfidence * factor,
      fuzzy: true as const,
    })),
    fuzzy: true,
  };
}

function withPlace(answer: LookupAnswer, place: Place): LookupAnswer {
  if (place.stateInferred) answer.state_inferred = place.stateInferred;
  return answer;
}

/**
 * A street's rows by binary search: within a street, chunk rows are sorted by house number
 * (`numberOrder`, entry-order.ts), so the rows at one number are one contiguous run.
 */
class ChunkStreetRows implements StreetRows {
  constructor(private readonly ranges: Array<[DecodedChunk, ChunkStreet]>) {}

  at(addressNumber: string): Hit[] {
    const hits: Hit[] = [];
    const wanted = houseNumberKey(addressNumber);
    for (const [chunk, street] of this.ranges) {
      // Lower bound of the number, then the rows of that number whose text is the one asked.
      const numbers = chunk.houseNumbers(street);
      const end = street.first + street.count;
      let low = street.first;
      let high = end;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (numbers[middle]! < wanted) low = middle + 1;
        else high = middle;
      }
      for (let row = low; row < end && numbers[row] === wanted; row++) {
        if (chunk.text(row, "addressNumber") === addressNumber && chunk.status(row) === "active")
          hits.push({ chunk, row });
      }
    }
    return hits;
  }

  all(): Hit[] {
    const hits: Hit[] = [];
    for (const [chunk, { first, count }] of this.ranges) {
      for (let row = first; row < first + count; row++)
        if (chunk.status(row) === "active") hits.push({ chunk, row });
    }
    return hits;
  }
}
