/** Lookup answers and parcel records of SPEC.md ("Lookup answer", "Candidate object", "Parcel record"). */
import { STRING_COMPONENTS, type StringComponent } from "../parse/parse-answer.js";

export const LOOKUP_STATUSES = [
  "matched",
  "matched_building",
  "ambiguous",
  "no_situs_parcel",
  "not_found",
] as const;
export type LookupStatus = (typeof LOOKUP_STATUSES)[number];

export const READ_PATHS = ["chunk", "fuzzy_chunk", "whole", "fuzzy", "none"] as const;
export type ReadPath = (typeof READ_PATHS)[number];

export interface Candidate {
  service_id: string | null;
  building_id: string | null;
  apn: string | null;
  fips: string | null;
  lat: number | null;
  lon: number | null;
  zip5: string | null;
  addressNumber: string | null;
  streetName: string | null;
  streetSuffix: string | null;
  occupancyId: string | null;
  matchConfidence: number;
  fuzzy?: true;
}

export interface LookupAnswer {
  status: LookupStatus;
  service_id: string | null;
  building_id: string | null;
  apn: string | null;
  fips: string | null;
  lat: number | null;
  lon: number | null;
  matchConfidence: number;
  unit_required?: true;
  unit_count?: number;
  candidates: Candidate[];
  fuzzy?: true;
  state_inferred?: string;
  searched: string[];
  readPath: ReadPath;
}

export interface ParcelRecord {
  status: "active" | "superseded";
  service_id: string;
  superseded_by: string[];
  building_id: string | null;
  apn: string | null;
  fips: string | null;
  lat: number | null;
  lon: number | null;
  addressNumber: string | null;
  addressNumberSuffix: string | null;
  predirectional: string | null;
  streetName: string | null;
  streetSuffix: string | null;
  postdirectional: string | null;
  occupancyId: string | null;
  city: string | null;
  state: string | null;
  zip5: string | null;
  zip4: string | null;
}

/**
 * The parse answer's components a lookup does not read: a PO box or rural route is not a parcel's
 * situs, and a firm, an urbanization or unplaced words are not matched against the index.
 */
const NOT_LOOKED_UP = [
  "poBoxType",
  "poBoxId",
  "ruralRouteType",
  "ruralRouteId",
  "firm",
  "urbanization",
  "other",
] as const satisfies readonly StringComponent[];
export type LookupComponent = Exclude<StringComponent, (typeof NOT_LOOKED_UP)[number]>;

/**
 * Components a lookup reads, as sent (strings; numbers already turned into strings): the parse
 * answer's, in its order, less NOT_LOOKED_UP. The index stores them in this order (TEXT_FIELDS).
 */
export const LOOKUP_COMPONENTS: readonly LookupComponent[] = STRING_COMPONENTS.filter(
  (name): name is LookupComponent => !(NOT_LOOKED_UP as readonly string[]).includes(name),
);

/** A validated lookup request: streetName present, and zip5 or city present. */
export type LookupRequest = { [K in LookupComponent]?: string } & { streetName: string };

/** A lookup the index refuses: the city exists in several states and no state was sent. */
export interface LocationAmbiguity {
  error: "location_required";
  states: number;
}

export function notFoundAnswer(searched: string[] = [], readPath: ReadPath = "none"): LookupAnswer {
  return {
    status: "not_found",
    service_id: null,
    building_id: null,
    apn: null,
    fips: null,
    lat: null,
    lon: null,
    matchConfidence: 0,
    candidates: [],
    searched,
    readPath,
  };
}
