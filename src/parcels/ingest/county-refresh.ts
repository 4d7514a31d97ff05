import type { PreviousParcel, PreviousState } from "./identity.js";
import { emptyPreviousState } from "./identity.js";
import type { IndexBuild } from "../store/index-build.js";
import type { KeptChunk } from "../store/index-writer.js";
import { baseKey } from "../format/manifest.js";
import { addressKey, EXACT_APN, identityKey, situsKey } from "../parcel-row.js";
import type { StoredEntry } from "../parcel-row.js";

/**
 * Many counties in one index, each refreshed on its own schedule. A new build replaces the parcels
 * of some counties (those of its input, and any named with `--replace-fips` or removed) and keeps
 * every other county as it was: the chunks of a ZIP (one, or its parts) that hold none of the
 * replaced counties and get no new rows are kept as files of the earlier build; the chunks of a
 * ZIP where one part does are decoded (the ZIP is split into parts anew), their other counties'
 * entries carried into the new chunks unchanged (a ZIP can span counties), and their replaced
 * counties' entries become the previous state their identities are assigned against.
 */
export interface RefreshPlan {
  /** Chunks kept as they are, in key order. */
  kept: KeptChunk[];
  /** Entries of the counties not replaced, from the chunks that are rewritten. */
  carried: StoredEntry[];
  /** The replaced counties as the earlier build had them. */
  previous: PreviousState;
  /** Chunks of the earlier build that are rewritten. */
  rewritten: number;
}

/**
 * Plans a build that replaces `counties` given the earlier build (none for a first build) and the
 * chunk keys the new rows go to. A chunk of a version-1 build (no county list) is always rewritten.
 */
export async function planRefresh(
  build: IndexBuild | undefined,
  counties: ReadonlySet<string>,
  newKeys: ReadonlySet<string>,
): Promise<RefreshPlan> {
  const plan: RefreshPlan = { kept: [], carried: [], previous: emptyPreviousState(), rewritten: 0 };
  if (!build) return plan;
  const streets = await build.streets();
  const places = await build.places();
  const replaced: StoredEntry[] = [];
  const touched = new Set<string>();
  for (const ref of build.manifest.chunks) {
    const key = baseKey(ref.key);
    if (!ref.counties || !ref.counts || newKeys.has(key) || ref.counties.some((fips) => counties.has(fips)))
      touched.add(key);
  }
  for (let index = 0; index < build.manifest.chunks.length; index++) {
    const ref = build.manifest.chunks[index]!;
    if (!touched.has(baseKey(ref.key))) {
      plan.kept.push({
        ref,
        fromBuild: build.buildId,
        fromIndex: index,
        streets: streets.streetsOf(index),
        places: places.placesOf(index),
      });
      continue;
    }
    plan.rewritten++;
    const chunk = await build.chunk(index);
    for (let row = 0; row < chunk.rows; row++) {
      const entry = chunk.storedEntry(row);
      if (counties.has(entry.fips)) replaced.push(entry);
      else plan.carried.push(entry);
    }
  }
  plan.previous = previousState(replaced);
  return plan;
}

/**
 * The parcels of a build's entries with their addresses, and their buildings, for the next build's
 * identities. Two parcels whose APNs share a key but are written differently (parcel-groups.ts)
 * are each keyed by key and spelling.
 */
export function previousState(entries: readonly StoredEntry[]): PreviousState {
  const state: PreviousState = { parcels: new Map(), superseded: [], buildings: new Map() };
  const spellings = new Map<string, string>();
  const split = new Set<string>();
  for (const entry of entries) {
    if (entry.apn === "" || entry.status === "superseded") continue;
    const key = identityKey(entry);
    const known = spellings.get(key);
    if (known === undefined) spellings.set(key, entry.apn);
    else if (known !== entry.apn) split.add(key);
  }
  const keyOf = (entry: StoredEntry): string => {
    const key = identityKey(entry);
    return split.has(key) ? `${key}${EXACT_APN}${entry.apn}` : key;
  };
  const aliases: Array<[string, string]> = [];
  for (const entry of entries) {
    if (entry.status === "superseded") state.superseded.push(entry);
    else if (entry.alias) aliases.push([keyOf(entry), addressKey(entry)]);
    else {
      const parcel: PreviousParcel = {
        record: entry,
        addresses: entry.streetName ? [addressKey(entry)] : [],
      };
      state.parcels.set(keyOf(entry), parcel);
    }
    if (entry.buildingId && entry.status === "active") state.buildings.set(situsKey(entry), entry.buildingId);
  }
  for (const [key, address] of aliases) state.parcels.get(key)?.addresses.push(address);
  return state;
}
