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
    copyId(id, 0, this.ids, this.size * 16);
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
    const starts = new Uint32Array(shards + 1);
    for (let i = 0; i < this.size; i++) starts[shardOf(this.ids, shards, i * 16) + 1]!++;
    for (let shard = 0; shard < shards; shard++) starts[shard + 1]! += starts[shard]!;
    // One sequential pass moves every triple to its shard's contiguous range (no random reads).
    const ids = Buffer.allocUnsafe(this.size * 16);
    const chunks = new Uint32Array(this.size);
    const rows = new Uint32Array(this.size);
    const next = starts.slice(0, shards);
    for (let i = 0; i < this.size; i++) {
      const at = next[shardOf(this.ids, shards, i * 16)]!++;
      copyId(this.ids, i * 16, ids, at * 16);
      chunks[at] = this.chunks[i]!;
      rows[at] = this.rows[i]!;
    }
    for (let shard = 0; shard < shards; shard++) {
      const first = starts[shard]!;
      const count = starts[shard + 1]! - first;
      const keys = ids.subarray(first * 16, (first + count) * 16);
      const order = sortIds(keys, count);
      const out = Buffer.allocUnsafe(4 + count * 24);
      out.writeUInt32LE(count, 0);
      const tables = 4 + count * 16;
      for (let at = 0; at < count; at++) {
        const j = order[at]!;
        copyId(keys, j * 16, out, 4 + at * 16);
        out.writeUInt32LE(chunks[first + j]!, tables + at * 4);
        out.writeUInt32LE(rows[first + j]!, tables + count * 4 + at * 4);
      }
      yield out;
    }
  }
}

/** Copies one 16-byte ID (a loop: `Buffer.copy` costs more than the copy at this size). */
function copyId(from: Uint8Array, fromOffset: number, to: Uint8Array, toOffset: number): void {
  for (let k = 0; k < 16; k++) to[toOffset + k] = from[fromOffset + k]!;
}

/**
 * The order of `count` 16-byte IDs laid end to end in `keys`, ascending bytewise: an LSD radix
 * sort (one stable counting pass per byte, last byte first; a byte every ID shares is skipped).
 * A shard's keys fit in a processor cache, and the sort is linear where comparison sorts of
 * millions of IDs are not.
 */
function sortIds(keys: Uint8Array, count: number): Uint32Array {
  let order = Uint32Array.from({ length: count }, (_, i) => i);
  let spare = new Uint32Array(count);
  const counts = new Uint32Array(257);
  for (let digit = 15; digit >= 0 && count > 1; digit--) {
    counts.fill(0);
    for (let j = 0; j < count; j++) counts[keys[j * 16 + digit]! + 1]!++;
    if (counts[keys[digit]! + 1] === count) continue;
    for (let value = 0; value < 256; value++) counts[value + 1]! += counts[value]!;
    for (const j of order) spare[counts[keys[j * 16 + digit]!]!++] = j;
    [order, spare] = [spare, order];
  }
  return order;
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
