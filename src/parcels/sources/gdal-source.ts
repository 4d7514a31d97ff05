import type { ChildProcessByStdio } from "node:child_process";
import { execFile, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import { PREVIEW_FEATURES } from "./feature-record.js";
import type { FeatureFields } from "./feature-record.js";
import { featureLineBatches } from "./geojson-lines.js";
import { previewFeatureLines, recordHandler } from "./geojson-lines-source.js";
import type { RecordSource, SourceRecord } from "./record-source.js";

/**
 * Everything else GDAL reads (a File Geodatabase directory, GeoPackage, KML, FlatGeobuf, …), through
 * Debian's `ogr2ogr` (package gdal-bin): it writes the layer as GeoJSON text sequences, reprojected
 * to WGS84, to its standard output, which the GeoJSON-lines reader parses. The child process never
 * outlives the reading: it is killed when the reader stops early.
 */
export async function openGdal(file: string, layer?: string): Promise<RecordSource> {
  for (const tool of ["ogrinfo", "ogr2ogr"]) {
    if (!onPath(tool))
      throw new Error(
        `${file}: reading this format needs GDAL (${tool} is not on PATH): apt-get install gdal-bin`,
      );
  }
  const chosen = chooseLayer(file, await listLayers(file), layer);
  const preview = await previewLayer(file, chosen);
  const fields = preview.fields;
  return {
    file,
    format: "gdal",
    fields: fields.names,
    hasGeometry: preview.hasGeometry,
    crs: "reprojected to WGS 84 by ogr2ogr (-t_srs EPSG:4326)",
    geometryTypes: () => fields.geometryTypes(),
    batches: () => gdalBatches(file, chosen, fields),
  };
}

/** A GDAL layer: its name and geometry type as `ogrinfo` prints them. */
export interface GdalLayer {
  name: string;
  geometry: string;
}

/**
 * The layers of a dataset, from `ogrinfo -q -ro FILE` (GDAL 3.6 has no `-json` for vector
 * data; 3.7 added it): lines `1: name (Point)`, or `Layer: name (Multi Polygon)` for some drivers.
 */
export async function listLayers(file: string): Promise<GdalLayer[]> {
  const output = await new Promise<string>((resolve, reject) =>
    execFile("ogrinfo", ["-q", "-ro", file], { maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${file}: GDAL cannot open it: ${gdalMessage(stderr) || error.message}`))
        : resolve(stdout),
    ),
  );
  const layers: GdalLayer[] = [];
  for (const line of output.split("\n")) {
    const match = /^(?:\d+|Layer): (.+?)(?: \(([^()]*)\))?\s*$/.exec(line);
    if (match) layers.push({ name: match[1]!, geometry: match[2] ?? "None" });
  }
  if (layers.length === 0) throw new Error(`${file}: GDAL finds no layer in it`);
  return layers;
}

function chooseLayer(file: string, layers: GdalLayer[], layer?: string): string {
  const names = layers.map((l) => l.name);
  if (layer !== undefined) {
    if (!names.includes(layer)) throw new Error(`${file}: no layer "${layer}" (it has ${names.join(", ")})`);
    return layer;
  }
  if (names.length === 1) return names[0]!;
  throw new Error(
    `${file}: ${names.length} layers (${names.join(", ")}); name one with --layer (or "layer" in the mapping)`,
  );
}

async function previewLayer(
  file: string,
  layer: string,
): Promise<Awaited<ReturnType<typeof previewFeatureLines>>> {
  const child = new Ogr2ogr(file, layer, ["-limit", String(PREVIEW_FEATURES)]);
  try {
    return await previewFeatureLines(child.stdout);
  } finally {
    child.stop();
    await child.result();
  }
}

async function* gdalBatches(
  file: string,
  layer: string,
  fields: FeatureFields,
): AsyncGenerator<Iterable<SourceRecord>> {
  const child = new Ogr2ogr(file, layer, []);
  let complete = false;
  try {
    yield* featureLineBatches(child.stdout, recordHandler(fields));
    complete = true;
  } finally {
    if (!complete) child.stop();
  }
  await child.result();
}

/** One `ogr2ogr` run writing a layer as GeoJSONSeq to its standard output. */
class Ogr2ogr {
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly closed: Promise<{ code: number | null; error?: Error }>;
  private stopped = false;
  private stderr = "";

  constructor(
    private readonly file: string,
    layer: string,
    extra: string[],
  ) {
    const args = ["-f", "GeoJSONSeq", "/vsistdout/", "-t_srs", "EPSG:4326", ...extra, file, layer];
    this.child = spawn("ogr2ogr", args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => {
      this.stderr = (this.stderr + text).slice(-8192);
    });
    this.closed = new Promise((resolve) => {
      this.child.once("error", (error) => resolve({ code: null, error }));
      this.child.once("close", (code) => resolve({ code }));
    });
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  /** Ends the process when the reader no longer wants its output. */
  stop(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.stopped = true;
    this.child.kill("SIGTERM");
  }

  /** Waits for the end; a failure (not a stop) is an error naming the file and what GDAL said. */
  async result(): Promise<void> {
    const { code, error } = await this.closed;
    if (this.stopped) return;
    if (error)
      throw new Error(`${this.file}: cannot run ogr2ogr (${error.message}); GDAL: apt-get install gdal-bin`);
    if (code !== 0)
      throw new Error(
        `${this.file}: ogr2ogr failed (exit ${code}): ${gdalMessage(this.stderr) || "no message"}`,
      );
  }
}

/** GDAL's errors without its warnings and its list of drivers tried. */
function gdalMessage(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("Warning") && !line.startsWith("->"));
  return lines.slice(0, 5).join(" ");
}

/** Whether an executable of that name is on PATH. */
export function onPath(name: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
