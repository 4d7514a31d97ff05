import { createReadStream, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type { Readable } from "node:stream";
import * as shapefile from "shapefile";
import { readDbfHeader } from "./dbf-header.js";
import { FeatureFields } from "./feature-record.js";
import type { Projection } from "./projection.js";
import { projectionFromWkt } from "./projection.js";
import type { RecordSource, SourceRecord } from "./record-source.js";
import { ZipArchive } from "./zip-archive.js";

/** The files of one shapefile, from a directory or a zip: what opening needs, and a reading pass. */
interface ShapefileParts {
  /** The .shp, as messages name it. */
  where: string;
  shpHead: Buffer;
  dbfHead: Buffer;
  prj?: string;
  cpg?: string;
  /** Streams of the .shp and .dbf for one pass, and what releases them. */
  pass(): Promise<{ shp: Readable; dbf: Readable; done(): void }>;
}

/** The shapefile package's default DBF encoding (ESRI's, when no .cpg says otherwise). */
const DEFAULT_ENCODING = "windows-1252";
const BATCH = 1000;
/** Enough for any DBF header (255 fields of 32 bytes) and a .shp's 100-byte header. */
const HEAD_BYTES = 1 << 16;

/**
 * An ESRI Shapefile (`.shp` + `.dbf`, with `.shx`, `.prj`, `.cpg` beside them), or a `.zip` holding
 * one or more (`layer` picks one). Read with the `shapefile` package, a record at a time; the `.prj`
 * (OGC or ESRI WKT) goes to proj4 for the reprojection to WGS84, the `.cpg` names the DBF encoding.
 */
export async function openShapefile(file: string, layer?: string): Promise<RecordSource> {
  const parts = /\.zip$/i.test(file) ? await zippedParts(file, layer) : await fileParts(file);
  const encoding =
    parts.cpg !== undefined ? cpgEncoding(parts.cpg, `${parts.where} (.cpg)`) : DEFAULT_ENCODING;
  const decoder = new TextDecoder(encoding);
  const header = readDbfHeader(parts.dbfHead, (bytes) => decoder.decode(bytes), `${parts.where} (.dbf)`);
  const shapeType = readShapeType(parts.shpHead, parts.where);
  const projection: Projection =
    parts.prj !== undefined
      ? projectionFromWkt(parts.prj, `${parts.where} (.prj)`)
      : { description: "no .prj: coordinates read as WGS 84 longitude/latitude" };
  const fields = FeatureFields.of(header.fields);
  return {
    file,
    format: "shapefile",
    fields: fields.names,
    hasGeometry: shapeType !== 0,
    crs: projection.description,
    geometryTypes: () => fields.geometryTypes(),
    batches: () => shapefileBatches(parts, encoding, fields, projection),
  };
}

async function* shapefileBatches(
  parts: ShapefileParts,
  encoding: string,
  fields: FeatureFields,
  projection: Projection,
): AsyncGenerator<SourceRecord[]> {
  const pass = await parts.pass();
  try {
    const source = await shapefile.open(pass.shp, pass.dbf, { encoding });
    let line = 0;
    for (;;) {
      const batch: SourceRecord[] = [];
      while (batch.length < BATCH) {
        const next = await source.read().catch((error: Error) => {
          throw new Error(`${parts.where}: unreadable after feature ${line} (${error.message})`);
        });
        if (next.done) break;
        batch.push(fields.record(next.value, ++line, projection.transform));
      }
      if (batch.length > 0) yield batch;
      if (batch.length < BATCH) return;
    }
  } finally {
    pass.done();
  }
}

/** A .shp given by path (or its .dbf or .shx): its sibling files, matched without regard to case. */
async function fileParts(file: string): Promise<ShapefileParts> {
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const stem = basename(file, extname(file));
  const dir = dirname(file);
  const names = readdirSync(dir);
  const sibling = (ext: string): string | undefined => {
    const name = names.find((n) => n.toLowerCase() === `${stem}.${ext}`.toLowerCase());
    return name === undefined ? undefined : join(dir, name);
  };
  const shp = sibling("shp");
  const dbf = sibling("dbf");
  if (!shp) throw new Error(`${file}: no ${stem}.shp beside it (a shapefile is read from its .shp and .dbf)`);
  if (!dbf)
    throw new Error(
      `${shp}: the shapefile has no .dbf (its attributes): expected ${join(dir, `${stem}.dbf`)}`,
    );
  const prj = sibling("prj");
  const cpg = sibling("cpg");
  return {
    where: shp,
    shpHead: await head(createReadStream(shp, { end: HEAD_BYTES - 1 })),
    dbfHead: await head(createReadStream(dbf, { end: HEAD_BYTES - 1 })),
    ...(prj ? { prj: readFileSync(prj, "utf8") } : {}),
    ...(cpg ? { cpg: readFileSync(cpg, "utf8") } : {}),
    pass: () => {
      const streams = { shp: createReadStream(shp), dbf: createReadStream(dbf) };
      return Promise.resolve({ ...streams, done: () => (streams.shp.destroy(), streams.dbf.destroy()) });
    },
  };
}

/** A shapefile inside a zip, streamed from the archive; `layer` names it when the zip holds several. */
async function zippedParts(file: string, layer?: string): Promise<ShapefileParts> {
  const zip = await ZipArchive.open(file);
  try {
    const stemOf = (name: string): string => name.replace(/\.[^./]+$/, "");
    const layers = zip.entries.filter((e) => /\.shp$/i.test(e.fileName)).map((e) => stemOf(e.fileName));
    if (layers.length === 0) {
      const found = zip.entries.map((e) => e.fileName).slice(0, 10);
      throw new Error(
        `${file}: the zip holds no shapefile (found ${found.join(", ") || "nothing"}); --format gdal reads what GDAL reads`,
      );
    }
    const chosen = chooseLayer(file, layers, layer);
    const part = (ext: string) =>
      zip.entries.find((e) => e.fileName.toLowerCase() === `${chosen}.${ext}`.toLowerCase());
    const where = `${file}/${chosen}.shp`;
    const shp = part("shp")!;
    const dbf = part("dbf");
    if (!dbf) throw new Error(`${where}: the shapefile has no .dbf (its attributes) in the zip`);
    const prj = part("prj");
    const cpg = part("cpg");
    return {
      where,
      shpHead: await head(await zip.stream(shp)),
      dbfHead: await head(await zip.stream(dbf)),
      ...(prj ? { prj: (await zip.read(prj)).toString("utf8") } : {}),
      ...(cpg ? { cpg: (await zip.read(cpg)).toString("utf8") } : {}),
      pass: async () => {
        const archive = await ZipArchive.open(file);
        const entry = (name: string) => archive.entries.find((e) => e.fileName === name)!;
        const streams = {
          shp: await archive.stream(entry(shp.fileName)),
          dbf: await archive.stream(entry(dbf.fileName)),
        };
        return {
          ...streams,
          done: () => {
            streams.shp.destroy();
            streams.dbf.destroy();
            archive.close();
          },
        };
      },
    };
  } finally {
    zip.close();
  }
}

/** The layer to read: the only one, or the one `layer` names (its path in the zip or its file name). */
function chooseLayer(file: string, layers: string[], layer?: string): string {
  if (layer === undefined) {
    if (layers.length === 1) return layers[0]!;
    throw new Error(
      `${file}: the zip holds ${layers.length} shapefiles (${layers.join(", ")}); name one with --layer (or "layer" in the mapping)`,
    );
  }
  const wanted = layer.replace(/\.shp$/i, "").toLowerCase();
  const found = layers.find((l) => l.toLowerCase() === wanted || basename(l).toLowerCase() === wanted);
  if (found === undefined)
    throw new Error(`${file}: no layer "${layer}" in the zip (it holds ${layers.join(", ")})`);
  return found;
}

/** The first bytes of a stream (then it is closed). */
async function head(stream: Readable, bytes = HEAD_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= bytes) break;
  }
  stream.destroy();
  return Buffer.concat(chunks);
}

/** The shape type of a .shp header (file code 9994 big-endian at 0, shape type little-endian at 32). */
function readShapeType(shpHead: Buffer, where: string): number {
  if (shpHead.length < 100 || shpHead.readInt32BE(0) !== 9994)
    throw new Error(`${where}: not a shapefile (.shp)`);
  return shpHead.readInt32LE(32);
}

/**
 * The DBF encoding a `.cpg` names, as a WHATWG encoding label: code pages as Esri writes them
 * (`UTF-8`, `1252`, `ANSI 1252`, `88591`, `ISO-8859-1`). An encoding it cannot name is an error,
 * not a silent misreading of accented names.
 */
export function cpgEncoding(text: string, where: string): string {
  const label = text
    .trim()
    .toLowerCase()
    .replace(/^ansi\s*/, "");
  if (label === "65001" || label === "utf8") return "utf-8";
  const windows = /^(?:cp|windows-?)?(\d{3,4})$/.exec(label)?.[1];
  const iso = /^(?:iso[-_ ]?)?8859[-_]?(\d{1,2})$/.exec(label)?.[1];
  const name = windows
    ? windows === "866"
      ? "ibm866"
      : `windows-${windows}`
    : iso
      ? `iso-8859-${iso}`
      : label;
  try {
    new TextDecoder(name);
  } catch {
    throw new Error(`${where}: unknown encoding "${text.trim()}"`);
  }
  return name;
}
