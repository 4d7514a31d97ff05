import type { IndexPhases } from "../parcels/parcel-index.js";
import type { ServerTiming } from "../runtime/timing.js";

/**
 * An index call's phases as `Server-Timing` metrics (SPEC.md "Response headers"): `r2fetch` for
 * reading the index, `match` for matching (lookups).
 */
export function addIndexPhases(timing: ServerTiming, phases: IndexPhases): void {
  timing.add("r2fetch", phases.fetchMs);
  if (phases.matchMs !== undefined) timing.add("match", phases.matchMs);
}
