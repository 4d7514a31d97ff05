import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { openParser } from "../app/composition.js";
import { loadConfig } from "../config.js";
import type { Layout } from "../parcels/ingest/column-mapping.js";
import { LAYOUTS, layoutMapping, parseMapping } from "../parcels/ingest/column-mapping.js";
import type { BuildReport, IngestInput, IngestReport } from "../parcels/ingest/ingest.js";
import type { Reject } from "../parcels/ingest/row-reader.js";
import { ingest } from "../parcels/ingest/ingest.js";
import { openBlobStore } from "../parcels/store/open-blob-store.js";
import type { TextField } from "../parcels/parcel-row.js";
import { csvLine } from "../csv.js";
import { BulkProgress } from "./progress.js";
import type { SourceFormat } from "../parcels/sources/open-source.js";
import { detectFormat, isSourceFormat, SOURCE_FORMATS } from "../parcels/sources/open-source.js";
import { s3Environment } from "./index-location.js";
import { inspect } from "./inspect.js";

export const USAGE = `Usage: situs ingest --index DIR|file:///DIR|s3://BUCKET/PREFIX [options] FILE...
       situs ingest --inspect FILE [--format F] [--layer NAME] [--output MAPPING.json]

Builds the parcel index in the store, or a new version of it when one is published there.
  --format csv|geojson|geojsonl|shapefile|gdal   file format (default: detected from the file)
  --layout canonical|openaddresses|mapped        column layout (default canonical; mapped with --mapping)
  --mapping FILE.json                            column mapping (see docs/parcel-index.md)
  --layer NAME                                   layer of a zip of shapefiles or of a GDAL dataset
  --fips, --state, --city, --zip5 VALUE          constant for rows that lack the field
  --replace-fips F[,F...]                        also replace these counties (their parcels missing
                                                 from the files are retired); the counties of the
                                                 files are always replaced, every other one is kept
  --rejects FILE                                 write every rejected row as CSV (kind,file,line,reason):
                                                 the rejected rows, then those kept with a value changed
  --inspect FILE                                 print the file's format, fields and a suggested mapping
  --output MAPPING.json                          with --inspect: write the suggested mapping there
(--format also accepts a layout name, canonical|openaddresses|mapped, as --layout.)
`;

/** `situs ingest`: parses the command line, runs the ingest, prints its report. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      index: { type: "string" },
      format: { type: "string" },
      layout: { type: "string" },
      mapping: { type: "string" },
      layer: { type: "string" },
      inspect: { type: "boolean" },
      output: { type: "string" },
      fips: { type: "string" },
      state: { type: "string" },
      city: { type: "string" },
      zip5: { type: "string" },
      rejects: { type: "string" },
      "replace-fips": { type: "string", multiple: true },
      help: { type: "boolean" },
    },
  });
  const { format, layout } = formatAndLayout(values.format, values.layout, values.mapping);
  if (values.inspect && positionals.length === 1 && !values.help) {
    const options = { format, layer: values.layer, output: values.output };
    process.stdout.write(await inspect(positionals[0]!, options));
    return 0;
  }
  if (values.help || values.inspect || !values.index || positionals.length === 0) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  const mappingFile = values.mapping
    ? parseMapping(JSON.parse(readFileSync(values.mapping, "utf8")))
    : undefined;
  const cli: Partial<Record<TextField, string>> = {};
  for (const field of ["fips", "state", "city", "zip5"] as const) {
    const value = values[field];
    if (value !== undefined) cli[field] = value;
  }
  const inputs: IngestInput[] = [];
  for (const file of positionals) {
    const mapping = mappingFile ?? layoutMapping(layout, format ?? (await detectFormat(file)));
    const constants = { ...mapping.constants, ...cli };
    inputs.push({ file, mapping: { ...mapping, constants }, format, layer: values.layer });
  }
  const replaceCounties = readCounties(values["replace-fips"] ?? []);
  if (typeof replaceCounties === "string") {
    process.stderr.write(`situs ingest: ${replaceCounties}\n`);
    return 2;
  }
  const needsParser = inputs.some((input) => input.mapping.columns.address !== undefined);
  const progress = new BulkProgress("situs ingest", undefined);
  const counted = new Map<string, number>();
  const report = await ingest({
    replaceCounties,
    ...(needsParser
      ? { parser: openParser(loadConfig(), (m) => process.stderr.write(`situs ingest: ${m}\n`)) }
      : {}),
    store: openBlobStore(values.index, s3Environment()),
    inputs,
    onProgress: (file: string, rows: number) => {
      progress.row("read", rows - (counted.get(file) ?? 0));
      counted.set(file, rows);
      progress.update();
    },
  });
  progress.done();
  if (values.rejects) {
    const line = (kind: string, r: Reject): string => csvLine([kind, r.file, String(r.line), r.reason]);
    const lines = [
      ...report.rejects.map((r) => line("rejected", r)),
      ...report.notes.map((r) => line("kept", r)),
    ];
    writeFileSync(values.rejects, ["kind,file,line,reason", ...lines, ""].join("\n"));
  }
  process.stdout.write(describeReport(report));
  return 0;
}

/**
 * The file format and the column layout from the command line. They are separate: a GeoJSON file
 * may hold OpenAddresses properties. `--format` also takes a layout name (canonical, openaddresses,
 * mapped), the older spelling of `--layout`.
 */
function formatAndLayout(
  format: string | undefined,
  layout: string | undefined,
  mapping: string | undefined,
): { format: SourceFormat | undefined; layout: Exclude<Layout, "mapped"> } {
  const isLayout = (value: string): value is Layout => (LAYOUTS as readonly string[]).includes(value);
  if (layout !== undefined && !isLayout(layout))
    throw new Error(`unknown layout "${layout}" (${LAYOUTS.join(", ")})`);
  let chosen = layout;
  if (format !== undefined && isLayout(format)) {
    if (chosen !== undefined && chosen !== format)
      throw new Error(`--format ${format} and --layout ${chosen} disagree`);
    chosen = format;
  } else if (format !== undefined && !isSourceFormat(format)) {
    throw new Error(
      `unknown format "${format}" (${SOURCE_FORMATS.join(", ")}; layouts: ${LAYOUTS.join(", ")})`,
    );
  }
  if (chosen === "mapped" && !mapping) throw new Error("the mapped layout needs --mapping FILE.json");
  if (mapping && chosen !== undefined && chosen !== "mapped")
    throw new Error(`--mapping and the ${chosen} layout are two column layouts: give one`);
  return {
    format: format !== undefined && isSourceFormat(format) ? format : undefined,
    layout: chosen === undefined || chosen === "mapped" ? "canonical" : chosen,
  };
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
