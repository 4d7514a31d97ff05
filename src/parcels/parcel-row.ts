import { LOOKUP_COMPONENTS } from "./lookup-types.js";

/**
 * One address entry of a parcel as the index stores it: every text field normalized (normalize.ts),
 * `""` for a value the source did not have. A parcel is identified by (fips, apn) (DECISIONS.md
 * "Identity"); a parcel with several situs addresses has one entry per address.
 */
export const TEXT_FIELDS = ["apn", "fips", ...LOOKUP_COMPONENTS] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type AddressEntry = Record<TextField, string> & { lat: number | null; lon: number | null };

/**
 * Status of a stored parcel. `retired` is a parcel that disappeared with no successor: it keeps
 * answering lookup by ID as last known (DECISIONS.md "Identity"), reported as `active` because
 * SPEC.md has no other state, but it is no longer matched by address.
 */
export const PARCEL_STATUSES = ["active", "superseded", "retired"] as const;
export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/** An address entry as a chunk stores it: the parcel's ID, building, status and lineage. */
export interface StoredEntry extends AddressEntry {
  id: Uint8Array;
  buildingId: Uint8Array | null;
  status: ParcelStatus;
  /** A further situs address of a parcel whose record is another entry. */
  alias: boolean;
  supersededBy: Uint8Array[];
}

/**
 * An entry read from an input file, with the lineage column and where it came from. It carries the
 * stored fields from the start (filled in by identity.ts) so that millions of rows are not copied.
 */
export interface IngestRow extends StoredEntry {
  parentApns: string[];
  file: string;
  line: number;
}

/** The situs without the unit: what parcels of one building share (DECISIONS.md "Buildings"). */
export function situsKey(e: AddressEntry): string {
  return `${e.zip5}|${e.addressNumber}|${e.addressNumberSuffix}|${e.predirectional}|${e.streetName}|${e.streetSuffix}|${e.postdirectional}`;
}

/** The full address of an entry, unit included: what an inferred split or merge is matched on. */
export function addressKey(entry: AddressEntry): string {
  return `${situsKey(entry)}|${entry.occupancyId}`;
}

export function hasAddress(entry: AddressEntry): boolean {
  return entry.streetName !== "";
}

/**
 * The key an APN is identified by: its letters and digits, uppercase. A county that writes
 * `54-37` in one release and `54_37` or `54 37` in the next keeps its parcels' IDs; the APN
 * itself is stored and answered exactly as the latest file wrote it.
 */
export function apnKey(apn: string): string {
  // A loop over ASCII (APNs are digits, capitals and punctuation), not a regular expression per row.
  let key = "";
  let kept = 0;
  for (let i = 0; i < apn.length; i++) {
    const code = apn.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90)) {
      kept++;
      continue;
    }
    if (code > 127 || (code >= 97 && code <= 122)) return apnKeyOfText(apn);
    if (kept > 0) key += apn.slice(i - kept, i);
    kept = 0;
  }
  if (key === "" && kept === apn.length) return apn;
  key += apn.slice(apn.length - kept);
  return key === "" ? apn : key;
}

function apnKeyOfText(apn: string): string {
  const key = apn.toUpperCase().replace(/[^\p{L}\p{N}]+/gu, "");
  return key === "" ? apn : key;
}

/**
 * Two APNs of one county that differ as written but share an `apnKey` in one file (`12-3` and
 * `1-23`) are different parcels: each is then identified by its key and its exact spelling,
 * joined by this separator, never merged.
 */
export const EXACT_APN = "\u0000";

/**
 * The identity key of a parcel: (fips, apnKey(apn)). Address-point data without APNs (OpenAddresses,
 * Utah address points) is identified by its address instead, so its IDs are stable as long as
 * the address is; its `apn` is answered as null.
 */
export function identityKey(entry: AddressEntry): string {
  return entry.apn !== "" ? `${entry.fips}\t${apnKey(entry.apn)}` : `${entry.fips}\t~${addressKey(entry)}`;
}

const NO_ID = new Uint8Array(16);
/** Shared by every row that has no lineage (most): code replaces these arrays, never pushes to them. */
const NONE = Object.freeze([]) as unknown as never[];

/** A row with every field empty: one literal, so all rows share one hidden class (fast access). */
export function emptyIngestRow(file: string, line: number): IngestRow {
  return {
    apn: "",
    fips: "",
    addressNumber: "",
    addressNumberSuffix: "",
    predirectional: "",
    streetName: "",
    streetSuffix: "",
    postdirectional: "",
    occupancyType: "",
    occupancyId: "",
    city: "",
    state: "",
    zip5: "",
    zip4: "",
    lat: null,
    lon: null,
    id: NO_ID,
    buildingId: null,
    status: "active",
    alias: false,
    supersededBy: NONE,
    parentApns: NONE,
    file,
    line,
  };
}
