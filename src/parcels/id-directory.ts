import { ByteWriter } from "./byte-writer.js";

/**
 * The ID directory: parcel ID → (chunk, row), so a lookup by ID reads one shard and one chunk.
 * IDs are spread over a power-of-two number of shards by their last two bytes (random, or a
 * counter within one millisecond, ULID spec), about TARGET_PER_SHARD IDs each. Shard payload:
 *
 *   u32 n; n × 16 bytes (IDs, ascending bytewise); u32 chunk[n]; u32 row[n]
 */
const TARGET_PER_SHARD = 8192;

export function shardCountFor(ids: number): number {
  let shards = 1;
  while (shards < 65536 && ids / shards > TARGET_PER_SHARD) shards *= 2;
  return shards;
}

export function shardOf(id: Uint8Array, shards: number, offset = 0): number {
  return (((id[offset + 14] ?? 0) << 8) | (id[offset + 15] ?? 0)) & (shards - 1);
}

/** Collects (ID, chunk, row) triples in flat growable arrays (24 bytes each, no objects). */
export class IdCollector {
  ids = Buffer.allocUnsafe(16 * 1024);
  chunks = new Uint32Array(1024);
  rows = new Uint32Array(1024);
  size = 0;

  add(id: Uint8Array, chunk: number, row: number): void {
    if (this.size === this.chunks.length) this.grow();
    this.ids.set(id, this.size * 16);
    this.chunks[this.size] = chunk;
    this.rows[this.size] = row;
    this.size++;
  }

  private grow(): void {
    const ids = Buffer.allocUnsafe(this.ids.length * 2);
    this.ids.copy(ids);
    this.ids = ids;
    const chunks = new Uint32Array(this.chunks.length * 2);
    chunks.set(this.chunks);
    this.chunks = chunks;
    const rows = new Uint32Array(this.rows.length * 2);
    rows.set(this.rows);
    this.rows = rows;
  }

  /** Encodes every shard; entries are sorted bytewise by ID within each. */
  *shards(shards: number): Generator<Buffer> {
    const members: number[][] = Array.from({ length: shards }, () => []);
    for (let i = 0; i < this.size; i++) members[shardOf(this.ids, shards, i * 16)]?.push(i);
    const keys = this.sortKeys();
    for (const list of members) {
      list.sort(
        (a, b) =>
          keys.high[a]! - keys.high[b]! || keys.middle[a]! - keys.middle[b]! || keys.low[a]! - keys.low[b]!,
      );
      const out = new ByteWriter();
      out.u32(list.length);
      for (const i of list) out.bytes(this.ids.subarray(i * 16, i * 16 + 16));
      for (const i of list) out.u32(this.chunks[i] ?? 0);
      for (const i of list) out.u32(this.rows[i] ?? 0);
      yield out.result();
    }
  }

  /**
   * Sort keys of every ID, so that comparing two is comparing numbers, not bytes: bytes 0-5 and
   * 6-11 as 48-bit integers (exact in a double), 12-15 as a 32-bit one. 20 bytes an ID, transient.
   */
  private sortKeys(): { high: Float64Array; middle: Float64Array; low: Uint32Array } {
    const high = new Float64Array(this.size);
    const middle = new Float64Array(this.size);
    const low = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) {
      high[i] = this.ids.readUIntBE(i * 16, 6);
      middle[i] = this.ids.readUIntBE(i * 16 + 6, 6);
      low[i] = this.ids.readUInt32BE(i * 16 + 12);
    }
    return { high, middle, low };
  }
}

/** One decoded shard, searched by binary search over its sorted IDs. */
export class IdShard {
  private readonly count: number;

  constructor(private readonly data: Buffer) {
    this.count = data.readUInt32LE(0);
  }

  get bytes(): number {
    return this.data.length + 64;
  }

  find(id: Uint8Array): { chunk: number; row: number } | undefined {
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = Buffer.compare(this.data.subarray(4 + middle * 16, 20 + middle * 16), id);
      if (order === 0) {
        const tables = 4 + this.count * 16;
        return {
          chunk: this.data.readUInt32LE(tables + middle * 4),
          row: this.data.readUInt32LE(tables + this.count * 4 + middle * 4),
        };
      }
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}
