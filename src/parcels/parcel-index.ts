import type { LocationAmbiguity, LookupAnswer, LookupRequest, ParcelRecord } from "./lookup-types.js";

/**
 * Where an index call's time went: `fetchMs` reading the index (chunks, the ID directory) and,
 * for lookups, `matchMs` matching the request against what was read. The HTTP edge writes them
 * into `Server-Timing` (src/http/index-phases.ts); the index knows nothing of HTTP.
 */
export interface IndexPhases {
  fetchMs: number;
  matchMs?: number;
}

/** An index answer with the time its phases took. */
export interface Timed<T> {
  result: T;
  phases: IndexPhases;
}

/**
 * What the lookup operations read. Implementations throw `IndexUnavailableError` when the index
 * cannot be read (store down, chunk missing or corrupt); the HTTP edge answers 503
 * `matchkey_unavailable` for it.
 */
export interface ParcelIndex {
  lookup(request: LookupRequest): Promise<Timed<LookupAnswer | LocationAmbiguity>>;
  /** The record of a canonical `adr_` ID, or undefined when no parcel ever had it. */
  findById(serviceId: string): Promise<Timed<ParcelRecord | undefined>>;
}

export class IndexUnavailableError extends Error {
  override name = "IndexUnavailableError";
}
