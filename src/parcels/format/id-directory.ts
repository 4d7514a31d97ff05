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

/** IDs a block of IdCollector holds. */
const BLOCK_BITS = 13;
const BLOCK = 1 << BLOCK_BITS;

/**
 * Collects (ID, chunk, row) triples, 24 bytes each in blocks of 8,192 (no object per ID). Blocks,
 * not one array grown by doubling: the copies a doubling leaves behind (about 25 MB per million
 * IDs) are memory outside the JavaScript heap, which V8 counts towards starting a full collection
 * of the whole heap (at ingest, of every row read).
 */
export class IdCollector {
  /** Per ID: 16 bytes, then u32 chunk and u32 row (so 6 words an ID). */
  private readonly blocks: Uint32Array[] = [];
  private readonly blockBytes: Uint8Array[] = [];
  size = 0;

  /** Adds the ID at `offset` of `id` (16 bytes). */
  add(id: Uint8Array, chunk: number, row: number, offset = 0): void {
    const at = this.size & (BLOCK - 1);
    if (at === 0) {
      const block = new Uint32Array(6 * BLOCK);
      this.blocks.push(block);
      this.blockBytes.push(new Uint8Array(block.buffer));
    }
    const block = this.blocks[this.blocks.length - 1]!;
    copyId(id, offset, this.blockBytes[this.blockBytes.length - 1]!, at * 24);
    block[at * 6 + 4] = chunk;
    block[at * 6 + 5] = row;
    this.size++;
  }

  /**
   * Encodes every shard; entries are sorted bytewise by ID within each. With `out`, each shard is
   * written there (valid until the next one is), else into a buffer of its own.
   */
  *shards(shards: number, out?: ByteWriter): Generator<Buffer> {
    // The work is in plain methods: V8 optimizes a generator's loops only once it is called
    // again, and a build calls this once (its loops then ran unoptimized: 0.2 s per million IDs).
    const grouped = this.byShard(shards);
    const sorter = new IdSorter();
    for (let shard = 0; shard < shards; shard++) {
      const payload = out ?? new ByteWriter(4 + grouped.count(shard) * 24);
      grouped.encode(shard, sorter, payload);
      yield payload.result();
    }
  }

  /**
   * Every triple moved to its shard's contiguous range, in one pass that reads the blocks in order:
   * a shard's IDs are spread over every block, and reading them where they lie is a cache miss
   * per ID.
   */
  private byShard(shards: number): ShardGroups {
    const starts = new Uint32Array(shards + 1);
    for (let i = 0; i < this.size; i++) starts[this.shardOf(i, shards) + 1]!++;
    for (let shard = 0; shard < shards; shard++) starts[shard + 1]! += starts[shard]!;
    const grouped = new ShardGroups(starts, this.size);
    const next = starts.slice(0, shards);
    for (let i = 0; i < this.size; i++) {
      const at = next[this.shardOf(i, shards)]!++;
      const block = this.blocks[i >>> BLOCK_BITS]!;
      const word = (i & (BLOCK - 1)) * 6;
      copyId(this.blockBytes[i >>> BLOCK_BITS]!, word * 4, grouped.ids, at * 16);
      grouped.chunks[at] = block[word + 4]!;
      grouped.rows[at] = block[word + 5]!;
    }
    return grouped;
  }

  private shardOf(i: number, shards: number): number {
    return shardOf(this.blockBytes[i >>> BLOCK_BITS]!, shards, (i & (BLOCK - 1)) * 24);
  }
}

/** The triples of an IdCollector grouped by shard: shard `s` is the range [starts[s], starts[s + 1]). */
class ShardGroups {
  readonly ids: Uint8Array;
  readonly chunks: Uint32Array;
  readonly rows: Uint32Array;

  constructor(
    private readonly starts: Uint32Array,
    size: number,
  ) {
    this.ids = new Uint8Array(size * 16);
    this.chunks = new Uint32Array(size);
    this.rows = new Uint32Array(size);
  }

  count(shard: number): number {
    return this.starts[shard + 1]! - this.starts[shard]!;
  }

  /** One shard's payload into `out`. */
  encode(shard: number, sorter: IdSorter, out: ByteWriter): void {
    const first = this.starts[shard]!;
    const count = this.count(shard);
    const order = sorter.sort(this.ids.subarray(first * 16, (first + count) * 16), count);
    out.reset();
    out.u32(count);
    for (let at = 0; at < count; at++) out.bytes(this.ids, (first + order[at]!) * 16, 16);
    for (let at = 0; at < count; at++) out.u32(this.chunks[first + order[at]!]!);
    for (let at = 0; at < count; at++) out.u32(this.rows[first + order[at]!]!);
  }
}

/** Copies one 16-byte ID (a loop: `Buffer.copy` costs more than the copy at this size). */
function copyId(from: Uint8Array, fromOffset: number, to: Uint8Array, toOffset: number): void {
  for (let k = 0; k < 16; k++) to[toOffset + k] = from[fromOffset + k]!;
}

/**
 * Sorts the IDs of one shard at a time, its working arrays reused from shard to shard: an LSD
 * radix sort (one stable counting pass per byte, last byte first; a byte every ID shares is
 * skipped). A shard's keys fit in a processor cache, and the sort is linear where comparison sorts
 * of millions of IDs are not.
 */
class IdSorter {
  private order = new Uint32Array(0);
  private spare = new Uint32Array(0);
  private readonly counts = new Uint32Array(257);

  /** The order of the `count` 16-byte IDs laid end to end in `keys`, ascending bytewise. */
  sort(keys: Uint8Array, count: number): Uint32Array {
    if (this.order.length < count) {
      this.order = new Uint32Array(count * 2);
      this.spare = new Uint32Array(count * 2);
    }
    const counts = this.counts;
    let order = this.order;
    let spare = this.spare;
    for (let j = 0; j < count; j++) order[j] = j;
    for (let digit = 15; digit >= 0 && count > 1; digit--) {
      counts.fill(0);
      for (let j = 0; j < count; j++) counts[keys[j * 16 + digit]! + 1]!++;
      if (counts[keys[digit]! + 1] === count) continue;
      for (let value = 0; value < 256; value++) counts[value + 1]! += counts[value]!;
      for (let k = 0; k < count; k++) {
        const j = order[k]!;
        spare[counts[keys[j * 16 + digit]!]!++] = j;
      }
      [order, spare] = [spare, order];
    }
    return order;
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

  /** Calls `visit` with every (ID, chunk, row) of the shard; the ID is a view, valid during the call. */
  forEach(visit: (id: Uint8Array, chunk: number, row: number) => void): void {
    const tables = 4 + this.count * 16;
    for (let i = 0; i < this.count; i++) {
      visit(
        this.data.subarray(4 + i * 16, 20 + i * 16),
        this.data.readUInt32LE(tables + i * 4),
        this.data.readUInt32LE(tables + this.count * 4 + i * 4),
      );
    }
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
