import { UlidGenerator } from "./binary-ulid.js";
import type { BlobStore } from "./blob-store.js";
import { ByteLru } from "./chunk-cache.js";
import type { ColumnMapping } from "./column-mapping.js";
import { checkMappedFields } from "./column-mapping.js";
import type { Gazetteer } from "./gazetteer.js";
import { nationalGazetteer } from "./gazetteer.js";
import type { IdentityStats, PreviousState } from "./identity.js";
import { assignIdentities, emptyPreviousState } from "./identity.js";
import { IndexBuild } from "./index-build.js";
import { BuildWriter, publishBuild } from "./index-writer.js";
import type { Manifest } from "./manifest.js";
import { ParcelGroups } from "./parcel-groups.js";
import type { IngestRow } from "./parcel-row.js";
import { addressKey, identityKey, situsKey } from "./parcel-row.js";
import type { InferenceCounts, Reject } from "./row-reader.js";
import { RowReader } from "./row-reader.js";
import type { SourceFormat } from "./sources/open-source.js";
import { openSource } from "./sources/open-source.js";
import type { StoredEntry } from "./stored-entry.js";

export interface IngestInput {
  file: string;
  mapping: ColumnMapping;
  /** The file's format (else the mapping's, else detected from the file). */
  format?: SourceFormat;
  /** The layer to read, for a zip of shapefiles or a GDAL dataset with several (else the mapping's). */
  layer?: string;
}

export interface IngestOptions {
  store: BlobStore;
  inputs: IngestInput[];
  gazetteer?: Gazetteer;
  /** Called every PROGRESS_EVERY rows and at the end of each file. */
  onProgress?: (file: string, rows: number) => void;
  now?: () => number;
  /** Threads that compress index files beside the main thread (default: one per further core, up to 3; 0: none). */
  sealWorkers?: number;
}

export interface FileReport {
  file: string;
  rows: number;
  accepted: number;
  rejected: number;
}

export interface IngestReport {
  buildId: string;
  previousBuildId: string | null;
  files: FileReport[];
  rows: number;
  rejected: number;
  rejects: Reject[];
  parcels: number;
  aliases: number;
  inferred: InferenceCounts;
  identity: IdentityStats;
  counts: Manifest["counts"];
  chunks: number;
  bytes: number;
  seconds: number;
  /** CPU seconds spent reading inputs, assigning identities (with the previous build), writing. */
  phases: Record<string, number>;
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

/**
 * `situs ingest`: reads the inputs, gives every parcel its identity against the published build
 * (if any), writes a new build and publishes it. Rows that cannot be used are rejected with file,
 * line and reason; a row repeating another row of the same parcel is rejected as a duplicate.
 */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const started = process.hrtime.bigint();
  const phase = cpuClock();
  const gazetteer = options.gazetteer ?? nationalGazetteer();
  const groups = new ParcelGroups();
  const rejects: Reject[] = [];
  const inferred: InferenceCounts = { zipFromCity: 0, zipFromCoordinates: 0, cityFromZip: 0 };
  const files: FileReport[] = [];
  for (const input of options.inputs) {
    files.push(await readFile(input, gazetteer, groups, rejects, inferred, options.onProgress));
  }
  const phases: Record<string, number> = { read: phase() };
  const previousBuild = await IndexBuild.openCurrent(options.store, new ByteLru(64 << 20));
  const previous = previousBuild ? await readPreviousState(previousBuild) : emptyPreviousState();
  const now = options.now ?? Date.now;
  const { entries, stats } = assignIdentities(groups, previous, new UlidGenerator(now));
  phases.identity = phase();
  const writer = new BuildWriter(options.store, previousBuild?.buildId ?? null, now(), options.sealWorkers);
  for (const [key, chunk] of groupByChunk(entries)) await writer.addChunk(key, chunk);
  const manifest = await writer.finish();
  await publishBuild(options.store, manifest);
  phases.write = phase();
  const rows = files.reduce((sum, file) => sum + file.rows, 0);
  return {
    buildId: manifest.buildId,
    previousBuildId: manifest.previousBuildId,
    files,
    rows,
    rejected: rejects.length,
    rejects,
    parcels: groups.size,
    aliases: rows - rejects.length - groups.size,
    inferred,
    identity: stats,
    counts: manifest.counts,
    chunks: manifest.chunks.length,
    bytes:
      manifest.chunks.reduce((sum, chunk) => sum + chunk.bytes, 0) +
      manifest.idShards.reduce((sum, s) => sum + s.bytes, 0) +
      manifest.streets.bytes,
    seconds: elapsed(started),
    phases,
  };
}

async function readFile(
  input: IngestInput,
  gazetteer: Gazetteer,
  groups: ParcelGroups,
  rejects: Reject[],
  inferred: InferenceCounts,
  onProgress?: (file: string, rows: number) => void,
): Promise<FileReport> {
  const report: FileReport = { file: input.file, rows: 0, accepted: 0, rejected: 0 };
  const source = await openSource(input.file, {
    format: input.format ?? input.mapping.format,
    layer: input.layer ?? input.mapping.layer,
    delimiter: input.mapping.delimiter,
  });
  checkMappedFields(source, input.mapping);
  const reader = new RowReader(input.file, source.fields, input.mapping, gazetteer);
  for await (const batch of source.batches()) {
    for (const record of batch) {
      report.rows++;
      const result = reader.read(record.line, record.fields, record.point, record.problem);
      const reject = "reject" in result ? result.reject : addToGroup(groups, result.row);
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
  return report;
}

/** Adds a row to its parcel; answers a reject when the parcel already has this exact address. */
function addToGroup(groups: ParcelGroups, row: IngestRow): Reject | undefined {
  const same = groups.add(row);
  if (!same) return undefined;
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

/** Every parcel of a build with its addresses, and its buildings, for the next build's identities. */
export async function readPreviousState(build: IndexBuild): Promise<PreviousState> {
  const state: PreviousState = { parcels: new Map(), superseded: [], buildings: new Map() };
  const aliases: Array<[string, string]> = [];
  for (let index = 0; index < build.manifest.chunks.length; index++) {
    const chunk = await build.chunk(index);
    for (let row = 0; row < chunk.rows; row++) {
      const entry = chunk.storedEntry(row);
      const key = identityKey(entry);
      if (entry.status === "superseded") state.superseded.push(entry);
      else if (entry.alias) aliases.push([key, addressKey(entry)]);
      else state.parcels.set(key, { record: entry, addresses: entry.streetName ? [addressKey(entry)] : [] });
      if (entry.buildingId && entry.status === "active")
        state.buildings.set(situsKey(entry), entry.buildingId);
    }
  }
  for (const [key, address] of aliases) state.parcels.get(key)?.addresses.push(address);
  return state;
}
