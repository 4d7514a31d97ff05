import { nationalGazetteer } from "../../places/gazetteer.js";
import { stateFipsOf } from "../../places/state-fips.js";
import type { ColumnMapping, MappedField } from "./column-mapping.js";
import type { TextField } from "../parcel-row.js";
import type { SourceProfile } from "../sources/source-profile.js";

/** A mapping guessed from a file's field names and values, with what a person must still decide. */
export interface MappingSuggestion {
  mapping: ColumnMapping;
  notes: string[];
}

/**
 * Field names that hold each parcel field, as regular expressions over the name in lower case
 * without punctuation (`PARCEL_ID_` → `parcelid`), best first. Sources: the six county GIS files
 * of ../shared/data/parcels/gis (San Francisco EAS, Yuba, Saline, Davis, Pierce, Bucks), the
 * OpenAddresses schema, and names common in county parcel exports (`SITUS_ADDR`, `ZIPCODE`).
 */
const NAMES: Array<[MappedField, RegExp[]]> = [
  [
    "apn",
    [
      /^(apn|apnnumber|parcelid|parcelno|parcelnum|parcelnumb|parcelnumber|pin|blklot|blocklot|origparce|origparcel|parcel)$/,
      /^id$/,
    ],
  ],
  ["fips", [/^(countyfips|fips|fipscode|cntyfips|stcofips|countyfp|geoid|fipsnr)$/]],
  [
    "addressNumber",
    [
      /^(addrnum|addressnumber|addrno|housenumber|housenum|houseno|hnum|stnum|streetnumber|situsnum|situshouseno|phrdnum|rdnum|addnum|number|num)$/,
    ],
  ],
  [
    "addressNumberSuffix",
    [
      /^(addrnsfx|addrnumsfx|addrnumsuffix|hnums|hnumsfx|housenumsuffix|housesuffix|numsuffix|numbersuffix|stnumsfx|addnumsuf|fraction)$/,
    ],
  ],
  [
    "predirectional",
    [/^(predir|pdir|phpredir|predirection|predirectional|dirpre|prefixdir|stpredir|situspredir|dir)$/],
  ],
  [
    "streetName",
    [/^(streetname|stname|sname|strname|phrdnam|rdnam|rdname|roadname|stnm|situsstreet|street)$/],
  ],
  [
    "streetSuffix",
    [/^(sttype|streettype|suffix|stsuffix|sfx|stsfx|phrdtyp|rdtyp|rdtype|roadtype|sttyp|streetsuffix)$/],
  ],
  [
    "postdirectional",
    [/^(postdir|sufdir|suffixdir|sfxdir|dirsuf|dirpost|postdirection|postdirectional|phsufdir|stsufdir)$/],
  ],
  ["occupancyType", [/^(unittype|unitdesig|unitdesignator|occupancytype|subaddrtype|subaddtype)$/]],
  [
    "occupancyId",
    [
      /^(unit|unitnum|unitno|unitnumber|unitid|apt|aptno|apartment|suite|subaddres|subaddress|subaddr|occupancyid)$/,
    ],
  ],
  [
    "city",
    [
      /^(city|cityname|community|comm|municipality|town|placename|situscity|sitecity|phctynm|ctynm|postalcity)$/,
    ],
  ],
  ["state", [/^(state|st|stateabbr|statecode|stabbr|region|phstnm|situsstate|sitestate)$/]],
  ["zip5", [/^(zip|zip5|zipcode|postcode|postalcode|phzip|situszip|sitezip|szip|zipcd)$/]],
  ["zip4", [/^(zip4|plus4|zipplus4)$/]],
  [
    "address",
    [
      /^(address|addr|situsaddr|situsaddress|siteaddr|siteaddress|fulladdress|fulladdr|phadd|propaddr|propertyaddress|situs)$/,
    ],
  ],
  ["lat", [/^(lat|latitude|y|ycoord|pointy)$/]],
  ["lon", [/^(lon|long|lng|longitude|x|xcoord|pointx)$/]],
  ["parentApns", [/^(parentapns|parentapn)$/]],
];

/** Values a field must mostly have (of its non-blank values in the rows read) to hold a parcel field. */
const VALUES: Partial<Record<MappedField, RegExp>> = {
  fips: /^\d{5}$/,
  zip5: /^\d{3,5}(-?\d{4})?$/,
  state: /^[A-Za-z]{2}$|^[A-Za-z][A-Za-z .]{3,}$/,
  city: /[A-Za-z]/,
  lat: /^-?\d{1,2}(\.\d+)?$/,
  lon: /^-?\d{1,3}(\.\d+)?$/,
};

/** Normalized field name: lower case, letters and digits only. */
function key(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * A mapping for a profiled file, from its field names and values: each parcel field gets the
 * best-named field whose values fit, each file field is used once. Geometry formats take
 * coordinates from the geometry. A street with its type in one field (no street-type field) is
 * `street`; a whole-address field is used only when no number and street fields exist; of two
 * APN fields where one is the other with a prefix (Pierce's `PARCEL_ID_` `053-3537000140` beside
 * `ORIG_PARCE` `3537000140`), the bare one; of two city fields, the one with full names (Yuba's
 * `Community` over `COMM`); a field of numbers is not a city (Bucks' municipality codes).
 */
export function suggestMapping(profile: SourceProfile): MappingSuggestion {
  const chosen = new Map<MappedField, string>();
  const used = new Set<string>();
  const columnValues = (index: number): string[] =>
    profile.rows.map((row) => row[index] ?? "").filter((value) => value.trim() !== "");
  const fits = (field: MappedField, index: number): boolean => {
    const pattern = VALUES[field];
    const values = columnValues(index);
    if (!pattern || values.length === 0) return true;
    if (field === "city" && values.every((v) => /^\d+$/.test(v.trim()))) return false;
    return values.filter((v) => pattern.test(v.trim())).length >= 0.9 * values.length;
  };
  for (const [field, patterns] of NAMES) {
    if ((field === "lat" || field === "lon") && profile.hasGeometry) continue;
    for (const pattern of patterns) {
      const candidates = profile.fields
        .map((f, index) => ({ ...f, index }))
        .filter((f) => !used.has(f.name) && pattern.test(key(f.name)) && fits(field, f.index));
      const best = pick(field, candidates, profile);
      if (best !== undefined) {
        chosen.set(field, best);
        used.add(best);
        break;
      }
    }
  }
  return settle(chosen, profile);
}

type Candidate = SourceProfile["fields"][number] & { index: number };

/** The best of several fields named alike. */
function pick(field: MappedField, candidates: Candidate[], profile: SourceProfile): string | undefined {
  if (candidates.length <= 1) return candidates[0]?.name;
  let pool = candidates;
  if (field === "apn")
    pool = pool.filter((c) => !pool.some((other) => other !== c && prefixed(profile, c, other)));
  const score = (c: Candidate): number =>
    (field === "city" ? averageLength(profile, c.index) : 0) * 1e6 + c.filled;
  return [...pool].sort((a, b) => score(b) - score(a))[0]?.name;
}

/** True when `long`'s values are `short`'s with something in front, in most rows where both are set. */
function prefixed(profile: SourceProfile, long: Candidate, short: Candidate): boolean {
  let both = 0;
  let ends = 0;
  for (const row of profile.rows) {
    const a = row[long.index]?.trim() ?? "";
    const b = row[short.index]?.trim() ?? "";
    if (a === "" || b === "") continue;
    both++;
    if (a.length > b.length && a.endsWith(b)) ends++;
  }
  return both > 0 && ends >= 0.9 * both;
}

function averageLength(profile: SourceProfile, index: number): number {
  const values = profile.rows.map((row) => row[index]?.trim() ?? "").filter((v) => v !== "");
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v.length, 0) / values.length;
}

/** The mapping from the chosen fields, and what is left for a person. */
function settle(chosen: Map<MappedField, string>, profile: SourceProfile): MappingSuggestion {
  const notes: string[] = [];
  const columns: Partial<Record<MappedField, string>> = {};
  const streetName = chosen.get("streetName");
  if (streetName !== undefined && !chosen.has("streetSuffix")) {
    chosen.delete("streetName");
    chosen.set("street", streetName);
  }
  const split = chosen.has("addressNumber") || chosen.has("streetName") || chosen.has("street");
  if (split) chosen.delete("address");
  for (const [field] of NAMES) {
    // in NAMES order, with `street` where the street name would be
    const street = field === "streetName" ? chosen.get("street") : undefined;
    if (street !== undefined) columns.street = street;
    const column = chosen.get(field);
    if (column !== undefined) columns[field] = column;
  }
  const constants = suggestConstants(chosen, profile, notes);
  if (!chosen.has("fips") && constants.fips === undefined)
    notes.push("no 5-digit county FIPS field: give --fips or constants.fips (a single-county file)");
  if (!chosen.has("apn")) notes.push("no APN field: parcels are identified by their address");
  if (!split && !chosen.has("address")) notes.push("no address fields found: name them in columns");
  if (!profile.hasGeometry && !(chosen.has("lat") && chosen.has("lon"))) notes.push("no coordinates found");
  if (!chosen.has("state") && constants.state === undefined)
    notes.push("no state field: constants.state helps place names and ZIPs");
  return { mapping: { columns, ...(Object.keys(constants).length > 0 ? { constants } : {}) }, notes };
}

/**
 * Constants a single-county file implies: its state from where its points lie (the state of the
 * ZIP nearest most of them), and its county FIPS from a field holding one 3-digit county code
 * (Pierce's `FIPS_NR` `053` in Washington is 53053). Each is noted, for a person to check.
 */
function suggestConstants(
  chosen: Map<MappedField, string>,
  profile: SourceProfile,
  notes: string[],
): Partial<Record<TextField, string>> {
  const constants: Partial<Record<TextField, string>> = {};
  const gazetteer = nationalGazetteer();
  // A state field left empty (OpenAddresses' `region` often is) says nothing.
  const stateField = profile.fields.find((f) => f.name === chosen.get("state"));
  if ((stateField?.filled ?? 0) === 0 && profile.points.length > 0) {
    const states = new Map<string, number>();
    for (const point of profile.points) {
      const state = gazetteer.nearestZip(point.lat, point.lon)?.state;
      if (state) states.set(state, (states.get(state) ?? 0) + 1);
    }
    const [state, count = 0] = [...states].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (state && count >= 0.9 * profile.points.length) {
      constants.state = state;
      notes.push(`constants.state ${state}: where the file's points lie`);
    }
  }
  const countyField = profile.fields.find(
    (f) =>
      f.distinct === 1 && /^\d{3}$/.test(f.samples[0] ?? "") && /FIPS|COUNTY|CNTY|CO_?CODE/i.test(f.name),
  );
  const stateFips = constants.state ? stateFipsOf(constants.state) : "";
  if (!chosen.has("fips") && countyField && stateFips) {
    constants.fips = `${stateFips}${countyField.samples[0]}`;
    notes.push(
      `constants.fips ${constants.fips}: county ${countyField.samples[0]} of ${constants.state} (${countyField.name})`,
    );
  }
  return constants;
}
