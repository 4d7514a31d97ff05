import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { ColumnMapping } from "../parcels/column-mapping.js";
import { FORMATS, parseMapping } from "../parcels/column-mapping.js";
import { openParser } from "../composition.js";
import { loadConfig } from "../config.js";
import type { BuildReport, IngestReport } from "../parcels/ingest.js";
import type { Reject } from "../parcels/row-reader.js";
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
  --replace-fips F[,F...]                   also replace these counties (their parcels missing
                                            from the files are retired); the counties of the
                                            files are always replaced, every other one is kept
  --rejects FILE                            write every rejected row as CSV (file,line,reason), then
                                            the rows kept with a value changed (kind "kept")
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
      "replace-fips": { type: "string", multiple: true },
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
  const replaceCounties = readCounties(values["replace-fips"] ?? []);
  if (typeof replaceCounties === "string") {
    process.stderr.write(`situs ingest: ${replaceCounties}\n`);
    return 2;
  }
  const needsParser = mapping.columns.address !== undefined;
  const report = await ingest({
    replaceCounties,
    ...(needsParser
      ? { parser: openParser(loadConfig(), (m) => process.stderr.write(`situs ingest: ${m}\n`)) }
      : {}),
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
    const line = (kind: string, r: Reject): string =>
      [kind, r.file, String(r.line), r.reason].map(csvField).join(",");
    const lines = [
      ...report.rejects.map((r) => line("rejected", r)),
      ...report.notes.map((r) => line("kept", r)),
    ];
    writeFileSync(values.rejects, ["kind,file,line,reason", ...lines, ""].join("\n"));
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

/** FIPS codes from `--replace-fips` / `--fips` values (each may list several, comma-separated). */
export function readCounties(values: string[]): string[] | string {
  const counties = values.flatMap((value) => value.split(",")).map((fips) => fips.trim());
  const bad = counties.filter((fips) => !/^\d{5}$/.test(fips));
  return bad.length > 0 ? `"${bad.join('", "')}" is no 5-digit county FIPS code` : counties;
}

export function describeBuild(report: BuildReport): string[] {
  return [
    `build ${report.buildId} published${report.previousBuildId ? ` (previous ${report.previousBuildId})` : ""}`,
    `counties replaced: ${report.counties.join(", ") || "none"}; chunks: ${report.writtenChunks} written, ${report.keptChunks} kept; ${report.bytesWritten} bytes written`,
  ];
}

export function describeReport(report: IngestReport): string {
  const noteCounts = new Map<string, number>();
  for (const note of report.notes) {
    const kind = note.reason.replace(/"[^"]*"|\d+/g, "…");
    noteCounts.set(kind, (noteCounts.get(kind) ?? 0) + 1);
  }
  const lines = [
    ...describeBuild(report),
    ...report.files.map((f) => `  ${f.file}: ${f.rows} rows, ${f.accepted} accepted, ${f.rejected} rejected`),
    `rows ${report.rows}, rejected ${report.rejected}, parcels ${report.parcels}, extra addresses ${report.aliases}`,
    `ids kept ${report.identity.keptIds}, new ${report.identity.newIds}; superseded now ${report.identity.superseded} ` +
      `(lineage ${report.identity.supersededByLineage}, address ${report.identity.supersededByAddress}; splits ${report.identity.splits}, merges ${report.identity.merges}); retired now ${report.identity.retired}`,
    `build: ${report.counts.parcels} parcels (${report.counts.active} active, ${report.counts.superseded} superseded, ${report.counts.retired} retired), ${report.counts.buildings} buildings, ${report.chunks} chunks, ${report.bytes} bytes`,
    `inferred: ZIP from city ${report.inferred.zipFromCity}, ZIP from coordinates ${report.inferred.zipFromCoordinates}, city from ZIP ${report.inferred.cityFromZip}`,
    `${report.seconds.toFixed(2)} s, ${Math.round(report.rows / report.seconds)} rows/s`,
    ...[...noteCounts].map(([kind, count]) => `kept with a change: ${count} × ${kind}`),
    ...report.apnConflicts.map(
      (c) =>
        `APN "${c.apn}" (${c.file}:${c.line}) and "${c.otherApn}" (${c.otherFile}:${c.otherLine}) differ only in punctuation: kept as two parcels`,
    ),
    ...report.rejects.slice(0, 20).map((r) => `  rejected ${r.file}:${r.line}: ${r.reason}`),
    ...(report.rejects.length > 20
      ? [`  ... ${report.rejects.length - 20} more rejects (--rejects FILE lists all)`]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}
