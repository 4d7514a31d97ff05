import type { ServerTiming } from "../runtime/timing.js";
import type { LocationAmbiguity, LookupAnswer, LookupRequest, ParcelRecord } from "./lookup-types.js";

/**
 * What the lookup operations read. Implementations throw `IndexUnavailableError` when the index
 * cannot be read (store down, chunk missing or corrupt); the HTTP edge answers 503
 * `matchkey_unavailable` for it. They add `r2fetch` (index fetch) and `match` to `timing`.
 */
export interface ParcelIndex {
  lookup(request: LookupRequest, timing: ServerTiming): Promise<LookupAnswer | LocationAmbiguity>;
  /** The record of a canonical `adr_` ID, or undefined when no parcel ever had it. */
  findById(serviceId: string, timing: ServerTiming): Promise<ParcelRecord | undefined>;
}

export class IndexUnavailableError extends Error {
  override name = "IndexUnavailableError";
}
