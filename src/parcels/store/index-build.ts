import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { decodeUlid, encodeUlid } from "../format/binary-ulid.js";
import { CorruptBlobError, openBlob } from "../format/blob-envelope.js";
import type { BlobKind } from "../format/blob-envelope.js";
import type { BlobStore } from "./blob-store.js";
import type { ByteLru } from "./chunk-cache.js";
import { DecodedChunk } from "../format/chunk-format.js";
import { IdShard, shardOf } from "../format/id-directory.js";
import type { ParcelRecord } from "../lookup-types.js";
import type { BlobRef, ChunkRef, CurrentPointer, Manifest } from "../format/manifest.js";
import { buildPrefix, chunkPath, parseCurrent, parseManifest } from "../format/manifest.js";
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
  private chunkIndexes: Map<string, number> | undefined;
  private chunkKeys: string[] | undefined;

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

  private async read(ref: BlobRef, kind: BlobKind): Promise<Buffer> {
    const name =
      kind === "chunk"
        ? chunkPath(this.buildId, ref as ChunkRef)
        : `${buildPrefix(this.buildId)}/${ref.file}`;
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

  async chunk(index: number): Promise<DecodedChunk> {
    const ref = this.manifest.chunks[index];
    if (!ref) throw new CorruptBlobError(`build ${this.buildId}: no chunk ${index}`);
    return this.cache.get(
      this.chunkCacheKey(index) ?? ref.file,
      async () => new DecodedChunk(await this.read(ref, "chunk")),
    );
  }

  /** The manifest position of a chunk key (`94103`), or -1. */
  chunkIndexOf(key: string): number {
    this.chunkIndexes ??= new Map(this.manifest.chunks.map((chunk, index) => [chunk.key, index]));
    return this.chunkIndexes.get(key) ?? -1;
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

  /** Every (parcel ID, chunk, row) of the ID directory, shard by shard. */
  async *idEntries(): AsyncGenerator<IdShard> {
    for (const ref of this.manifest.idShards) yield new IdShard(await this.read(ref, "idShard"));
  }

  /** Where a parcel's record is: one shard, then one chunk. */
  async locate(id: Uint8Array): Promise<{ chunk: DecodedChunk; row: number } | undefined> {
    const shards = this.manifest.idShards;
    const ref = shards[shardOf(id, shards.length)];
    if (!ref) return undefined;
    const shard = await this.cache.get(
      `${this.buildId}/${ref.file}`,
      async () => new IdShard(await this.read(ref, "idShard")),
    );
    const place = shard.find(id);
    if (!place) return undefined;
    return { chunk: await this.chunk(place.chunk), row: place.row };
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
