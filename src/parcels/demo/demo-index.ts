import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BlobStore } from "../store/blob-store.js";
import { CANONICAL_COLUMNS, CANONICAL_MAPPING } from "../ingest/column-mapping.js";
import type { Gazetteer, Place } from "../../places/gazetteer.js";
import { nationalGazetteer } from "../../places/gazetteer.js";
import type { IngestReport } from "../ingest/ingest.js";
import { ingest } from "../ingest/ingest.js";
import { generateZip, syntheticCsvLine } from "./synthetic.js";

/**
 * The demo index `npm start` serves out of the box: a few real cities' ZIPs with synthetic parcels,
 * ingested as version 1 and then version 2, so lineage (superseded parcels) is there to try.
 * Springfield exists in several states, so a city-only lookup shows `location_required`.
 */
export const DEMO_CITIES: ReadonlyArray<[city: string, state: string]> = [
  ["BERKELEY", "CA"],
  ["SPRINGFIELD", "IL"],
  ["SPRINGFIELD", "MA"],
  ["KODIAK", "AK"],
  ["BOULDER", "CO"],
];
const PARCELS_PER_ZIP = 1_000;
const ZIPS_PER_CITY = 4;

export function demoPlaces(gazetteer: Gazetteer = nationalGazetteer()): Place[] {
  return DEMO_CITIES.flatMap(([city, state]) =>
    gazetteer
      .zipsOf(city, state)
      .slice(0, ZIPS_PER_CITY)
      .flatMap((zip) => gazetteer.zip(zip) ?? []),
  );
}

/** Writes the demo data (both versions) as canonical CSV files into `dir`. */
export function writeDemoFiles(dir: string, places: Place[], perZip = PARCELS_PER_ZIP): [string, string] {
  const files: [string, string] = [join(dir, "demo-v1.csv"), join(dir, "demo-v2.csv")];
  for (const version of [1, 2] as const) {
    const lines = [CANONICAL_COLUMNS.join(",")];
    for (const place of places)
      for (const parcel of generateZip(place, perZip, version)) lines.push(syntheticCsvLine(parcel));
    writeFileSync(files[version - 1] ?? "", `${lines.join("\n")}\n`);
  }
  return files;
}

/** Builds the demo index into the store (two builds: version 1, then version 2). */
export async function buildDemoIndex(store: BlobStore, perZip = PARCELS_PER_ZIP): Promise<IngestReport> {
  const dir = mkdtempSync(join(tmpdir(), "situs-demo-"));
  try {
    const [v1, v2] = writeDemoFiles(dir, demoPlaces(), perZip);
    await ingest({ store, inputs: [{ file: v1, mapping: CANONICAL_MAPPING }] });
    return await ingest({ store, inputs: [{ file: v2, mapping: CANONICAL_MAPPING }] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
