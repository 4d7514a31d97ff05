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
 * Sorts entries in place by `entryOrder`, each house number parsed once instead of at every
 * comparison.
 */
export function sortEntries<T extends AddressEntry>(entries: T[]): void {
  const numbers = Float64Array.from(entries, (entry) => parseInt(entry.addressNumber, 10) || 0);
  const order = Array.from(entries.keys()).sort((i, j) => {
    const a = entries[i]!;
    const b = entries[j]!;
    return (
      textOrder(a.streetName, b.streetName) ||
      numbers[i]! - numbers[j]! ||
      textOrder(a.addressNumber, b.addressNumber) ||
      entryOrder(a, b)
    );
  });
  const sorted = order.map((i) => entries[i]!);
  sorted.forEach((entry, i) => (entries[i] = entry));
}
