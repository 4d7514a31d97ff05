import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { CANONICAL_COLUMNS } from "../ingest/column-mapping.js";
import type { Gazetteer, Place } from "../../places/gazetteer.js";
import { generateZip, syntheticCsvLine } from "./synthetic.js";
import type { SyntheticParcel } from "./synthetic.js";

/** The largest ZIP of the national data set: the chunk the cold-read target is about. */
export const LARGEST_ZIP_PARCELS = 60_000;

/**
 * A national synthetic data set: `parcels` spread over `zips` real ZIPs taken evenly across the
 * gazetteer (so every state appears; military ZIPs have no parcels), the first holding LARGEST_ZIP_PARCELS, the rest equal shares.
 */
export function nationalPlan(gazetteer: Gazetteer, parcels: number, zips: number): Array<[Place, number]> {
  // Military ZIPs (APO, FPO: AA, AE, AP) have no land parcels; the gazetteer puts them at 0°, 0°.
  const places = gazetteer.allPlaces().filter((place) => !["AA", "AE", "AP"].includes(place.state));
  const step = places.length / zips;
  const chosen = Array.from({ length: zips }, (_, i) => places[Math.floor(i * step)]).filter(
    (p) => p !== undefined,
  );
  const largest = Math.min(LARGEST_ZIP_PARCELS, parcels);
  const share = zips > 1 ? Math.floor((parcels - largest) / (zips - 1)) : 0;
  return chosen.map((place, i) => [place, i === 0 ? largest : share]);
}

/** Every parcel of a plan, one ZIP at a time. */
export function* nationalParcels(plan: Array<[Place, number]>): Generator<[Place, SyntheticParcel[]]> {
  for (const [place, count] of plan) if (count > 0) yield [place, generateZip(place, count)];
}

/** Writes a plan as one canonical CSV file (what `situs ingest` reads). */
export async function writeNationalCsv(file: string, plan: Array<[Place, number]>): Promise<number> {
  const out = createWriteStream(file);
  out.write(`${CANONICAL_COLUMNS.join(",")}\n`);
  let rows = 0;
  for (const [, parcels] of nationalParcels(plan)) {
    const text = `${parcels.map(syntheticCsvLine).join("\n")}\n`;
    rows += parcels.length;
    if (!out.write(text)) await once(out, "drain");
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return rows;
}
