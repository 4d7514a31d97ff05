import type { LookupAnswer, ParcelRecord } from "./lookup-types.js";
import { notFoundAnswer } from "./lookup-types.js";
import type { ParcelIndex, Timed } from "./parcel-index.js";

/** An index with no parcels: every lookup is `not_found` with nothing read. */
export class EmptyParcelIndex implements ParcelIndex {
  async lookup(): Promise<Timed<LookupAnswer>> {
    return { result: notFoundAnswer(), phases: { fetchMs: 0, matchMs: 0 } };
  }

  async findById(): Promise<Timed<ParcelRecord | undefined>> {
    return { result: undefined, phases: { fetchMs: 0 } };
  }
}
