import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { ColumnMapping } from "../parcels/column-mapping.js";
import { FORMATS, parseMapping } from "../parcels/column-mapping.js";
import type { IngestReport } from "../parcels/ingest.js";
import { ingest } from "../parcels/ingest.js";
import { openBlobStore } from "../parcels/open-blob-store.js";
import type { TextField } from "../parcels/parcel-row.js";
import { csvField } from "../parcels/csv.js";
import { s3Environment } from "./index-location.js";

const USAGE = `Usage: situs ingest --index DIR|file:///DIR|s3://BUCKET/PREFIX [options] FILE...

Builds the parcel index in the store, or a new version of it when one is published there.
  --format canonical|openaddresses|mapped   input format (default canonical)
  --mapping FILE.json                       column mapping (required for mapped; see docs/parcel-index.md)
  --fips, --state, --city, --zip5 VALUE     constant for rows that lack the field
  --rejects FILE                            write every rejected row as CSV (file,line,reason)
`;

/** `situs ingest`: parses the command line, runs the ingest, prints its report. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      index: { type: "string" },
      format: { type: "string", default: "canonical" },
      mapping: { type: "string" },
      fips: { type: "string" },
      state: { type: "string" },
      city: { type: "string" },
      zip5: { type: "string" },
      rejects: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.index || positionals.length === 0) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  const mapping = chooseMapping(values.format ?? "canonical", values.mapping);
  const constants: Partial<Record<TextField, string>> = { ...mapping.constants };
  for (const field of ["fips", "state", "city", "zip5"] as const) {
    const value = values[field];
    if (value !== undefined) constants[field] = value;
  }
  const tty = process.stderr.isTTY;
  const report = await ingest({
    store: openBlobStore(values.index, s3Environment()),
    inputs: positionals.map((file) => ({ file, mapping: { ...mapping, constants } })),
    ...(tty
      ? {
          onProgress: (file: string, rows: number) =>
            process.stderr.write(`\r${file}: ${rows.toLocaleString("en-US")} rows`),
        }
      : {}),
  });
  if (tty) process.stderr.write("\n");
  if (values.rejects) {
    const lines = report.rejects.map((r) => [r.file, String(r.line), r.reason].map(csvField).join(","));
    writeFileSync(values.rejects, ["file,line,reason", ...lines, ""].join("\n"));
  }
  process.stdout.write(describeReport(report));
  return 0;
}

function chooseMapping(format: string, mappingFile: string | undefined): ColumnMapping {
  if (mappingFile) return parseMapping(JSON.parse(readFileSync(mappingFile, "utf8")));
  if (format === "mapped") throw new Error("--format mapped needs --mapping FILE.json");
  if (format !== "canonical" && format !== "openaddresses") throw new Error(`unknown format "${format}"`);
  return FORMATS[format];
}

export function describeReport(report: IngestReport): string {
  const lines = [
    `build ${report.buildId} published${report.previousBuildId ? ` (previous ${report.previousBuildId})` : ""}`,
    ...report.files.map((f) => `  ${f.file}: ${f.rows} rows, ${f.accepted} accepted, ${f.rejected} rejected`),
    `rows ${report.rows}, rejected ${report.rejected}, parcels ${report.parcels}, extra addresses ${report.aliases}`,
    `ids kept ${report.identity.keptIds}, new ${report.identity.newIds}; superseded now ${report.identity.superseded} ` +
      `(lineage ${report.identity.supersededByLineage}, address ${report.identity.supersededByAddress}; splits ${report.identity.splits}, merges ${report.identity.merges}); retired now ${report.identity.retired}`,
    `build: ${report.counts.parcels} parcels (${report.counts.active} active, ${report.counts.superseded} superseded, ${report.counts.retired} retired), ${report.counts.buildings} buildings, ${report.chunks} chunks, ${report.bytes} bytes`,
    `inferred: ZIP from city ${report.inferred.zipFromCity}, ZIP from coordinates ${report.inferred.zipFromCoordinates}, city from ZIP ${report.inferred.cityFromZip}`,
    `${report.seconds.toFixed(2)} s, ${Math.round(report.rows / report.seconds)} rows/s`,
    ...report.rejects.slice(0, 20).map((r) => `  rejected ${r.file}:${r.line}: ${r.reason}`),
    ...(report.rejects.length > 20
      ? [`  ... ${report.rejects.length - 20} more rejects (--rejects FILE lists all)`]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}
