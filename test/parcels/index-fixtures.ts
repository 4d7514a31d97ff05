import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BlobStore } from "../../src/parcels/blob-store.js";
import { ByteLru } from "../../src/parcels/chunk-cache.js";
import { CANONICAL_COLUMNS } from "../../src/parcels/column-mapping.js";
import { splitCsvLine } from "../../src/parcels/csv.js";
import { EXPORT_COLUMNS, exportLines } from "../../src/parcels/export.js";
import { IndexBuild } from "../../src/parcels/index-build.js";
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

/** Writes a canonical CSV from partial rows (missing columns empty). */
export function writeCanonical(
  file: string,
  rows: Array<Partial<Record<(typeof CANONICAL_COLUMNS)[number], string>>>,
): string {
  const lines = [
    CANONICAL_COLUMNS.join(","),
    ...rows.map((row) => CANONICAL_COLUMNS.map((c) => row[c] ?? "").join(",")),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}
