import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ByteWriter } from "./byte-writer.js";

/**
 * The ID directory: parcel ID → (chunk, row), so a lookup by ID reads one shard and one chunk.
 * IDs are spread over a power-of-two number of shards by their last two bytes (random, or a
 * counter within one millisecond, ULID spec), about TARGET_PER_SHARD IDs each.
 *
 * A shard of a directory layer (manifest version 3, blob kind `idLayer`) keeps six bytes of each
 * ID, not sixteen: the chunk row it names holds the whole ID, and a lookup checks it there. Its
 * entries are in (chunk, row) order, so chunks and rows are small numbers apart:
 *
 *   u32 n; u32 fingerprint[n] (ID bytes 10–13); u16 tail[n] (ID bytes 14–15);
 *   n × uvarint chunk − previous chunk; n × uvarint row
 *
 * (`chunk` is a chunk key code, manifest.ts.) 7 to 9 bytes an ID, where the whole ID with u32
 * chunk and row took 24 and compressed to 17 in a national build.
 *
 * A shard of a version-1 or 2 directory (blob kind `idShard`, read only; `IdShard`):
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
 * Bytes of one (ID, chunk, row) record: ID bytes 10–15, two spare, then u32 chunk and u32 row,
 * little-endian.
 */
const RECORD = 16;
/** Files a spilled collector spreads its records over, by the low byte of their shard. */
const SPILL_FILES = 256;
/** Records a spill file buffers before one write. */
const SPILL_BUFFER = 2048;

export interface IdCollectorOptions {
  /** IDs held in memory; past this many the collector spills to files (default 4,000,000: 64 MB). */
  memoryIds?: number;
  /** Where spill files go (default: the system's temporary directory). */
  spillDir?: string;
}

/** One shard's payload and its position in the directory. */
export interface EncodedShard {
  shard: number;
  payload: Buffer;
}

/**
 * Collects (ID, chunk, row) triples, 16 bytes each, in blocks of 8,192 (no object per ID). Blocks,
 * not one array grown by doubling: the copies a doubling leaves behind are memory outside the
 * JavaScript heap, which V8 counts towards starting a full collection of the whole heap.
 *
 * Memory does not grow with the nation: past `memoryIds` the records go to SPILL_FILES files by
 * the low byte of their shard number (shards are the low bits of the ID's last two bytes), and
 * the directory is then encoded one file at a time, each holding whole shards.
 *
 * A record keeps the six bytes of the ID a layer's shard stores (bytes 10–15, the last two of
 * which choose the shard).
 */
export class IdCollector {
  private readonly blocks: Uint8Array[] = [];
  /** One record, for IDs added one at a time. */
  private readonly scratch = new Uint8Array(RECORD);
  private readonly memoryIds: number;
  private spill: SpillFiles | undefined;
  size = 0;

  constructor(private readonly options: IdCollectorOptions = {}) {
    this.memoryIds = options.memoryIds ?? 4_000_000;
  }

  /** Whether records have gone to files. */
  get spilled(): boolean {
    return this.spill !== undefined;
  }

  /** Adds the ID at `offset` of `id` (16 bytes). */
  add(id: Uint8Array, chunk: number, row: number, offset = 0): void {
    writeRecord(this.scratch, 0, id, offset, chunk, row);
    this.addRecords(this.scratch);
  }

  /** Adds records as IdRecords writes them (16 bytes each). */
  addRecords(records: Uint8Array): void {
    for (let at = 0; at < records.length;) {
      if (this.spill) {
        const count = (records.length - at) / RECORD;
        this.spill.addRecords(records.subarray(at), count);
        this.size += count;
        return;
      }
      const inBlock = this.size & (BLOCK - 1);
      if (inBlock === 0) {
        if (this.size >= this.memoryIds) {
          this.spillBlocks();
          continue;
        }
        this.blocks.push(new Uint8Array(RECORD * BLOCK));
      }
      const take = Math.min(BLOCK - inBlock, (records.length - at) / RECORD);
      this.blocks[this.blocks.length - 1]!.set(records.subarray(at, at + take * RECORD), inBlock * RECORD);
      this.size += take;
      at += take * RECORD;
    }
  }

  /** Moves every block to the spill files; from now on records go straight there. */
  private spillBlocks(): void {
    const spill = (this.spill = new SpillFiles(this.options.spillDir));
    for (const block of this.blocks) spill.addRecords(block, block.length / RECORD);
    this.blocks.length = 0;
  }

  /**
   * Encodes every shard; entries are sorted bytewise by ID within each. With `out`, each shard is
   * written there (valid until the next one is), else into a buffer of its own. Shards come in
   * ascending order when the collector is in memory, grouped by spill file when it spilled.
   */
  *shards(shards: number, out?: ByteWriter): Generator<EncodedShard> {
    // The work is in plain methods: V8 optimizes a generator's loops only once it is called
    // again, and a build calls this once (its loops then ran unoptimized: 0.2 s per million IDs).
    const sorter = new IdSorter();
    if (!this.spill) {
      const pieces = this.blocks.map((block, i) =>
        i < this.blocks.length - 1 ? block : block.subarray(0, (this.size - i * BLOCK) * RECORD),
      );
      yield* encodeGroup(groupByShard(pieces, shards, 1), sorter, out);
      return;
    }
    const spill = this.spill;
    try {
      spill.flush();
      const groups = Math.min(shards, SPILL_FILES);
      for (let group = 0; group < groups; group++) {
        const pieces: Uint8Array[] = [];
        for (let file = group; file < SPILL_FILES; file += groups) pieces.push(spill.read(file));
        yield* encodeGroup(groupByShard(pieces, shards, groups, group), sorter, out);
      }
    } finally {
      this.discard();
    }
  }

  /** Removes the spill files (done by `shards` once it has read them; safe to call again). */
  discard(): void {
    this.spill?.remove();
  }
}

/** The chunk (key code) of an IdCollector record. */
export function recordChunk(record: Uint8Array, at = 0): number {
  return readU32(record, at + 8);
}

/** The ID directory records of one chunk, written where the chunk is encoded (any thread). */
export class IdRecords {
  private readonly bytes: Uint8Array;
  private count = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity * RECORD);
  }

  add(id: Uint8Array, offset: number, chunk: number, row: number): void {
    writeRecord(this.bytes, this.count++ * RECORD, id, offset, chunk, row);
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.count * RECORD);
  }
}

function writeRecord(
  to: Uint8Array,
  at: number,
  id: Uint8Array,
  offset: number,
  chunk: number,
  row: number,
): void {
  for (let k = 0; k < 6; k++) to[at + k] = id[offset + 10 + k]!;
  to[at + 8] = chunk;
  to[at + 9] = chunk >>> 8;
  to[at + 10] = chunk >>> 16;
  to[at + 11] = chunk >>> 24;
  to[at + 12] = row;
  to[at + 13] = row >>> 8;
  to[at + 14] = row >>> 16;
  to[at + 15] = row >>> 24;
}

/** A little-endian u32 (records are written byte by byte, so on any machine). */
function readU32(from: Uint8Array, at: number): number {
  return (from[at]! | (from[at + 1]! << 8) | (from[at + 2]! << 16) | (from[at + 3]! << 24)) >>> 0;
}

/** SPILL_FILES append-only files of records, each with a small write buffer. */
class SpillFiles {
  private readonly dir: string;
  private readonly fds: number[] = [];
  private readonly buffers: Uint8Array[] = [];
  private readonly filled = new Uint32Array(SPILL_FILES);
  private readonly records = new Float64Array(SPILL_FILES);
  private removed = false;

  constructor(parent = tmpdir()) {
    this.dir = mkdtempSync(join(parent, "situs-ids-"));
    for (let file = 0; file < SPILL_FILES; file++) {
      this.fds.push(openSync(join(this.dir, String(file)), "w+"));
      this.buffers.push(new Uint8Array(SPILL_BUFFER * RECORD));
    }
  }

  /** Appends whole records (each to the file of its shard's low byte: record byte 5, ID byte 15). */
  addRecords(records: Uint8Array, count: number): void {
    for (let i = 0; i < count; i++) {
      const from = i * RECORD;
      const file = records[from + 5]! & (SPILL_FILES - 1);
      const at = this.filled[file]!;
      this.buffers[file]!.set(records.subarray(from, from + RECORD), at * RECORD);
      if ((this.filled[file] = at + 1) === SPILL_BUFFER) this.flushFile(file);
    }
  }

  private flushFile(file: number): void {
    const count = this.filled[file]!;
    if (count === 0) return;
    const bytes = count * RECORD;
    let written = 0;
    while (written < bytes)
      written += writeSync(this.fds[file]!, this.buffers[file]!, written, bytes - written);
    this.records[file]! += count;
    this.filled[file] = 0;
  }

  flush(): void {
    for (let file = 0; file < SPILL_FILES; file++) this.flushFile(file);
  }

  /** Every record of one file (a fresh, aligned array). */
  read(file: number): Uint8Array {
    const bytes = this.records[file]! * RECORD;
    const records = new Uint8Array(bytes);
    let read = 0;
    while (read < bytes) {
      const got = readSync(this.fds[file]!, records, read, bytes - read, read);
      if (got === 0) throw new Error(`ID spill file ${file}: ${bytes - read} bytes short`);
      read += got;
    }
    return records;
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    for (const fd of this.fds) closeSync(fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The records of `pieces` whose shard is `group` modulo `groups`, moved to their shard's
 * contiguous range in one pass that reads the records in order (a shard's IDs are spread over
 * every piece, and reading them where they lie is a cache miss per ID).
 */
function groupByShard(pieces: readonly Uint8Array[], shards: number, groups: number, group = 0): ShardGroups {
  const members = shards / groups;
  // Shard s of the group is slot s / groups (shards of a group are group, group + groups, …).
  const mask = shards - 1;
  const groupBits = Math.log2(groups);
  const starts = new Uint32Array(members + 1);
  let size = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += RECORD) {
      starts[((((piece[at + 4]! << 8) | piece[at + 5]!) & mask) >>> groupBits) + 1]!++;
    }
    size += piece.length / RECORD;
  }
  for (let slot = 0; slot < members; slot++) starts[slot + 1]! += starts[slot]!;
  const grouped = new ShardGroups(starts, size, (slot) => group + slot * groups);
  const next = starts.slice(0, members);
  const { tails, keys } = grouped;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += RECORD) {
      const to = next[(((piece[at + 4]! << 8) | piece[at + 5]!) & mask) >>> groupBits]!++;
      for (let k = 0; k < 6; k++) tails[to * 6 + k] = piece[at + k]!;
      // The sort key: chunk, then row, big-endian (bytewise order is numeric order).
      for (let k = 0; k < 4; k++) {
        keys[to * 8 + k] = piece[at + 11 - k]!;
        keys[to * 8 + 4 + k] = piece[at + 15 - k]!;
      }
    }
  }
  return grouped;
}

function* encodeGroup(grouped: ShardGroups, sorter: IdSorter, out?: ByteWriter): Generator<EncodedShard> {
  for (let slot = 0; slot < grouped.slots; slot++) {
    const payload = out ?? new ByteWriter(4 + grouped.count(slot) * RECORD);
    grouped.encode(slot, sorter, payload);
    yield { shard: grouped.shardOf(slot), payload: payload.result() };
  }
}

/** The triples of some shards, each in its slot: slot `s` is the range [starts[s], starts[s + 1]). */
class ShardGroups {
  /** ID bytes 10–15 of each entry. */
  readonly tails: Uint8Array;
  /** Chunk and row of each entry, 8 bytes big-endian: what the entries are sorted by. */
  readonly keys: Uint8Array;

  constructor(
    private readonly starts: Uint32Array,
    size: number,
    readonly shardOf: (slot: number) => number,
  ) {
    this.tails = new Uint8Array(size * 6);
    this.keys = new Uint8Array(size * 8);
  }

  get slots(): number {
    return this.starts.length - 1;
  }

  count(slot: number): number {
    return this.starts[slot + 1]! - this.starts[slot]!;
  }

  /** One shard's payload into `out`: entries in (chunk, row) order. */
  encode(slot: number, sorter: IdSorter, out: ByteWriter): void {
    const first = this.starts[slot]!;
    const count = this.count(slot);
    const order = sorter.sort(this.keys.subarray(first * 8, (first + count) * 8), count, 8);
    const { tails, keys } = this;
    out.reset();
    out.u32(count);
    for (let at = 0; at < count; at++) out.bytes(tails, (first + order[at]!) * 6, 4);
    for (let at = 0; at < count; at++) out.bytes(tails, (first + order[at]!) * 6 + 4, 2);
    let previous = 0;
    for (let at = 0; at < count; at++) {
      const chunk = bigEndianU32(keys, (first + order[at]!) * 8);
      out.uvarint(chunk - previous);
      previous = chunk;
    }
    for (let at = 0; at < count; at++) out.uvarint(bigEndianU32(keys, (first + order[at]!) * 8 + 4));
  }
}

function bigEndianU32(from: Uint8Array, at: number): number {
  return ((from[at]! << 24) | (from[at + 1]! << 16) | (from[at + 2]! << 8) | from[at + 3]!) >>> 0;
}

/**
 * Sorts the entries of one shard at a time by a key of `width` bytes, its working arrays reused
 * from shard to shard: an LSD radix sort (one stable counting pass per byte, last byte first; a
 * byte every key shares is skipped). A shard's keys fit in a processor cache, and the sort is
 * linear where comparison sorts of millions of entries are not.
 */
class IdSorter {
  private order = new Uint32Array(0);
  private spare = new Uint32Array(0);
  private readonly counts = new Uint32Array(257);

  /** The order of the `count` keys of `width` bytes laid end to end in `keys`, ascending bytewise. */
  sort(keys: Uint8Array, count: number, width: number): Uint32Array {
    if (this.order.length < count) {
      this.order = new Uint32Array(count * 2);
      this.spare = new Uint32Array(count * 2);
    }
    const counts = this.counts;
    let order = this.order;
    let spare = this.spare;
    for (let j = 0; j < count; j++) order[j] = j;
    for (let digit = width - 1; digit >= 0 && count > 1; digit--) {
      counts.fill(0);
      for (let j = 0; j < count; j++) counts[keys[j * width + digit]! + 1]!++;
      if (counts[keys[digit]! + 1] === count) continue;
      for (let value = 0; value < 256; value++) counts[value + 1]! += counts[value]!;
      for (let k = 0; k < count; k++) {
        const j = order[k]!;
        spare[counts[keys[j * width + digit]!]!++] = j;
      }
      [order, spare] = [spare, order];
    }
    return order;
  }
}

/** Where an ID directory entry sends a lookup: a chunk (key code, or position in version 1 and 2) and a row. */
export interface IdPlace {
  chunk: number;
  row: number;
}

/**
 * One decoded shard of a directory layer. Finding an ID scans its fingerprints (a few thousand
 * 32-bit numbers); every entry whose six bytes match is a place to check, and the chunk's row
 * says whether it is the ID (two IDs share six bytes about once in 2^47).
 */
export class LayerShard {
  private readonly fingerprints: Uint32Array;
  private readonly tails: Uint16Array;
  private readonly chunks: Uint32Array;
  private readonly rows: Uint32Array;
  readonly bytes: number;

  constructor(data: Buffer) {
    const count = data.readUInt32LE(0);
    this.fingerprints = new Uint32Array(count);
    this.tails = new Uint16Array(count);
    this.chunks = new Uint32Array(count);
    this.rows = new Uint32Array(count);
    let at = 4;
    for (let i = 0; i < count; i++, at += 4) this.fingerprints[i] = data.readUInt32LE(at);
    for (let i = 0; i < count; i++, at += 2) this.tails[i] = data.readUInt16LE(at);
    const reader = { at };
    let chunk = 0;
    for (let i = 0; i < count; i++) this.chunks[i] = chunk += readUvarint(data, reader);
    for (let i = 0; i < count; i++) this.rows[i] = readUvarint(data, reader);
    if (reader.at !== data.length) throw new Error("ID directory shard: payload length does not match");
    this.bytes = count * 14 + 64;
  }

  get size(): number {
    return this.fingerprints.length;
  }

  /** The places of every entry whose six bytes are the ID's (almost always none or one). */
  find(id: Uint8Array): IdPlace[] {
    const fingerprint = (id[10]! | (id[11]! << 8) | (id[12]! << 16) | (id[13]! << 24)) >>> 0;
    const tail = id[14]! | (id[15]! << 8);
    const places: IdPlace[] = [];
    const fingerprints = this.fingerprints;
    for (let i = fingerprints.indexOf(fingerprint); i >= 0; i = fingerprints.indexOf(fingerprint, i + 1)) {
      if (this.tails[i] === tail) places.push({ chunk: this.chunks[i]!, row: this.rows[i]! });
    }
    return places;
  }

  /** Calls `visit` with every entry as an IdCollector record (valid during the call). */
  forEachRecord(visit: (record: Uint8Array) => void): void {
    const record = new Uint8Array(RECORD);
    const view = new DataView(record.buffer);
    for (let i = 0; i < this.fingerprints.length; i++) {
      view.setUint32(0, this.fingerprints[i]!, true);
      view.setUint16(4, this.tails[i]!, true);
      view.setUint32(8, this.chunks[i]!, true);
      view.setUint32(12, this.rows[i]!, true);
      visit(record);
    }
  }
}

function readUvarint(data: Buffer, reader: { at: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = data[reader.at++];
    if (byte === undefined) throw new Error("ID directory shard: a number runs past the end");
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}

/** One decoded shard of a version-1 or 2 directory, searched by binary search over its sorted IDs. */
export class IdShard {
  private readonly count: number;

  constructor(private readonly data: Buffer) {
    this.count = data.readUInt32LE(0);
  }

  get bytes(): number {
    return this.data.length + 64;
  }

  /**
   * Calls `visit` with every (ID, chunk, row) of the shard; the ID is the 16 bytes at `offset` of
   * `ids` (no view made per entry: a compaction visits every parcel of the nation).
   */
  forEach(visit: (ids: Buffer, offset: number, chunk: number, row: number) => void): void {
    const tables = 4 + this.count * 16;
    for (let i = 0; i < this.count; i++) {
      visit(
        this.data,
        4 + i * 16,
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
