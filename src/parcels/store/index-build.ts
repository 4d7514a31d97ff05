import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { compareIds, decodeUlid, encodeUlid } from "../format/binary-ulid.js";
import { CorruptBlobError, openBlob } from "../format/blob-envelope.js";
import type { BlobKind } from "../format/blob-envelope.js";
import type { BlobStore } from "./blob-store.js";
import type { ByteLru } from "./chunk-cache.js";
import { fiveDigitValue } from "../../places/place-words.js";
import { DecodedChunk } from "../format/chunk-format.js";
import { IdShard, LayerShard, shardOf } from "../format/id-directory.js";
import type { IdPlace } from "../format/id-directory.js";
import type { ParcelRecord } from "../lookup-types.js";
import type { BlobRef, ChunkRef, CurrentPointer, IdLayer, Manifest } from "../format/manifest.js";
import {
  baseKey,
  buildPrefix,
  chunkKeyCode,
  chunkPath,
  parseCurrent,
  parseManifest,
} from "../format/manifest.js";
import { PlaceDirectory, StreetDictionary } from "../format/street-dictionary.js";

/** A file of the build is missing from the store: the build cannot answer (503, not 404). */
export class MissingBlobError extends Error {
  override name = "MissingBlobError";
}

/** The pointer CURRENT holds (a build ID and its manifest's checksum), or undefined before any build. */
export async function readCurrent(store: BlobStore): Promise<CurrentPointer | undefined> {
  const pointerBytes = await store.get("CURRENT");
  return pointerBytes && parseCurrent(pointerBytes.toString("utf8"));
}

/**
 * One published build, read through the shared byte-bounded cache. Every file is checked against
 * the manifest (size, CRC-32) and its own envelope before it is decoded.
 */
export class IndexBuild {
  private streetDictionary: StreetDictionary | undefined;
  private placeDirectory: PlaceDirectory | undefined;
  private chunkIndexes: ChunkIndexes | undefined;
  private chunkKeys: string[] | undefined;
  private chunkCodes: Map<number, number> | undefined;
  private directory: { layers: IdLayer[]; byPosition: boolean } | undefined;

  constructor(
    private readonly store: BlobStore,
    readonly manifest: Manifest,
    private readonly cache: ByteLru,
  ) {}

  get buildId(): string {
    return this.manifest.buildId;
  }

  /** The build CURRENT names, or undefined when the store holds none yet. */
  static async openCurrent(store: BlobStore, cache: ByteLru): Promise<IndexBuild | undefined> {
    const pointer = await readCurrent(store);
    return pointer && IndexBuild.open(store, pointer, cache);
  }

  /** The build a pointer names, its manifest checked against the pointer's checksum. */
  static async open(store: BlobStore, pointer: CurrentPointer, cache: ByteLru): Promise<IndexBuild> {
    const manifestBytes = await store.get(`${buildPrefix(pointer.buildId)}/manifest.json`);
    if (!manifestBytes) throw new MissingBlobError(`build ${pointer.buildId}: manifest missing`);
    if (createHash("sha256").update(manifestBytes).digest("hex") !== pointer.manifestSha256) {
      throw new CorruptBlobError(`build ${pointer.buildId}: manifest checksum mismatch`);
    }
    return new IndexBuild(store, parseManifest(manifestBytes.toString("utf8"), pointer.buildId), cache);
  }

  private async read(ref: BlobRef, kind: BlobKind, build = this.buildId): Promise<Buffer> {
    const name = kind === "chunk" ? chunkPath(build, ref as ChunkRef) : `${buildPrefix(build)}/${ref.file}`;
    const blob = await this.store.get(name);
    if (!blob) throw new MissingBlobError(`${name}: missing`);
    if (blob.length !== ref.bytes || crc32(blob) !== ref.crc32) {
      throw new CorruptBlobError(`${name}: does not match the manifest`);
    }
    return openBlob(kind, blob, name);
  }

  /** A chunk already decoded in the cache, without a trip through the event loop. */
  cachedChunk(index: number): DecodedChunk | undefined {
    const key = this.chunkCacheKey(index);
    return key === undefined ? undefined : this.cache.peek<DecodedChunk>(key);
  }

  /** Cache keys of chunks, made once: a lookup asks for its chunk many thousand times a second. */
  private chunkCacheKey(index: number): string | undefined {
    return this.chunkCacheKeys()[index];
  }

  /**
   * The cache keys of every chunk, in manifest order: the file's own path in the store, so that a
   * chunk one build kept from an earlier one is one cache entry for both.
   */
  chunkCacheKeys(): readonly string[] {
    this.chunkKeys ??= this.manifest.chunks.map((ref) => chunkPath(this.buildId, ref));
    return this.chunkKeys;
  }

  /** The cache keys of every chunk and ID-directory shard of the build (files, by their paths). */
  fileCacheKeys(): string[] {
    const { layers } = this.idLayers();
    return [
      ...this.chunkCacheKeys(),
      ...layers.flatMap((layer) => layer.shards.map((ref) => `${buildPrefix(layer.build)}/${ref.file}`)),
    ];
  }

  async chunk(index: number): Promise<DecodedChunk> {
    const ref = this.manifest.chunks[index];
    if (!ref) throw new CorruptBlobError(`build ${this.buildId}: no chunk ${index}`);
    return this.cache.get(
      this.chunkCacheKey(index) ?? ref.file,
      async () => new DecodedChunk(await this.read(ref, "chunk")),
    );
  }

  /** The manifest positions of a ZIP's (or county's) chunks: one, its parts, or none. */
  chunksOf(key: string): number[] {
    this.chunkIndexes ??= new ChunkIndexes(this.manifest.chunks.map((chunk) => chunk.key));
    const first = this.chunkIndexes.indexOf(key);
    if (first < 0) return [];
    const parts = this.chunkIndexes.partsOf(key);
    return parts === 1 ? [first] : Array.from({ length: parts }, (_, part) => first + part);
  }

  async streets(): Promise<StreetDictionary> {
    this.streetDictionary ??= new StreetDictionary(await this.read(this.manifest.streets, "streets"));
    return this.streetDictionary;
  }

  /** The cities of the build's chunks; empty for a build written before it had them. */
  async places(): Promise<PlaceDirectory> {
    const ref = this.manifest.places;
    this.placeDirectory ??= ref ? new PlaceDirectory(await this.read(ref, "places")) : PlaceDirectory.empty();
    return this.placeDirectory;
  }

  /**
   * The layers of the ID directory, oldest first. A build of version 1 or 2 has one, whose entries
   * name chunks by position (`byPosition`).
   */
  idLayers(): { layers: IdLayer[]; byPosition: boolean } {
    const { idLayers, idShards } = this.manifest;
    this.directory ??= idLayers
      ? { layers: idLayers, byPosition: false }
      : { layers: [{ build: this.buildId, entries: 0, shards: idShards ?? [] }], byPosition: true };
    return this.directory;
  }

  /** Every shard of one layer, decoded (not cached: for a build that compacts the directory). */
  async *layerShards(layer: IdLayer): AsyncGenerator<LayerShard> {
    for (const ref of layer.shards) yield new LayerShard(await this.read(ref, "idLayer", layer.build));
  }

  /** Every shard of a version-1 or 2 directory, decoded (for the build that rewrites it as a layer). */
  async *legacyShards(): AsyncGenerator<IdShard> {
    for (const ref of this.manifest.idShards ?? []) yield new IdShard(await this.read(ref, "idShard"));
  }

  /** The manifest position of the chunk an ID directory entry names, or -1. */
  chunkOfEntry(chunk: number, byPosition: boolean): number {
    if (byPosition) return chunk < this.manifest.chunks.length ? chunk : -1;
    this.chunkCodes ??= new Map(this.manifest.chunks.map((ref, index) => [chunkKeyCode(ref.key), index]));
    return this.chunkCodes.get(chunk) ?? -1;
  }

  /**
   * Where a parcel's record is: the newest layer of the directory that has the ID (one shard),
   * then its chunk, whose row is checked to hold that ID.
   */
  async locate(id: Uint8Array): Promise<{ chunk: DecodedChunk; row: number } | undefined> {
    const { layers, byPosition } = this.idLayers();
    for (let at = layers.length - 1; at >= 0; at--) {
      const layer = layers[at]!;
      const ref = layer.shards[shardOf(id, layer.shards.length)];
      if (!ref) continue;
      const places = await this.placesIn(layer, ref, id, byPosition);
      for (const place of places) {
        const index = this.chunkOfEntry(place.chunk, byPosition);
        if (index < 0) continue;
        const chunk = await this.chunk(index);
        if (place.row < chunk.rows && compareIds(chunk.idBytes(place.row), 0, id, 0) === 0) {
          return { chunk, row: place.row };
        }
      }
    }
    return undefined;
  }

  /** The places one shard of a layer gives for an ID (its shard cached by file, shared by builds). */
  private async placesIn(
    layer: IdLayer,
    ref: BlobRef,
    id: Uint8Array,
    byPosition: boolean,
  ): Promise<IdPlace[]> {
    const key = `${buildPrefix(layer.build)}/${ref.file}`;
    if (byPosition) {
      const shard = await this.cache.get(
        key,
        async () => new IdShard(await this.read(ref, "idShard", layer.build)),
      );
      const place = shard.find(id);
      return place ? [place] : [];
    }
    const shard = await this.cache.get(
      key,
      async () => new LayerShard(await this.read(ref, "idLayer", layer.build)),
    );
    return shard.find(id);
  }

  /** The record of `adr_<ULID>`, or undefined when no parcel ever had it. */
  async findById(serviceId: string): Promise<ParcelRecord | undefined> {
    const id = decodeUlid(serviceId.slice(4));
    if (!id) return undefined;
    const place = await this.locate(id);
    return place ? parcelRecord(place.chunk, place.row) : undefined;
  }
}

const nullable = (value: string): string | null => (value === "" ? null : value);

/** SPEC.md "Parcel record" from a chunk row; a retired parcel answers as last known, `active`. */
export function parcelRecord(chunk: DecodedChunk, row: number): ParcelRecord {
  const building = chunk.buildingIdBytes(row);
  const superseded = chunk.status(row) === "superseded";
  const text = (field: Parameters<DecodedChunk["text"]>[1]): string | null =>
    nullable(chunk.text(row, field));
  return {
    status: superseded ? "superseded" : "active",
    service_id: `adr_${chunk.id(row)}`,
    superseded_by: superseded ? chunk.successorBytes(row).map((id) => `adr_${encodeUlid(id)}`) : [],
    building_id: building ? `bld_${encodeUlid(building)}` : null,
    apn: text("apn"),
    fips: text("fips"),
    lat: chunk.lat(row),
    lon: chunk.lon(row),
    addressNumber: text("addressNumber"),
    addressNumberSuffix: text("addressNumberSuffix"),
    predirectional: text("predirectional"),
    streetName: text("streetName"),
    streetSuffix: text("streetSuffix"),
    postdirectional: text("postdirectional"),
    occupancyId: text("occupancyId"),
    city: text("city"),
    state: text("state"),
    zip5: text("zip5"),
    zip4: text("zip4"),
  };
}

/**
 * Chunk positions by key: a ZIP (five digits, nearly every key and every lookup) is an index into
 * a table of all 100,000, one memory read where a Map of 42,000 keys hashes the query's fresh
 * string and probes; other keys (`c` + FIPS) are in a Map. A key split into parts (chunk-parts.ts)
 * has its parts right after it in key order: the table holds the first and the count.
 */
export class ChunkIndexes {
  private readonly byZip = new Int32Array(100_000).fill(-1);
  private readonly zipParts = new Uint16Array(100_000);
  private readonly byKey = new Map<string, { first: number; parts: number }>();

  constructor(keys: readonly string[]) {
    keys.forEach((key, index) => {
      const base = baseKey(key);
      const zip = fiveDigitValue(base);
      if (zip >= 0) {
        if (this.byZip[zip] === -1) this.byZip[zip] = index;
        this.zipParts[zip]!++;
      } else {
        const known = this.byKey.get(base);
        if (known) known.parts++;
        else this.byKey.set(base, { first: index, parts: 1 });
      }
    });
  }

  /** The position of a key's chunk (its first part), or -1. */
  indexOf(key: string): number {
    const zip = fiveDigitValue(key);
    return zip >= 0 ? this.byZip[zip]! : (this.byKey.get(key)?.first ?? -1);
  }

  /** How many chunks a key has: 1, its parts, or 0 when it has none. */
  partsOf(key: string): number {
    const zip = fiveDigitValue(key);
    return zip >= 0 ? this.zipParts[zip]! : (this.byKey.get(key)?.parts ?? 0);
  }
}
