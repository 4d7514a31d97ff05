import type { LookupAnswer, ParcelRecord } from "./lookup-types.js";
import { notFoundAnswer } from "./lookup-types.js";
import type { ParcelIndex } from "./parcel-index.js";
import type { ServerTiming } from "../runtime/timing.js";

/** An index with no parcels: every lookup is `not_found` with nothing read. */
export class EmptyParcelIndex implements ParcelIndex {
  async lookup(_request: unknown, timing: ServerTiming): Promise<LookupAnswer> {
    timing.add("r2fetch", 0);
    timing.add("match", 0);
    return notFoundAnswer();
  }

  async findById(_id: string, timing: ServerTiming): Promise<ParcelRecord | undefined> {
    timing.add("r2fetch", 0);
    return undefined;
  }
}
