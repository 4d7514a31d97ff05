import { createHash } from "node:crypto";
import { encodeUlid, UlidGenerator } from "../format/binary-ulid.js";
import type { BlobKind } from "../format/blob-envelope.js";
import type { BlobStore } from "./blob-store.js";
import { ByteWriter } from "../format/byte-writer.js";
import { ChunkColumns } from "../format/chunk-columns.js";
import { encodeColumns } from "../format/chunk-format.js";
import { chunkParts, PART_ROWS } from "../format/chunk-parts.js";
import { IdCollector, IdRecords, recordChunk, shardCountFor } from "../format/id-directory.js";
import type { IdCollectorOptions } from "../format/id-directory.js";
import type {
  BlobRef,
  BuildCounts,
  ChunkCounts,
  ChunkRef,
  CurrentPointer,
  IdLayer,
  Manifest,
} from "../format/manifest.js";
import {
  buildPrefix,
  chunkKeyCode,
  MANIFEST_FORMAT,
  MANIFEST_VERSION,
  parseManifest,
} from "../format/manifest.js";
import type { IndexBuild } from "./index-build.js";
import type { StoredEntry } from "../parcel-row.js";
import { SealPool } from "./seal-pool.js";
import { encodeStreetDictionary, placeKey } from "../format/street-dictionary.js";

/** How many builds publishing keeps (the new one and its predecessors) for readers still on them. */
export const KEPT_BUILDS = 3;
const PARALLEL_WRITES = 8;
/**
 * Layers of the ID directory a build may have. A build that would have more writes one layer for
 * the whole index instead (compaction), so a lookup by ID reads at most this many shards.
 */
export const MAX_ID_LAYERS = 6;
const NONE: ReadonlySet<number> = new Set();

/** A chunk of an earlier build that a new build keeps as it is (its file is not rewritten). */
export interface KeptChunk {
  ref: ChunkRef;
  /** The build whose manifest lists it, and its position there. */
  fromBuild: string;
  fromIndex: number;
  streets: string[];
  places: string[];
}

/**
 * Writes one immutable build: chunks in key order (new ones encoded, kept ones referenced in the
 * earlier build's folder), then the ID directory, the street and places dictionaries and the
 * manifest; `publish` then points `CURRENT` at it. Nothing a reader can see changes until that
 * last single write, so a build that fails half-way is never served.
 *
 * The ID directory gets one new layer holding the parcels of the chunks this build wrote; the
 * layers of the earlier build are kept as they are (`keepIds`) until there would be more than
 * MAX_ID_LAYERS, when the new layer holds every parcel instead.
 */
export class BuildWriter {
  readonly buildId: string;
  private readonly chunks: ChunkRef[] = [];
  private readonly chunkStreets: string[][] = [];
  private readonly chunkPlaces: string[][] = [];
  /** Key codes of the chunks kept from the earlier build, and keys of the chunks written. */
  private readonly keptCodes = new Set<number>();
  private readonly writtenKeys: string[] = [];
  /** Layers of the earlier build's ID directory this build keeps as they are. */
  private inheritedLayers: IdLayer[] = [];
  private readonly ids: IdCollector;
  private readonly pending = new Set<Promise<void>>();
  private readonly seals: SealPool;
  /** The first failure of a file being sealed or stored, thrown by the next write or by finish. */
  private failure: { error: unknown } | undefined;
  private readonly counts: BuildCounts = {
    parcels: 0,
    entries: 0,
    active: 0,
    superseded: 0,
    retired: 0,
    buildings: 0,
  };
  /** Reused for every chunk: a payload is compressed (copied) before the next is encoded. */
  private readonly chunkBytes = new ByteWriter();
  private readonly columns = new ChunkColumns();

  constructor(
    private readonly store: BlobStore,
    private readonly previousBuildId: string | null,
    now = Date.now(),
    /** Threads that compress files beside the main thread (default: one per further core, up to 3). */
    sealWorkers?: number,
    /** Memory for the ID directory before it spills to temporary files. */
    idOptions?: IdCollectorOptions,
    /** The most rows of a chunk before a ZIP is split into parts (chunk-parts.ts). */
    private readonly partRows = PART_ROWS,
  ) {
    this.ids = new IdCollector(idOptions);
    this.seals = new SealPool(sealWorkers);
    this.buildId = `b_${encodeUlid(new UlidGenerator(() => now).next())}`;
  }

  /** Adds the chunks of one ZIP (or county): one, or its parts when it is large. Keys come in order. */
  async addChunk(key: string, entries: readonly StoredEntry[]): Promise<void> {
    for (const part of chunkParts(key, entries, this.partRows)) {
      this.checkOrder(part.key);
      const chunk = encodeChunk(part.key, part.entries, this.columns, this.chunkBytes);
      const ref = this.addEncoded(chunk);
      await this.write(ref, "chunk", chunk.payload);
    }
  }

  /**
   * Adds a chunk encoded and stored elsewhere (another thread of this build): `chunk` as
   * encodeChunk answered it, its file already at `chunks/<key>.bin` of this build's folder with
   * the given size and CRC-32. Chunks come in key order.
   */
  addStoredChunk(chunk: Omit<EncodedChunk, "payload">, stored: { bytes: number; crc32: number }): void {
    this.checkOrder(chunk.key);
    Object.assign(this.addEncoded(chunk), stored);
  }

  private addEncoded(chunk: Omit<EncodedChunk, "payload">): ChunkRef {
    this.chunkStreets.push(chunk.streets);
    this.chunkPlaces.push(chunk.places);
    this.ids.addRecords(chunk.idRecords);
    const ref: ChunkRef = {
      key: chunk.key,
      rows: chunk.rows,
      file: `chunks/${chunk.key}.bin`,
      bytes: 0,
      crc32: 0,
      build: this.buildId,
      counties: chunk.counties,
      counts: chunk.counts,
    };
    this.writtenKeys.push(chunk.key);
    this.addRef(ref);
    return ref;
  }

  /**
   * Keeps a chunk of an earlier build as it is. Its parcels' places in the ID directory come from
   * that build's directory (`keepIds`), its counts from its manifest entry.
   */
  keepChunk(kept: KeptChunk): void {
    const { ref } = kept;
    if (!ref.counts) throw new Error(`chunk ${ref.key}: a chunk without counts cannot be kept`);
    this.checkOrder(ref.key);
    this.keptCodes.add(chunkKeyCode(ref.key));
    this.chunkStreets.push(kept.streets);
    this.chunkPlaces.push(kept.places);
    this.addRef({ ...ref, build: ref.build ?? kept.fromBuild });
  }

  /**
   * The ID directory entries of the kept chunks, once every chunk has been added: the earlier
   * build's layers as they are, or (a version-2 build, or one with MAX_ID_LAYERS layers already)
   * its live entries of kept chunks copied into this build's layer.
   */
  async keepIds(previous: IndexBuild): Promise<void> {
    if (this.keptCodes.size === 0) return;
    const { layers, byPosition } = previous.idLayers();
    if (!byPosition && layers.length < MAX_ID_LAYERS) {
      this.inheritedLayers = layers;
      return;
    }
    const live = (code: number | undefined, shadowed: ReadonlySet<number>): code is number =>
      code !== undefined && this.keptCodes.has(code) && !shadowed.has(code);
    if (byPosition) {
      const codeAt = previous.manifest.chunks.map((ref) => chunkKeyCode(ref.key));
      for await (const shard of previous.legacyShards()) {
        shard.forEach((ids, offset, chunk, row) => {
          const code = codeAt[chunk];
          if (live(code, NONE)) this.ids.add(ids, code, row, offset);
        });
      }
      return;
    }
    // Codes of chunks a newer layer covers: an older layer's entries for them are out of date.
    const shadowed = new Set<number>();
    for (let at = layers.length - 1; at >= 0; at--) {
      const layer = layers[at]!;
      for await (const shard of previous.layerShards(layer)) {
        shard.forEachRecord((record) => {
          if (live(recordChunk(record), shadowed)) this.ids.addRecords(record);
        });
      }
      if (!layer.keys) break;
      for (const key of layer.keys) shadowed.add(chunkKeyCode(key));
    }
  }

  private checkOrder(key: string): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last && last.key >= key)
      throw new Error(`chunk ${key} added after ${last.key}: chunks come in key order`);
  }

  private addRef(ref: ChunkRef): void {
    this.chunks.push(ref);
    const counts = ref.counts!;
    this.counts.entries += ref.rows;
    this.counts.parcels += counts.parcels;
    this.counts.active += counts.active;
    this.counts.superseded += counts.superseded;
    this.counts.retired += counts.retired;
    this.counts.buildings += counts.buildings;
  }

  /**
   * Seals and stores one file, filling in `ref`'s size and CRC-32 once it is sealed; returns when
   * fewer than PARALLEL_WRITES files are in flight. `payload` may be reused once this returns.
   */
  private async write(ref: BlobRef, kind: BlobKind, payload: Buffer): Promise<void> {
    const stored = this.seals.seal(kind, payload).then(({ blob, crc32 }) => {
      ref.bytes = blob.length;
      ref.crc32 = crc32;
      return this.store.put(`${buildPrefix(this.buildId)}/${ref.file}`, blob);
    });
    const tracked: Promise<void> = stored.then(
      () => void this.pending.delete(tracked),
      (error: unknown) => {
        this.pending.delete(tracked);
        this.failure ??= { error };
      },
    );
    this.pending.add(tracked);
    while (this.pending.size >= PARALLEL_WRITES) await Promise.race(this.pending);
    if (this.failure) throw this.failure.error;
  }

  /** Removes what a build abandoned half-way leaves behind (the ID directory's spill files). */
  discard(): void {
    this.ids.discard();
  }

  /** Writes the directory, dictionary and manifest; answers the manifest (not yet published). */
  async finish(): Promise<Manifest> {
    const shardCount = shardCountFor(this.ids.size);
    const idShards: BlobRef[] = new Array<BlobRef>(shardCount);
    for (const { shard, payload } of this.ids.shards(shardCount, this.chunkBytes)) {
      const ref = { file: `ids/${String(shard).padStart(5, "0")}.bin`, bytes: 0, crc32: 0 };
      idShards[shard] = ref;
      await this.write(ref, "idLayer", payload);
    }
    const inherited = this.inheritedLayers;
    const layer: IdLayer = { build: this.buildId, entries: this.ids.size, shards: idShards };
    if (inherited.length > 0) layer.keys = this.writtenKeys;
    const streets = { file: "streets.bin", bytes: 0, crc32: 0 };
    await this.write(streets, "streets", encodeStreetDictionary(this.chunkStreets));
    const places = { file: "places.bin", bytes: 0, crc32: 0 };
    await this.write(places, "places", encodeStreetDictionary(this.chunkPlaces));
    await Promise.all(this.pending);
    await this.seals.close();
    if (this.failure) throw this.failure.error;
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: MANIFEST_VERSION,
      buildId: this.buildId,
      createdAt: new Date().toISOString(),
      previousBuildId: this.previousBuildId,
      counts: { ...this.counts },
      chunks: this.chunks,
      idLayers: [...inherited, layer],
      streets,
      places,
    };
    await this.store.put(`${buildPrefix(this.buildId)}/manifest.json`, Buffer.from(manifestText(manifest)));
    return manifest;
  }
}

/** One chunk encoded, with what the build's manifest, dictionaries and ID directory take from it. */
export interface EncodedChunk {
  key: string;
  rows: number;
  /** The chunk file's payload (not yet sealed); valid until the next chunk is encoded into `out`. */
  payload: Buffer;
  streets: string[];
  places: string[];
  counties: string[];
  counts: ChunkCounts;
  /** The chunk's parcels for the ID directory: 16-byte records (IdCollector's). */
  idRecords: Uint8Array;
}

/**
 * Encodes one chunk (a ZIP, a county, or a part of one: chunk-parts.ts), reusing `columns` and
 * `out` from chunk to chunk: what a build writer does with each chunk, and what another thread of
 * a build can do beside it.
 */
export function encodeChunk(
  key: string,
  entries: readonly StoredEntry[],
  columns = new ChunkColumns(),
  out = new ByteWriter(),
): EncodedChunk {
  columns.read(entries);
  const { counts, idRecords } = chunkParcels(columns, chunkKeyCode(key));
  return {
    key,
    rows: entries.length,
    streets: streetsOf(columns),
    places: placesOf(columns),
    counties: countiesOf(columns),
    counts,
    idRecords,
    payload: encodeColumns(columns, out),
  };
}

/** The chunk's parcels (its rows that are no alias) as ID directory records, and their counts. */
function chunkParcels(columns: ChunkColumns, code: number): { counts: ChunkCounts; idRecords: Uint8Array } {
  const counts: ChunkCounts = { parcels: 0, active: 0, superseded: 0, retired: 0, buildings: 0 };
  const records = new IdRecords(columns.rows);
  // A building is one situs, so within one ZIP: counted per chunk, summed per build.
  const buildings = new Uint8Array(columns.buildingIds.length + 1);
  for (let row = 0; row < columns.rows; row++) {
    if (columns.isAlias(row)) continue;
    records.add(columns.ids, row * 16, code, row);
    counts.parcels++;
    // By name, not `counts[status]`: a keyed update per parcel is a slow path in V8.
    const status = columns.status(row);
    if (status === "active") {
      counts.active++;
      buildings[columns.buildings[row]!] = 1;
    } else if (status === "superseded") counts.superseded++;
    else counts.retired++;
  }
  for (let building = 1; building < buildings.length; building++) counts.buildings += buildings[building]!;
  return { counts, idRecords: records.result() };
}

/** The street names of a chunk, in its order (rows are sorted by street name). */
function streetsOf(columns: ChunkColumns): string[] {
  const names = columns.column("streetName");
  const streets: string[] = [];
  for (let row = 0, last = 0; row < columns.rows; row++) {
    const name = names[row]!;
    if (name !== 0 && name !== last) streets.push(columns.strings[(last = name)]!);
  }
  return streets;
}

/** The places (`STATE|CITY`) of a chunk's entries, ascending. */
function placesOf(columns: ChunkColumns): string[] {
  const cities = columns.column("city");
  const states = columns.column("state");
  const places = new Set<string>();
  // Sorted by street, a chunk's rows mostly repeat one city: a key is made where the city changes.
  for (let row = 0, last = 0; row < columns.rows; row++) {
    const city = cities[row]!;
    if (city !== 0 && city !== last)
      places.add(placeKey(columns.strings[states[row]!]!, columns.strings[(last = city)]!));
  }
  return [...places].sort();
}

/** The FIPS codes of a chunk's entries, ascending. */
function countiesOf(columns: ChunkColumns): string[] {
  const fips = columns.column("fips");
  const counties = new Set<string>();
  for (let row = 0, last = -1; row < columns.rows; row++) {
    if (fips[row] !== last) counties.add(columns.strings[(last = fips[row]!)]!);
  }
  return [...counties].sort();
}

export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 1)}\n`;
}

/** Points CURRENT at a finished build (one atomic write), then prunes builds beyond KEPT_BUILDS. */
export async function publishBuild(store: BlobStore, manifest: Manifest): Promise<void> {
  const sha = createHash("sha256").update(manifestText(manifest)).digest("hex");
  const pointer: CurrentPointer = { buildId: manifest.buildId, manifestSha256: sha };
  await store.put("CURRENT", Buffer.from(`${JSON.stringify(pointer)}\n`));
  await pruneBuilds(store, manifest.buildId);
}

/**
 * Deletes the files of builds beyond the newest KEPT_BUILDS, except the chunk files a kept build
 * still names (a build keeps the chunks of counties it did not refresh from earlier builds).
 */
async function pruneBuilds(store: BlobStore, current: string): Promise<void> {
  const keys = await store.list("builds/");
  const builds = [...new Set(keys.map((key) => key.split("/")[1] ?? ""))].filter((id) => id !== "").sort();
  const cut = Math.max(0, builds.length - KEPT_BUILDS);
  const stale = builds.slice(0, cut).filter((id) => id !== current);
  if (stale.length === 0) return;
  const referenced = new Set<string>();
  for (const id of [...builds.slice(cut), current]) {
    const bytes = await store.get(`${buildPrefix(id)}/manifest.json`);
    if (!bytes) continue;
    const manifest = parseManifest(bytes.toString("utf8"), id);
    for (const chunk of manifest.chunks) referenced.add(`${buildPrefix(chunk.build ?? id)}/${chunk.file}`);
    for (const layer of manifest.idLayers ?? []) {
      for (const shard of layer.shards) referenced.add(`${buildPrefix(layer.build)}/${shard.file}`);
    }
  }
  const prefixes = stale.map((id) => `${buildPrefix(id)}/`);
  await store.delete(
    keys.filter((key) => prefixes.some((prefix) => key.startsWith(prefix)) && !referenced.has(key)),
  );
}
