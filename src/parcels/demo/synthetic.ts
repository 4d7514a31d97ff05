import { stateFipsOf } from "../../places/state-fips.js";
import type { Place } from "../../places/gazetteer.js";
import { numberedOrdinal } from "../lookup/ordinal-name.js";

/**
 * Deterministic synthetic parcels for the demo index and the benchmarks: real ZIPs and cities
 * (from the gazetteer), invented streets and parcels. Every ZIP holds the cases lookups must
 * handle: condo buildings (own parcel and unit parcels), unit-only buildings, parcels without a
 * situs address, one number and street with two suffixes, near-identical street names. Version 2
 * of the data splits and merges some parcels (with `parent_apns`, and one split left for ingest
 * to infer from the address).
 */
export interface SyntheticParcel {
  apn: string;
  fips: string;
  addressNumber: string;
  /** A letter or fraction after the number (`17417B`, `12 1/2`); realistic ZIPs only. */
  addressNumberSuffix: string;
  predirectional: string;
  streetName: string;
  streetSuffix: string;
  occupancyType: string;
  occupancyId: string;
  city: string;
  state: string;
  zip5: string;
  lat: number;
  lon: number;
  parentApns: string;
}

/** mulberry32 (Tommy Ettinger's public-domain 32-bit PRNG): small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "OAK",
  "MAPLE",
  "CEDAR",
  "PINE",
  "ELM",
  "WALNUT",
  "CHESTNUT",
  "WILLOW",
  "BIRCH",
  "ASPEN",
  "HICKORY",
  "MAGNOLIA",
  "SYCAMORE",
  "LAUREL",
  "JUNIPER",
  "SPRUCE",
  "HOLLY",
  "POPLAR",
  "CYPRESS",
  "REDWOOD",
  "LINCOLN",
  "WASHINGTON",
  "JEFFERSON",
  "MADISON",
  "MONROE",
  "JACKSON",
  "FRANKLIN",
  "HAMILTON",
  "ADAMS",
  "GRANT",
  "PARK",
  "LAKE",
  "HILL",
  "RIVER",
  "SPRING",
  "MEADOW",
  "SUNSET",
  "HIGHLAND",
  "FOREST",
  "VALLEY",
  "RIDGE",
  "CHURCH",
  "MILL",
  "BROOK",
  "GREEN",
  "FAIRVIEW",
  "PLEASANT",
  "CENTER",
  "UNION",
  "PROSPECT",
  "VIEW",
  "COLLEGE",
  "ACADEMY",
  "HARBOR",
  "BAY",
  "SHORE",
  "CANYON",
  "MESA",
];
const SECOND = [
  "",
  "",
  "",
  "",
  "HILL",
  "VIEW",
  "CREEK",
  "GROVE",
  "WOOD",
  "FIELD",
  "CREST",
  "HAVEN",
  "BROOK",
  "GLEN",
];
const SUFFIXES = [
  "ST",
  "ST",
  "AVE",
  "AVE",
  "DR",
  "RD",
  "LN",
  "CT",
  "BLVD",
  "WAY",
  "PL",
  "CIR",
  "TER",
  "PKWY",
];
/** A county FIPS for a place: the real state code and a county number derived from the city. */
export function syntheticFips(place: Place): string {
  let hash = 0;
  for (const char of place.city) hash = (hash * 31 + char.charCodeAt(0)) % 499;
  return `${stateFipsOf(place.state) || "99"}${String(hash * 2 + 1).padStart(3, "0")}`;
}

/** Direction words that begin real street names (`NORTH RIDGE`, `WEST SHORE`). */
const DIRECTION_WORDS = ["NORTH", "SOUTH", "EAST", "WEST"];
const PREDIRECTIONALS = ["N", "S", "E", "W"];

/**
 * Street names of one ZIP; the last pair are near-identical (one letter apart) on purpose. In a
 * realistic ZIP about one street in twelve begins with a direction word.
 */
function streetNames(random: () => number, count: number, realistic: boolean): string[] {
  const names = new Set<string>();
  if (realistic) {
    for (let i = 0; i < Math.floor(count / 12); i++) {
      names.add(`${DIRECTION_WORDS[i % 4]} ${WORDS[Math.floor(random() * WORDS.length)] ?? "OAK"}`);
    }
  }
  // About a quarter of a town's streets are numbered (1ST, 2ND …), the rest named.
  for (let n = 1; names.size < Math.ceil(count / 4) && n < 40; n++) names.add(numberedOrdinal(n));
  while (names.size < count) {
    const first = WORDS[Math.floor(random() * WORDS.length)] ?? "OAK";
    const second = SECOND[Math.floor(random() * SECOND.length)] ?? "";
    names.add(second ? `${first} ${second}` : first);
  }
  const list = [...names].sort(() => random() - 0.5);
  const twin = list[list.length - 1] ?? "OAK";
  list.push(`${twin}E`); // near-identical twin: HAMILTON and HAMILTONE
  return list;
}

/**
 * The parcels of one ZIP, version 1 or 2. Deterministic in (place, count, version, realistic).
 * About 1 in 48 situs addresses is a building; 1 in 97 has no situs address. A `realistic` ZIP
 * (the national benchmark's) also has lettered and fractional house numbers, predirectionals and
 * streets whose name begins with a direction word.
 */
export function generateZip(
  place: Place,
  count: number,
  version: 1 | 2 = 1,
  realistic = false,
): SyntheticParcel[] {
  const random = seededRandom(Number(place.zip5) * 7919 + 17);
  const zip = new ZipParcels(place, random, Math.max(4, Math.ceil(count / 120)), realistic);
  const parcels: SyntheticParcel[] = [];
  for (let situs = 0; parcels.length < count; situs++) parcels.push(...zip.atSitus(situs));
  parcels.length = count;
  return version === 1 ? parcels : secondVersion(parcels, random);
}

/** The streets of one ZIP and the parcels at each of its situs addresses, in order. */
class ZipParcels {
  private readonly names: string[];
  private readonly suffixOf: Map<string, string>;
  private readonly directionOf = new Map<string, string>();
  private readonly fips: string;
  private lot = 0;

  constructor(
    private readonly place: Place,
    private readonly random: () => number,
    streets: number,
    private readonly realistic: boolean,
  ) {
    this.names = streetNames(random, streets, realistic);
    this.suffixOf = new Map(
      this.names.map((name) => [name, SUFFIXES[Math.floor(random() * SUFFIXES.length)] ?? "ST"]),
    );
    if (realistic) {
      this.names.forEach((name, i) => {
        if (i % 7 === 3 && !DIRECTION_WORDS.some((word) => name.startsWith(word))) {
          this.directionOf.set(name, PREDIRECTIONALS[i % 4] ?? "N");
        }
      });
    }
    this.fips = syntheticFips(place);
  }

  /** Situs `n`: streets take turns, numbers climb; every 97th situs is one of the special cases. */
  atSitus(n: number): SyntheticParcel[] {
    const name = this.names[n % this.names.length] ?? "OAK";
    const number = String(100 + 2 * Math.floor(n / this.names.length) + (n % 2));
    const lat = Math.round((this.place.lat + (this.random() - 0.5) * 0.04) * 1e7) / 1e7;
    const lon = Math.round((this.place.lon + (this.random() - 0.5) * 0.04) * 1e7) / 1e7;
    const at = (unit = ""): SyntheticParcel => this.parcel(lat, lon, { number, name, unit });
    const kind = n % 97;
    if (kind === 13) return [this.parcel(lat, lon)]; // no situs address
    if (kind === 29 || kind === 71) {
      // condo building: its own parcel and unit parcels (29), or unit parcels only (71)
      const own = kind === 29 ? [at()] : [];
      const units = 2 + Math.floor(this.random() * 10);
      return [...own, ...Array.from({ length: units }, (_, i) => at(String(101 + i)))];
    }
    const first = at();
    // Realistic ZIPs: a lettered number (17417B) and a fractional one (12 1/2).
    if (this.realistic && (kind === 83 || kind === 89)) first.addressNumberSuffix = kind === 83 ? "B" : "1/2";
    if (kind !== 47) return [first];
    const other = at(); // the same number and street with a second suffix
    other.streetSuffix = other.streetSuffix === "AVE" ? "ST" : "AVE";
    return [first, other];
  }

  private parcel(
    lat: number,
    lon: number,
    address?: { number: string; name: string; unit: string },
  ): SyntheticParcel {
    const apn = `${this.place.zip5}-${String(Math.floor(this.lot / 100)).padStart(3, "0")}-${String(this.lot++ % 100).padStart(2, "0")}`;
    return {
      apn,
      fips: this.fips,
      addressNumber: address?.number ?? "",
      addressNumberSuffix: "",
      predirectional: address ? (this.directionOf.get(address.name) ?? "") : "",
      streetName: address?.name ?? "",
      streetSuffix: address ? (this.suffixOf.get(address.name) ?? "ST") : "",
      occupancyType: address?.unit ? "UNIT" : "",
      occupancyId: address?.unit ?? "",
      city: this.place.city,
      state: this.place.state,
      zip5: this.place.zip5,
      lat,
      lon,
      parentApns: "",
    };
  }
}

/**
 * Version 2: parcels 10, 30, … are split in two (parent_apns), 20+21, 50+51, … merged into one
 * (parent_apns), and parcel 40 replaced by a new APN at the same address with no lineage column
 * (a split ingest infers from the address). Parcel 5 is removed outright; one parcel is added.
 */
function secondVersion(parcels: SyntheticParcel[], random: () => number): SyntheticParcel[] {
  const next: SyntheticParcel[] = [];
  parcels.forEach((parcel, i) => {
    if (i === 5) return;
    if (i % 100 === 10) {
      next.push({ ...parcel, apn: `${parcel.apn}A`, parentApns: parcel.apn });
      next.push({
        ...parcel,
        apn: `${parcel.apn}B`,
        parentApns: parcel.apn,
        addressNumber: parcel.addressNumber ? `${parcel.addressNumber}A` : "",
      });
    } else if (i % 100 === 20 && parcels[i + 1]) {
      next.push({
        ...parcel,
        apn: `${parcel.apn}M`,
        parentApns: `${parcel.apn};${parcels[i + 1]?.apn ?? ""}`,
      });
    } else if (i % 100 === 21) {
      return;
    } else if (i === 40) {
      next.push({ ...parcel, apn: `${parcel.apn}N` });
    } else next.push(parcel);
  });
  const last = parcels[parcels.length - 1];
  if (last)
    next.push({ ...last, apn: `${last.apn}Z`, addressNumber: String(9000 + Math.floor(random() * 900)) });
  return next;
}

/** One CSV line in the canonical layout (CANONICAL_COLUMNS; synthetic values never need quoting). */
export function syntheticCsvLine(p: SyntheticParcel): string {
  return [
    p.apn,
    p.fips,
    p.addressNumber,
    p.addressNumberSuffix,
    p.predirectional,
    p.streetName,
    p.streetSuffix,
    "",
    p.occupancyType,
    p.occupancyId,
    p.city,
    p.state,
    p.zip5,
    "",
    p.lat,
    p.lon,
    p.parentApns,
  ].join(",");
}
