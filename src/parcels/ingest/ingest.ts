import type { Parser } from "../../parse/parser.js";
import { UlidGenerator } from "../format/binary-ulid.js";
import type { BlobStore } from "../store/blob-store.js";
import { ByteLru } from "../store/chunk-cache.js";
import type { ColumnMapping } from "./column-mapping.js";
import { checkMappedFields } from "./column-mapping.js";
import { planRefresh } from "./county-refresh.js";
import type { Gazetteer } from "../../places/gazetteer.js";
import { nationalGazetteer } from "../../places/gazetteer.js";
import type { IdentityStats, PreviousState } from "./identity.js";
import { assignIdentities } from "./identity.js";
import { IndexBuild } from "../store/index-build.js";
import { BuildWriter, publishBuild } from "../store/index-writer.js";
import type { Manifest } from "../format/manifest.js";
import { idShardRefs } from "../format/manifest.js";
import type { ApnConflict } from "./parcel-groups.js";
import { ParcelGroups } from "./parcel-groups.js";
import type { IngestRow } from "../parcel-row.js";
import type { InferenceCounts, Note, Reject } from "./row-reader.js";
import { isReject, RowReader } from "./row-reader.js";
import type { SourceFormat } from "../sources/open-source.js";
import { openSource } from "../sources/open-source.js";
import type { StoredEntry } from "../parcel-row.js";

export interface IngestInput {
  file: string;
  mapping: ColumnMapping;
  /** The file's format (else the mapping's, else detected from the file). */
  format?: SourceFormat;
  /** The layer to read, for a zip of shapefiles or a GDAL dataset with several (else the mapping's). */
  layer?: string;
}

export interface BuildOptions {
  store: BlobStore;
  now?: () => number;
  /** Threads that compress index files beside the main thread (default: one per further core, up to 3; 0: none). */
  sealWorkers?: number;
  /** The most rows of a chunk before a ZIP is split into parts (chunk-parts.ts `PART_ROWS`). */
  partRows?: number;
}

export interface IngestOptions extends BuildOptions {
  inputs: IngestInput[];
  gazetteer?: Gazetteer;
  /** Splits whole-address columns (`columns.address`): Situs's own parser. */
  parser?: Parser;
  /**
   * Counties whose parcels the build replaces besides those with rows in the inputs
   * (`--replace-fips`): their parcels that are not in the inputs are gone (retired).
   */
  replaceCounties?: string[];
  /** Called every PROGRESS_EVERY rows and at the end of each file. */
  onProgress?: (file: string, rows: number) => void;
}

export interface FileReport {
  file: string;
  rows: number;
  accepted: number;
  rejected: number;
}

/** What a new build replaced, kept and wrote. */
export interface BuildReport {
  buildId: string;
  previousBuildId: string | null;
  /** The counties whose parcels this build replaced (or removed), ascending. */
  counties: string[];
  counts: Manifest["counts"];
  chunks: number;
  /** Chunks of the previous build kept as they are, and chunks written by this build. */
  keptChunks: number;
  writtenChunks: number;
  /** Bytes of the whole index, and of the files this build wrote. */
  bytes: number;
  bytesWritten: number;
  seconds: number;
  /** CPU seconds spent reading inputs, assigning identities (with the previous build), writing. */
  phases: Record<string, number>;
}

export interface IngestReport extends BuildReport {
  files: FileReport[];
  rows: number;
  rejected: number;
  rejects: Reject[];
  /** Rows kept with a value changed or dropped, with the reason. */
  notes: Note[];
  /** Different APNs of one county that share an identity key: kept apart, reported. */
  apnConflicts: ApnConflict[];
  parcels: number;
  aliases: number;
  inferred: InferenceCounts;
  identity: IdentityStats;
}

/** CPU seconds (all threads) since the previous call: wall time is not ours on a shared machine. */
function cpuClock(): () => number {
  let last = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    return (used.user + used.system) / 1e6;
  };
}

function elapsed(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

const PROGRESS_EVERY = 100_000;

/** What reading the inputs gathers. */
interface ReadState {
  gazetteer: Gazetteer;
  parser: Parser | undefined;
  groups: ParcelGroups;
  rejects: Reject[];
  notes: Note[];
  inferred: InferenceCounts;
  /** Chunk keys the new rows go to. */
  chunkKeys: Set<string>;
}

/**
 * `situs ingest`: reads the inputs, gives every parcel its identity against the published build
 * (if any), writes a new build and publishes it. The build replaces the parcels of the counties
 * in the inputs and keeps every other county as it was (county-refresh.ts). Rows that cannot be
 * used are rejected with file, line and reason; a row repeating another row of the same parcel is
 * rejected as a duplicate.
 */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const started = process.hrtime.bigint();
  const phase = cpuClock();
  const read: ReadState = {
    gazetteer: options.gazetteer ?? nationalGazetteer(),
    parser: options.parser,
    groups: new ParcelGroups(),
    rejects: [],
    notes: [],
    inferred: { zipFromCity: 0, zipFromCoordinates: 0, cityFromZip: 0 },
    chunkKeys: new Set(),
  };
  const files: FileReport[] = [];
  for (const input of options.inputs) files.push(await readFile(input, read, options.onProgress));
  const readSeconds = phase();
  const { groups, rejects } = read;
  const counties = new Set([...groups.counties(), ...(options.replaceCounties ?? [])]);
  let identity: IdentityStats | undefined;
  const build = await writeBuild(options, counties, read.chunkKeys, (previous, ids) => {
    const assigned = assignIdentities(groups, previous, ids);
    identity = assigned.stats;
    return assigned.entries;
  });
  const rows = files.reduce((sum, file) => sum + file.rows, 0);
  return {
    ...build,
    seconds: elapsed(started),
    phases: { read: readSeconds, ...build.phases },
    files,
    rows,
    rejected: rejects.length,
    rejects,
    notes: read.notes,
    apnConflicts: groups.conflicts,
    parcels: groups.size,
    aliases: rows - rejects.length - groups.size,
    inferred: read.inferred,
    identity: identity!,
  };
}

/**
 * `situs remove --fips`: a new build without the parcels of these counties (active, superseded and
 * retired alike: their IDs no longer answer), every other county kept as it was.
 */
export async function removeCounties(options: BuildOptions & { counties: string[] }): Promise<BuildReport> {
  const started = process.hrtime.bigint();
  const previous = await IndexBuild.openCurrent(options.store, new ByteLru(64 << 20));
  if (!previous) throw new Error(`no published build in ${options.store.url}`);
  const present = new Set(previous.manifest.chunks.flatMap((chunk) => chunk.counties ?? []));
  const absent = options.counties.filter((fips) => !present.has(fips));
  if (previous.manifest.chunks.every((chunk) => chunk.counties) && absent.length > 0) {
    throw new Error(`the index holds no parcels of county ${absent.join(", ")}`);
  }
  const report = await writeBuild(options, new Set(options.counties), new Set(), () => []);
  return { ...report, seconds: elapsed(started) };
}

/**
 * Writes and publishes a build that replaces `counties`: `replace` gives the entries of those
 * counties from their previous state; chunks holding none of them (and no new entries) are kept.
 */
async function writeBuild(
  options: BuildOptions,
  counties: ReadonlySet<string>,
  newKeys: ReadonlySet<string>,
  replace: (previous: PreviousState, ids: UlidGenerator) => StoredEntry[],
): Promise<BuildReport> {
  const started = process.hrtime.bigint();
  const phase = cpuClock();
  const previousBuild = await IndexBuild.openCurrent(options.store, new ByteLru(64 << 20));
  const plan = await planRefresh(previousBuild, counties, newKeys);
  const now = options.now ?? Date.now;
  const entries = replace(plan.previous, new UlidGenerator(now));
  const identitySeconds = phase();
  const writer = new BuildWriter(
    options.store,
    previousBuild?.buildId ?? null,
    now(),
    options.sealWorkers,
    undefined,
    options.partRows,
  );
  const fresh = groupByChunk([...entries, ...plan.carried]);
  const kept = plan.kept;
  let manifest: Manifest;
  try {
    let k = 0;
    for (const [key, chunk] of fresh) {
      while (k < kept.length && kept[k]!.ref.key < key) writer.keepChunk(kept[k++]!);
      await writer.addChunk(key, chunk);
    }
    while (k < kept.length) writer.keepChunk(kept[k++]!);
    if (previousBuild) await writer.keepIds(previousBuild);
    manifest = await writer.finish();
  } finally {
    writer.discard();
  }
  await publishBuild(options.store, manifest);
  const written = manifest.chunks.filter((chunk) => chunk.build === manifest.buildId);
  const sum = (refs: ReadonlyArray<{ bytes: number }>): number =>
    refs.reduce((total, ref) => total + ref.bytes, 0);
  const dictionaries = manifest.streets.bytes + (manifest.places?.bytes ?? 0);
  const layers = manifest.idLayers ?? [];
  const writtenIds = layers.filter((layer) => layer.build === manifest.buildId).flatMap((l) => l.shards);
  return {
    buildId: manifest.buildId,
    previousBuildId: manifest.previousBuildId,
    counties: [...counties].sort(),
    counts: manifest.counts,
    chunks: manifest.chunks.length,
    keptChunks: manifest.chunks.length - written.length,
    writtenChunks: written.length,
    bytes: sum(manifest.chunks) + sum(idShardRefs(manifest)) + dictionaries,
    bytesWritten: sum(written) + sum(writtenIds) + dictionaries,
    seconds: elapsed(started),
    phases: { identity: identitySeconds, write: phase() },
  };
}

async function readFile(
  input: IngestInput,
  state: ReadState,
  onProgress?: (file: string, rows: number) => void,
): Promise<FileReport> {
  const { gazetteer, groups, rejects, inferred } = state;
  const report: FileReport = { file: input.file, rows: 0, accepted: 0, rejected: 0 };
  const source = await openSource(input.file, {
    format: input.format ?? input.mapping.format,
    layer: input.layer ?? input.mapping.layer,
    delimiter: input.mapping.delimiter,
  });
  checkMappedFields(source, input.mapping);
  const reader = new RowReader(input.file, source.fields, input.mapping, gazetteer, { parser: state.parser });
  for await (const batch of source.batches()) {
    for (const record of batch) {
      report.rows++;
      const result = reader.read(record.line, record.fields, record.point, record.problem);
      const reject = isReject(result) ? result : addToGroup(groups, result, state.chunkKeys);
      if (reject) {
        rejects.push(reject);
        report.rejected++;
      } else report.accepted++;
      if (onProgress && report.rows % PROGRESS_EVERY === 0) onProgress(input.file, report.rows);
    }
  }
  onProgress?.(input.file, report.rows);
  for (const key of Object.keys(inferred) as Array<keyof InferenceCounts>)
    inferred[key] += reader.inferred[key];
  state.notes.push(...reader.notes);
  return report;
}

/** Adds a row to its parcel; answers a reject when the parcel already has this exact address. */
function addToGroup(groups: ParcelGroups, row: IngestRow, chunkKeys: Set<string>): Reject | undefined {
  const same = groups.add(row);
  if (!same) {
    chunkKeys.add(chunkKey(row));
    return undefined;
  }
  const reason =
    row.apn === ""
      ? `same address as line ${same.line} (without an APN a parcel is identified by its address)`
      : `duplicate of line ${same.line} (same parcel and address)`;
  return { file: row.file, line: row.line, reason };
}

/** Chunk key of an entry: its ZIP, or `c` + county FIPS when it has none. */
export function chunkKey(entry: { zip5: string; fips: string }): string {
  return entry.zip5 !== "" ? entry.zip5 : `c${entry.fips}`;
}

function groupByChunk(entries: StoredEntry[]): Map<string, StoredEntry[]> {
  const chunks = new Map<string, StoredEntry[]>();
  for (const entry of entries) {
    const key = chunkKey(entry);
    const list = chunks.get(key);
    if (list) list.push(entry);
    else chunks.set(key, [entry]);
  }
  return new Map([...chunks].sort(([a], [b]) => (a < b ? -1 : 1)));
}
