import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { CANONICAL_COLUMNS } from "../ingest/column-mapping.js";
import type { Gazetteer, Place } from "../../places/gazetteer.js";
import { generateZip, seededRandom, syntheticCsvLine } from "./synthetic.js";
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

/** The most parcels one ZIP of a realistic plan holds. */
export const REALISTIC_LARGEST_ZIP = 64_000;

/**
 * The United States as it is shaped: `parcels` over every ZIP of the gazetteer with land parcels
 * (every state and territory), each ZIP's size drawn from a log-normal distribution (σ 0.9: most
 * ZIPs a few thousand parcels, a few at REALISTIC_LARGEST_ZIP), deterministic in `parcels`.
 */
export function realisticNationalPlan(gazetteer: Gazetteer, parcels: number): Array<[Place, number]> {
  const places = gazetteer.allPlaces().filter((place) => !["AA", "AE", "AP"].includes(place.state));
  const random = seededRandom(155);
  const weights = places.map(() => {
    // Box–Muller: one standard normal from two uniforms.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.exp(0.9 * normal);
  });
  const cap = Math.min(REALISTIC_LARGEST_ZIP, parcels);
  // Scale to the total, holding ZIPs at the cap and spreading what they shed over the others.
  const capped = new Set<number>();
  let sizes = weights;
  for (let pass = 0; pass < 20; pass++) {
    const free = weights.reduce((sum, w, i) => (capped.has(i) ? sum : sum + w), 0);
    const scale = (parcels - capped.size * cap) / free;
    sizes = weights.map((w, i) => (capped.has(i) ? cap : w * scale));
    const over = sizes.map((size, i) => (size > cap && !capped.has(i) ? i : -1)).filter((i) => i >= 0);
    if (over.length === 0) break;
    for (const i of over) capped.add(i);
  }
  const counts = sizes.map((size) => Math.min(cap, Math.floor(size)));
  let left = parcels - counts.reduce((sum, count) => sum + count, 0);
  for (let i = 0; left > 0 && i < counts.length; i++) {
    if (counts[i]! < cap) {
      counts[i]!++;
      left--;
    }
  }
  return places.map((place, i) => [place, counts[i]!]);
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
