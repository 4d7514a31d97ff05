import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BlobStore } from "../../src/parcels/store/blob-store.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { CANONICAL_COLUMNS, CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { splitCsvLine } from "../../src/parcels/sources/csv-records.js";
import { EXPORT_COLUMNS, exportLines } from "../../src/parcels/ingest/export.js";
import type { Gazetteer } from "../../src/places/gazetteer.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import type { IngestInput } from "../../src/parcels/ingest/ingest.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { projectPath } from "../../src/paths.js";

export const SHARED_PARCELS = projectPath("..", "shared", "data", "parcels");
export const COUNTY_MAPPING = projectPath("data", "parcel-mappings", "county-layout.json");

export function temporaryDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "situs-test-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string>;

/** Every entry of the store's current build, as export rows. */
export async function exportedRows(store: BlobStore): Promise<ExportRow[]> {
  const build = await IndexBuild.openCurrent(store, new ByteLru(1 << 26));
  if (!build) throw new Error("no build");
  const rows: ExportRow[] = [];
  let header = true;
  for await (const line of exportLines(build)) {
    if (header) {
      header = false;
      continue;
    }
    const fields = splitCsvLine(line);
    rows.push(Object.fromEntries(EXPORT_COLUMNS.map((name, i) => [name, fields[i] ?? ""])) as ExportRow);
  }
  return rows;
}

export type CanonicalRow = Partial<Record<(typeof CANONICAL_COLUMNS)[number], string>>;

/** Writes a canonical CSV from partial rows (missing columns empty). */
export function writeCanonical(file: string, rows: CanonicalRow[]): string {
  const lines = [
    CANONICAL_COLUMNS.join(","),
    ...rows.map((row) => CANONICAL_COLUMNS.map((c) => row[c] ?? "").join(",")),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * A small index ingested from canonical rows (and further inputs written into `dir`), opened for
 * lookups; `lookup` asks in ZIP 94704 unless the request names another place.
 */
export async function lookupFixture(
  t: { after(fn: () => void): void },
  rows: CanonicalRow[],
  options: { gazetteer: Gazetteer; more?: (dir: string) => IngestInput[] },
) {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const canonical = { file: writeCanonical(join(dir, "p.csv"), rows), mapping: CANONICAL_MAPPING };
  await ingest({ store, gazetteer: options.gazetteer, inputs: [canonical, ...(options.more?.(dir) ?? [])] });
  const exported = await exportedRows(store);
  const ids = new Map(exported.map((r) => [r.apn, r.service_id]));
  const apnOf = new Map(exported.map((r) => [r.service_id, r.apn]));
  const index = await StoredParcelIndex.open(store, {
    cacheBytes: 1 << 20,
    refreshMs: 0,
    gazetteer: options.gazetteer,
  });
  const lookup = async (request: Partial<LookupRequest>) =>
    index
      .lookup({ zip5: "94704", ...request } as LookupRequest)
      .then((timed) => timed.result as LookupAnswer);
  return { ids, apnOf, index, lookup, store, exported };
}
