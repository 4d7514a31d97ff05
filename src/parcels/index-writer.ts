import { createHash } from "node:crypto";
import { encodeUlid, UlidGenerator } from "./binary-ulid.js";
import { FORMAT_VERSION } from "./blob-envelope.js";
import type { BlobKind } from "./blob-envelope.js";
import type { BlobStore } from "./blob-store.js";
import { ByteWriter } from "./byte-writer.js";
import { encodeChunk } from "./chunk-format.js";
import { IdCollector, shardCountFor } from "./id-directory.js";
import type { BlobRef, BuildCounts, ChunkRef, CurrentPointer, Manifest } from "./manifest.js";
import { buildPrefix, MANIFEST_FORMAT } from "./manifest.js";
import type { StoredEntry } from "./stored-entry.js";
import { SealPool } from "./seal-pool.js";
import { sortEntries } from "./stored-entry.js";
import { encodeStreetDictionary } from "./street-dictionary.js";

/** How many builds publishing keeps (the new one and its predecessors) for readers still on them. */
export const KEPT_BUILDS = 3;
const PARALLEL_WRITES = 8;

/**
 * Writes one immutable build: chunks as they come, then the ID directory, the street dictionary
 * and the manifest; `publish` then points `CURRENT` at it. Nothing a reader can see changes until
 * that last single write, so a build that fails half-way is never served.
 */
export class BuildWriter {
  readonly buildId: string;
  private readonly chunks: ChunkRef[] = [];
  private readonly chunkStreets: string[][] = [];
  private readonly ids = new IdCollector();
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
  private readonly buildings = new Set<string>();
  /** Reused for every chunk: a payload is compressed (copied) before the next is encoded. */
  private readonly chunkBytes = new ByteWriter();

  constructor(
    private readonly store: BlobStore,
    private readonly previousBuildId: string | null,
    now = Date.now(),
    /** Threads that compress files beside the main thread (default: one per further core, up to 3). */
    sealWorkers?: number,
  ) {
    this.seals = new SealPool(sealWorkers);
    this.buildId = `b_${encodeUlid(new UlidGenerator(() => now).next())}`;
  }

  /** Adds the chunk of one ZIP (or county); sorts its entries in place. */
  async addChunk(key: string, entries: StoredEntry[]): Promise<void> {
    sortEntries(entries);
    const index = this.chunks.length;
    const streets: string[] = [];
    let lastStreet = "";
    for (let row = 0; row < entries.length; row++) {
      const entry = entries[row]!;
      if (!entry.alias) this.countParcel(entry, index, row);
      if (entry.streetName !== "" && entry.streetName !== lastStreet)
        streets.push((lastStreet = entry.streetName));
    }
    this.counts.entries += entries.length;
    this.chunkStreets.push(streets);
    const ref: ChunkRef = { key, rows: entries.length, file: `chunks/${key}.bin`, bytes: 0, crc32: 0 };
    this.chunks.push(ref);
    await this.write(ref, "chunk", encodeChunk(entries, this.chunkBytes));
  }

  private countParcel(entry: StoredEntry, chunk: number, row: number): void {
    this.ids.add(entry.id, chunk, row);
    this.counts.parcels++;
    // By name, not `counts[entry.status]`: a keyed update per parcel is a slow path in V8.
    if (entry.status === "active") this.counts.active++;
    else if (entry.status === "superseded") this.counts.superseded++;
    else this.counts.retired++;
    if (entry.buildingId && entry.status === "active")
      this.buildings.add(Buffer.from(entry.buildingId).toString("hex"));
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

  /** Writes the directory, dictionary and manifest; answers the manifest (not yet published). */
  async finish(): Promise<Manifest> {
    const shardCount = shardCountFor(this.ids.size);
    const idShards: BlobRef[] = [];
    let shard = 0;
    for (const payload of this.ids.shards(shardCount)) {
      const ref = { file: `ids/${String(shard++).padStart(5, "0")}.bin`, bytes: 0, crc32: 0 };
      idShards.push(ref);
      await this.write(ref, "idShard", payload);
    }
    const streets = { file: "streets.bin", bytes: 0, crc32: 0 };
    await this.write(streets, "streets", encodeStreetDictionary(this.chunkStreets));
    await Promise.all(this.pending);
    await this.seals.close();
    if (this.failure) throw this.failure.error;
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: FORMAT_VERSION,
      buildId: this.buildId,
      createdAt: new Date().toISOString(),
      previousBuildId: this.previousBuildId,
      counts: { ...this.counts, buildings: this.buildings.size },
      chunks: this.chunks,
      idShards,
      streets,
    };
    await this.store.put(`${buildPrefix(this.buildId)}/manifest.json`, Buffer.from(manifestText(manifest)));
    return manifest;
  }
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

async function pruneBuilds(store: BlobStore, current: string): Promise<void> {
  const keys = await store.list("builds/");
  const builds = [...new Set(keys.map((key) => key.split("/")[1] ?? ""))].filter((id) => id !== "").sort();
  const stale = builds.slice(0, Math.max(0, builds.length - KEPT_BUILDS)).filter((id) => id !== current);
  if (stale.length === 0) return;
  const prefixes = stale.map((id) => `${buildPrefix(id)}/`);
  await store.delete(keys.filter((key) => prefixes.some((prefix) => key.startsWith(prefix))));
}
