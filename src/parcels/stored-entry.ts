import type { AddressEntry } from "./parcel-row.js";

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

/** House numbers sort numerically first (`9` before `10`), then as text (`10A` after `10`). */
export function numberOrder(a: string, b: string): number {
  const difference = (parseInt(a, 10) || 0) - (parseInt(b, 10) || 0);
  return difference !== 0 ? difference : a < b ? -1 : a > b ? 1 : 0;
}

function textOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order of rows in a chunk: street name, number, then the rest of the address. */
export function entryOrder(a: AddressEntry, b: AddressEntry): number {
  return (
    textOrder(a.streetName, b.streetName) ||
    numberOrder(a.addressNumber, b.addressNumber) ||
    textOrder(a.addressNumberSuffix, b.addressNumberSuffix) ||
    textOrder(a.streetSuffix, b.streetSuffix) ||
    textOrder(a.predirectional, b.predirectional) ||
    textOrder(a.postdirectional, b.postdirectional) ||
    textOrder(a.occupancyId, b.occupancyId) ||
    textOrder(a.apn, b.apn)
  );
}

/**
 * Sorts entries in place by `entryOrder`. Most comparisons are settled by street name and house
 * number, so each entry gets one numeric key for the pair (the rank of its street name among the
 * chunk's names, then its number); only equal keys fall back to `entryOrder`. Stable, like
 * `Array.prototype.sort`, so the result is exactly `entries.sort(entryOrder)`.
 */
export function sortEntries<T extends AddressEntry>(entries: T[]): void {
  const names = [...new Set(entries.map((entry) => entry.streetName))].sort(textOrder);
  const rank = new Map(names.map((name, i) => [name, i]));
  const keys = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const number = parseInt(entry.addressNumber, 10) || 0;
    // Exact in a double while the number is a non-negative integer below 2^32; else no shortcut.
    keys[i] = number >= 0 && number < 2 ** 32 ? rank.get(entry.streetName)! * 2 ** 32 + number : NaN;
  }
  const exact = !keys.some((key) => Number.isNaN(key));
  // The entries themselves are only read on a tie: reading tens of thousands of scattered
  // objects at every comparison costs more than the comparison.
  const order = Array.from(entries.keys()).sort(
    (i, j) => (exact && keys[i]! - keys[j]!) || entryOrder(entries[i]!, entries[j]!),
  );
  const sorted = order.map((i) => entries[i]!);
  sorted.forEach((entry, i) => (entries[i] = entry));
}
