import type { UlidGenerator } from "../format/binary-ulid.js";
import type { ParcelGroups } from "./parcel-groups.js";
import type { IngestRow } from "../parcel-row.js";
import { addressKey, apnKey, EXACT_APN, hasAddress, situsKey } from "../parcel-row.js";
import type { StoredEntry } from "../parcel-row.js";

/**
 * Identity and lineage (DECISIONS.md "Identity", "Buildings"): which ID each parcel of a new build
 * gets, what happened to the parcels of the previous build that are gone, and which entries form
 * buildings. Pure: the caller reads the previous build and writes the new one.
 */
export interface PreviousParcel {
  /** The parcel's record (its primary entry) as last built. */
  record: StoredEntry;
  /** Every address the parcel had (primary and aliases), as `addressKey`s. */
  addresses: string[];
}

export interface PreviousState {
  /** Parcels that are active or retired, by identity key. */
  parcels: Map<string, PreviousParcel>;
  /** Superseded records: final (SPEC.md has no way back), carried into every later build. */
  superseded: StoredEntry[];
  /** situsKey → building ID, so buildings keep their IDs across re-ingests. */
  buildings: Map<string, Uint8Array>;
}

export interface IdentityStats {
  keptIds: number;
  newIds: number;
  /** Parcels of the previous build replaced now (explicitly or inferred), and how. */
  superseded: number;
  supersededByLineage: number;
  supersededByAddress: number;
  splits: number;
  merges: number;
  /** Parcels gone with no successor now; kept answerable by ID. */
  retired: number;
  buildings: number;
}

/**
 * The previous build's parcel that a parcel of this ingest continues (its identity key and APN as
 * written): by key; a parcel keyed by its exact spelling (parcel-groups.ts) also continues the
 * previous plain key written the same way, and a plain key a previous parcel keyed by its spelling.
 */
export function previousOf(
  parcels: Map<string, PreviousParcel>,
  key: string,
  apn: string,
): [string, PreviousParcel] | undefined {
  const same = parcels.get(key);
  if (same) return [key, same];
  const exact = key.indexOf(EXACT_APN);
  if (exact !== -1) {
    const plain = parcels.get(key.slice(0, exact));
    return plain?.record.apn === apn ? [key.slice(0, exact), plain] : undefined;
  }
  if (apn === "") return undefined;
  const spelled = parcels.get(`${key}${EXACT_APN}${apn}`);
  return spelled ? [`${key}${EXACT_APN}${apn}`, spelled] : undefined;
}

export function emptyPreviousState(): PreviousState {
  return { parcels: new Map(), superseded: [], buildings: new Map() };
}

/**
 * Assigns IDs to the parcels of a new build (grouped by identity key; the first row without a unit
 * is the parcel's record, further rows its alias addresses) and carries the previous build's
 * parcels that are gone forward as superseded or retired.
 */
export function assignIdentities(
  groups: ParcelGroups,
  previous: PreviousState,
  ids: UlidGenerator,
): { entries: StoredEntry[]; stats: IdentityStats } {
  const stats: IdentityStats = {
    keptIds: 0,
    newIds: 0,
    superseded: 0,
    supersededByLineage: 0,
    supersededByAddress: 0,
    splits: 0,
    merges: 0,
    retired: 0,
    buildings: 0,
  };
  const entries: StoredEntry[] = [];
  const known = previous.parcels.size > 0;
  /** The new IDs by parcel number: what carryForward matches the previous build's parcels against. */
  const newIds = new Map<number, Uint8Array>();
  for (let parcel = 0; parcel < groups.size; parcel++) {
    // A superseded ID never becomes active again (SPEC.md "Parcel status"): an APN that returns
    // after being superseded is not in `parcels` and gets a new ID; a retired one gets its own back.
    const first = groups.firstRow(parcel);
    const before = known
      ? previousOf(previous.parcels, groups.identityKey(parcel), first.apn)?.[1].record
      : undefined;
    const id = before ? before.id : ids.next();
    if (before) stats.keptIds++;
    else {
      stats.newIds++;
      if (known) newIds.set(parcel, id);
    }
    if (!groups.hasSeveralRows(parcel)) {
      entries.push(toEntry(first, id, false));
      continue;
    }
    const rows = groups.rows(parcel);
    const primary = Math.max(
      0,
      rows.findIndex((row) => row.occupancyId === ""),
    );
    rows.forEach((row, i) => entries.push(toEntry(row, id, i !== primary)));
  }
  entries.push(...carryForward(groups, previous, newIds, stats));
  stats.buildings = assignBuildings(entries, previous.buildings, ids);
  return { entries, stats };
}

/** The row becomes the stored entry in place: no copy of millions of rows. */
function toEntry(row: IngestRow, id: Uint8Array, alias: boolean): StoredEntry {
  row.id = id;
  row.alias = alias;
  return row;
}

/** The previous build's parcels that are gone: superseded when they have successors, else retired. */
function carryForward(
  groups: ParcelGroups,
  previous: PreviousState,
  newIds: Map<number, Uint8Array>,
  stats: IdentityStats,
): StoredEntry[] {
  if (previous.parcels.size === 0) return [...previous.superseded];
  const explicit = explicitSuccessors(groups, previous, newIds);
  const byAddress = new Map<string, Uint8Array[]>();
  for (const [parcel, id] of newIds) {
    for (const row of groups.rows(parcel)) {
      if (!hasAddress(row)) continue;
      const list = byAddress.get(addressKey(row));
      if (list) list.push(id);
      else byAddress.set(addressKey(row), [id]);
    }
  }
  const carried: StoredEntry[] = [...previous.superseded];
  const successorCount = new Map<string, number>();
  for (const [key, parcel] of previous.parcels) {
    if (groups.holds(key, parcel.record.apn)) continue;
    const record = { ...parcel.record, alias: false };
    let successors = explicit.get(key) ?? [];
    if (successors.length > 0) stats.supersededByLineage++;
    else if (record.status === "active") {
      successors = unique(parcel.addresses.flatMap((address) => byAddress.get(address) ?? []));
      if (successors.length > 0) stats.supersededByAddress++;
    }
    if (successors.length > 0) {
      Object.assign(record, { status: "superseded", supersededBy: successors });
      stats.superseded++;
      if (successors.length > 1) stats.splits++;
      for (const id of successors) countUp(successorCount, Buffer.from(id).toString("hex"));
    } else if (record.status === "active") {
      record.status = "retired";
      stats.retired++;
    }
    carried.push(record);
  }
  stats.merges = [...successorCount.values()].filter((count) => count > 1).length;
  return carried;
}

/** `parent_apns`: a parent that is gone from the new data is superseded by the children naming it. */
function explicitSuccessors(
  groups: ParcelGroups,
  previous: PreviousState,
  newIds: Map<number, Uint8Array>,
): Map<string, Uint8Array[]> {
  const successors = new Map<string, Uint8Array[]>();
  for (let parcel = 0; parcel < groups.size; parcel++) {
    if (!groups.hasSeveralRows(parcel) && groups.firstRow(parcel).parentApns.length === 0) continue;
    const rows: IngestRow[] = groups.rows(parcel);
    const first = groups.firstRow(parcel);
    const parents = new Map(
      rows.flatMap((row) => row.parentApns.map((apn) => [`${row.fips}\t${apnKey(apn)}`, apn])),
    );
    if (parents.size === 0) continue;
    const id =
      newIds.get(parcel) ??
      previousOf(previous.parcels, groups.identityKey(parcel), first.apn)?.[1].record.id;
    if (!id) continue;
    for (const [parentKey, apn] of parents) {
      const before = previousOf(previous.parcels, parentKey, apn);
      if (!before || groups.holds(before[0], before[1].record.apn)) continue;
      successors.set(before[0], [...(successors.get(before[0]) ?? []), id]);
    }
  }
  return successors;
}

/**
 * Buildings (DECISIONS.md): a situs where some unit entry belongs to a parcel that has no entry
 * without a unit there. So unit parcels (condos) make a building with the unitless parcel as its
 * own, while one parcel listing its apartments as alias addresses is a single parcel, not a
 * building. Every active entry at the situs gets the building's ID. Answers how many buildings.
 */
function assignBuildings(entries: StoredEntry[], known: Map<string, Uint8Array>, ids: UlidGenerator): number {
  // Only a situs where some entry has a unit can be a building: find those first, cheaply.
  const withUnits = new SitusNumbers();
  for (const entry of entries) if (entry.occupancyId !== "") withUnits.add(entry);
  if (withUnits.size === 0) return 0;
  const bySitus = new Map<string, StoredEntry[]>();
  for (const entry of entries) {
    if (entry.status !== "active" || !hasAddress(entry) || !withUnits.has(entry)) continue;
    const key = situsKey(entry);
    const list = bySitus.get(key);
    if (list) list.push(entry);
    else bySitus.set(key, [entry]);
  }
  let buildings = 0;
  for (const [key, list] of bySitus) {
    if (!list.some((entry) => entry.occupancyId !== "")) continue;
    const unitless = new Set(list.filter((entry) => entry.occupancyId === "").map((entry) => entry.id));
    if (!list.some((entry) => entry.occupancyId !== "" && !unitless.has(entry.id))) continue;
    const id = known.get(key) ?? ids.next();
    for (const entry of list) entry.buildingId = id;
    buildings++;
  }
  return buildings;
}

const NO_STREETS: ReadonlyMap<string, Set<string>> = new Map();

/** A set of (ZIP, street name, house number), nested so that testing an entry builds no string. */
class SitusNumbers {
  private readonly byZip = new Map<string, Map<string, Set<string>>>();
  size = 0;
  /** The streets of the ZIP tested last: entries come in input order, mostly a ZIP at a time. */
  private lastZip = "";
  private lastStreets: ReadonlyMap<string, Set<string>> | undefined;

  add(entry: StoredEntry): void {
    let streets = this.byZip.get(entry.zip5);
    if (!streets) this.byZip.set(entry.zip5, (streets = new Map()));
    let numbers = streets.get(entry.streetName);
    if (!numbers) streets.set(entry.streetName, (numbers = new Set()));
    if (!numbers.has(entry.addressNumber)) this.size++;
    numbers.add(entry.addressNumber);
    this.lastStreets = undefined;
  }

  has(entry: StoredEntry): boolean {
    if (this.lastStreets === undefined || entry.zip5 !== this.lastZip) {
      this.lastZip = entry.zip5;
      this.lastStreets = this.byZip.get(entry.zip5) ?? NO_STREETS;
    }
    return this.lastStreets.get(entry.streetName)?.has(entry.addressNumber) ?? false;
  }
}

function unique(ids: Uint8Array[]): Uint8Array[] {
  const seen = new Map(ids.map((id) => [Buffer.from(id).toString("hex"), id]));
  return [...seen.values()];
}

function countUp(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
