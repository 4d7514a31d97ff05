import { textOrder } from "../entry-order.js";
import type { StoredEntry } from "../parcel-row.js";
import { PART_DIGITS, partKey } from "./manifest.js";

/**
 * The most rows a chunk holds, unless one street alone has more. A lookup reads and inflates a
 * whole chunk the first time it asks it: a ZIP of 60,000 parcels in one chunk is 4 MB to inflate,
 * tens of milliseconds before the first answer (docs/performance.md "Where a lookup's time
 * goes").
 */
export const PART_ROWS = 8_192;

export interface ChunkPart {
  key: string;
  entries: readonly StoredEntry[];
}

/**
 * The chunks of one ZIP's (or county's) entries: one when they are at most `partRows`, else parts
 * of whole streets in name order, each at most `partRows` rows unless one street has more. A
 * street's rows are never split, so a lookup by street reads one part (the street dictionary says
 * which), and a building (one situs) is always within one part.
 */
export function chunkParts(key: string, entries: readonly StoredEntry[], partRows = PART_ROWS): ChunkPart[] {
  if (entries.length <= partRows) return [{ key, entries }];
  const byStreet = new Map<string, StoredEntry[]>();
  for (const entry of entries) {
    const rows = byStreet.get(entry.streetName);
    if (rows) rows.push(entry);
    else byStreet.set(entry.streetName, [entry]);
  }
  const parts: ChunkPart[] = [];
  let current: StoredEntry[] = [];
  for (const name of [...byStreet.keys()].sort(textOrder)) {
    const rows = byStreet.get(name)!;
    if (current.length > 0 && current.length + rows.length > partRows) {
      parts.push({ key: partKey(key, parts.length), entries: current });
      current = [];
    }
    for (const row of rows) current.push(row);
  }
  parts.push({ key: partKey(key, parts.length), entries: current });
  if (parts.length > 10 ** PART_DIGITS)
    throw new Error(`chunk ${key}: ${entries.length} rows make more than ${10 ** PART_DIGITS} parts`);
  return parts;
}
