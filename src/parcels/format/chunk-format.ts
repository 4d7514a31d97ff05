import { encodeUlid } from "./binary-ulid.js";
import { ByteWriter, widthFor } from "./byte-writer.js";
import {
  ALIAS_FLAG,
  ChunkColumns,
  COORDINATE_SCALE as SCALE,
  NO_COORDINATE,
  STATUS_BITS,
} from "./chunk-columns.js";
import type { AddressEntry, TextField } from "../parcel-row.js";
import { TEXT_FIELDS } from "../parcel-row.js";
import type { ParcelStatus, StoredEntry } from "../parcel-row.js";
import { PARCEL_STATUSES } from "../parcel-row.js";

/**
 * A chunk: every address entry of one ZIP (the unit a lookup reads), column by column, rows sorted
 * by `entryOrder` so that one street's rows are contiguous. Payload layout (inside the envelope of
 * blob-envelope.ts; little-endian; sections start on 4-byte boundaries):
 *
 *   u32 rows, u32 strings
 *   u32 offsets[strings + 1]        string i is bytes[offsets[i], offsets[i+1]) (UTF-8); 0 is ""
 *   bytes                           the strings
 *   14 text columns, TEXT_FIELDS order: u8 width (0, 1, 2 or 4) then rows × width string indexes
 *                                   (width 0: the column is "" on every row)
 *   rows × 16 bytes                 parcel ID (binary ULID)
 *   u32 buildings, buildings × 16   building IDs; then u8 width, rows × width (0 none, else i + 1)
 *   i32 lat[rows], i32 lon[rows]    1e-7 degrees; INT32_MIN for none
 *   u8 flags[rows]                  bits 0-1 status (PARCEL_STATUSES index), bit 2 alias
 *   u32 n, n × (u32 row, u32 count, count × 16)   successors of superseded rows
 *   u32 streets, streets × (u32 name string, u32 first row, u32 row count)   the street directory
 */
const FIELD_INDEX = Object.fromEntries(TEXT_FIELDS.map((field, i) => [field, i])) as Record<
  TextField,
  number
>;

/** Encodes the entries as a chunk in the order given (a writer may be reused once its previous result is consumed). */
export function encodeChunk(entries: readonly StoredEntry[], out = new ByteWriter()): Buffer {
  return encodeColumns(new ChunkColumns().read(entries, "given"), out);
}

/** Encodes a chunk from its columns (chunk-columns.ts) into `out`, which is reset first. */
export function encodeColumns(columns: ChunkColumns, out = new ByteWriter()): Buffer {
  out.reset();
  out.u32(columns.rows);
  out.u32(columns.strings.length);
  writeStrings(out, columns.strings);
  for (const field of TEXT_FIELDS) writeColumn(out, columns.column(field));
  out.bytes(columns.ids);
  out.u32(columns.buildingIds.length);
  for (const id of columns.buildingIds) out.bytes(id);
  writeColumn(out, columns.buildings);
  out.i32s(columns.lats);
  out.i32s(columns.lons);
  out.uints(columns.flags, 1);
  out.align();
  out.u32(columns.successors.length);
  for (const [row, ids] of columns.successors) {
    out.u32(row);
    out.u32(ids.length);
    for (const id of ids) out.bytes(id);
  }
  writeStreets(out, columns.column("streetName"));
  return out.result();
}

/** The offsets table, then the strings; each offset is filled in once its string is written. */
function writeStrings(out: ByteWriter, values: readonly string[]): void {
  const table = out.offset;
  out.skip((values.length + 1) * 4);
  const base = out.offset;
  for (let i = 0; i < values.length; i++) {
    out.utf8(values[i]!);
    out.setU32(table + (i + 1) * 4, out.offset - base);
  }
  out.align();
}

function writeColumn(out: ByteWriter, values: Uint32Array): void {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  const width = widthFor(max);
  out.u8(width);
  if (width > 0) out.uints(values, width);
  out.align();
}

/**
 * Each street name's string index, first row and row count (rows are sorted by street name);
 * rows without a street name (string 0, the empty string) are left out.
 */
function writeStreets(out: ByteWriter, names: Uint32Array): void {
  const streets: number[] = [];
  for (let row = 0; row < names.length; row++) {
    const name = names[row]!;
    if (name === 0) continue;
    if (streets.length > 0 && streets[streets.length - 3] === name) streets[streets.length - 1]!++;
    else streets.push(name, row, 1);
  }
  out.u32(streets.length / 3);
  for (const value of streets) out.u32(value);
}

/** One street of a chunk: its name and the contiguous rows that carry it. */
export interface ChunkStreet {
  readonly name: string;
  readonly first: number;
  readonly count: number;
}

/** A street as the chunk keeps it: whether its rows' house numbers are filled in yet. */
interface StreetEntry extends ChunkStreet {
  numbered: boolean;
}

/** A decoded chunk: views over the inflated payload, values read on demand. */
export class DecodedChunk {
  readonly rows: number;
  private readonly stringOffsets: Uint32Array;
  private readonly stringBase: number;
  private readonly decoded: Array<string | undefined>;
  private readonly columnOffsets = new Int32Array(TEXT_FIELDS.length);
  private readonly columnWidths = new Uint8Array(TEXT_FIELDS.length);
  private readonly idBase: number;
  private readonly buildingIds: number;
  private readonly buildingColumn: [number, number];
  private readonly lats: Int32Array;
  private readonly lons: Int32Array;
  private readonly flagBase: number;
  private readonly successorRows = new Map<number, number>();
  private streetList: StreetEntry[] | undefined;
  private streetsByName: Map<string, StreetEntry> | undefined;
  private readonly streetBase: number;
  /** Each row's house number as `numberOrder` compares it first, filled a street at a time. */
  private numbers: Int32Array | undefined;

  constructor(private readonly data: Buffer) {
    let at = 0;
    const u32 = (): number => ((at += 4), data.readUInt32LE(at - 4));
    this.rows = u32();
    const strings = u32();
    this.stringOffsets = view(data, at, strings + 1);
    at += (strings + 1) * 4;
    this.stringBase = at;
    this.decoded = new Array<string | undefined>(strings);
    at = align(at + (this.stringOffsets[strings] ?? 0));
    for (const field of TEXT_FIELDS) {
      const width = data[at] ?? 0;
      const column = FIELD_INDEX[field];
      this.columnOffsets[column] = at + 1;
      this.columnWidths[column] = width;
      at = align(at + 1 + width * this.rows);
    }
    this.idBase = at;
    at += this.rows * 16;
    const buildings = u32();
    this.buildingIds = at;
    at += buildings * 16;
    this.buildingColumn = [at + 1, data[at] ?? 0];
    at = align(at + 1 + this.buildingColumn[1] * this.rows);
    this.lats = int32View(data, at, this.rows);
    this.lons = int32View(data, at + this.rows * 4, this.rows);
    at += this.rows * 8;
    this.flagBase = at;
    at = align(at + this.rows);
    const successors = u32();
    for (let i = 0; i < successors; i++) {
      this.successorRows.set(data.readUInt32LE(at), at + 4);
      at += 8 + data.readUInt32LE(at + 4) * 16;
    }
    this.streetBase = at;
  }

  /** Bytes held in memory by this chunk (for the cache's budget). */
  get bytes(): number {
    // The decoded-string memo is counted at its table (8 bytes a string), not its lazily filled
    // strings; the house numbers at their full size, whether or not a lookup has filled them yet.
    return this.data.length + this.decoded.length * 8 + this.rows * 4 + this.successorRows.size * 48 + 256;
  }

  /**
   * The rows' house numbers (`houseNumberKey`), valid over the rows of `street` (one of this
   * chunk's `streets()`): a binary search over them touches one small array, where comparing the
   * rows' texts reads a column, the string table and a string per step, each a cache miss in a
   * large index.
   */
  houseNumbers(street: ChunkStreet): Int32Array {
    const numbers = (this.numbers ??= new Int32Array(this.rows));
    const entry = street as StreetEntry;
    if (!entry.numbered) {
      const end = street.first + street.count;
      for (let row = street.first; row < end; row++)
        numbers[row] = this.numberKey(this.textIndex(row, "addressNumber"));
      entry.numbered = true;
    }
    return numbers;
  }

  /**
   * `houseNumberKey` of string `index`: up to nine leading digits are read from the bytes, so that
   * filling a street's numbers leaves no decoded strings behind; anything else by the rule itself.
   */
  private numberKey(index: number): number {
    const data = this.data;
    const start = this.stringBase + (this.stringOffsets[index] ?? 0);
    const end = Math.min(this.stringBase + (this.stringOffsets[index + 1] ?? 0), start + 10);
    let value = 0;
    let at = start;
    for (; at < end; at++) {
      const digit = (data[at] ?? 0) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    return at === start || at - start === 10 ? houseNumberKey(this.string(index)) : value;
  }

  /** String `index`, decoded once: lookups compare the same few strings many times. */
  string(index: number): string {
    let value = this.decoded[index];
    if (value === undefined) {
      value = this.data.toString(
        "utf8",
        this.stringBase + (this.stringOffsets[index] ?? 0),
        this.stringBase + (this.stringOffsets[index + 1] ?? 0),
      );
      this.decoded[index] = value;
    }
    return value;
  }

  /** The string index of a row's field: the hot path of every lookup, hence the explicit widths. */
  textIndex(row: number, field: TextField): number {
    const column = FIELD_INDEX[field];
    const width = this.columnWidths[column] ?? 0;
    const at = (this.columnOffsets[column] ?? 0) + row * width;
    const data = this.data;
    if (width === 1) return data[at] ?? 0;
    if (width === 2) return (data[at] ?? 0) | ((data[at + 1] ?? 0) << 8);
    return width === 0 ? 0 : data.readUInt32LE(at);
  }

  text(row: number, field: TextField): string {
    return this.string(this.textIndex(row, field));
  }

  /** The parcel ID bytes of a row (a view, not a copy). */
  idBytes(row: number): Uint8Array {
    return this.data.subarray(this.idBase + row * 16, this.idBase + row * 16 + 16);
  }

  /** The parcel ID as a 16-character latin1 string: a cheap key for comparing and grouping rows. */
  idKey(row: number): string {
    return this.data.toString("latin1", this.idBase + row * 16, this.idBase + row * 16 + 16);
  }

  id(row: number): string {
    return encodeUlid(this.data, this.idBase + row * 16);
  }

  buildingIdBytes(row: number): Uint8Array | null {
    const [offset, width] = this.buildingColumn;
    const index = width === 0 ? 0 : this.data.readUIntLE(offset + row * width, width);
    if (index === 0) return null;
    const start = this.buildingIds + (index - 1) * 16;
    return this.data.subarray(start, start + 16);
  }

  lat(row: number): number | null {
    const value = this.lats[row] ?? NO_COORDINATE;
    return value === NO_COORDINATE ? null : value / SCALE;
  }

  lon(row: number): number | null {
    const value = this.lons[row] ?? NO_COORDINATE;
    return value === NO_COORDINATE ? null : value / SCALE;
  }

  status(row: number): ParcelStatus {
    return PARCEL_STATUSES[(this.data[this.flagBase + row] ?? 0) & STATUS_BITS] ?? "active";
  }

  isAlias(row: number): boolean {
    return ((this.data[this.flagBase + row] ?? 0) & ALIAS_FLAG) !== 0;
  }

  successorBytes(row: number): Uint8Array[] {
    const at = this.successorRows.get(row);
    if (at === undefined) return [];
    const count = this.data.readUInt32LE(at);
    return Array.from({ length: count }, (_, i) => this.data.subarray(at + 4 + i * 16, at + 20 + i * 16));
  }

  /** The street directory: each street name with its contiguous rows, in name order. */
  streets(): ChunkStreet[] {
    return this.streetEntries();
  }

  private streetEntries(): StreetEntry[] {
    if (this.streetList) return this.streetList;
    const count = this.data.readUInt32LE(this.streetBase);
    const list: StreetEntry[] = [];
    for (let i = 0, at = this.streetBase + 4; i < count; i++, at += 12) {
      list.push({
        name: this.string(this.data.readUInt32LE(at)),
        first: this.data.readUInt32LE(at + 4),
        count: this.data.readUInt32LE(at + 8),
        numbered: false,
      });
    }
    return (this.streetList = list);
  }

  /** The street of this name, if the chunk has it. */
  street(name: string): ChunkStreet | undefined {
    this.streetsByName ??= new Map(this.streetEntries().map((street) => [street.name, street]));
    return this.streetsByName.get(name);
  }

  entry(row: number): AddressEntry {
    const entry = { lat: this.lat(row), lon: this.lon(row) } as AddressEntry;
    for (const field of TEXT_FIELDS) entry[field] = this.text(row, field);
    return entry;
  }

  storedEntry(row: number): StoredEntry {
    const building = this.buildingIdBytes(row);
    return {
      ...this.entry(row),
      id: new Uint8Array(this.idBytes(row)),
      buildingId: building ? new Uint8Array(building) : null,
      status: this.status(row),
      alias: this.isAlias(row),
      supersededBy: this.successorBytes(row).map((id) => new Uint8Array(id)),
    };
  }
}

/**
 * A house number as `numberOrder` (entry-order.ts) compares it first, clamped to 32 bits: in the
 * same order as the rows (clamping keeps order), and equal for equal texts.
 */
export function houseNumberKey(addressNumber: string): number {
  const value = parseInt(addressNumber, 10) || 0;
  return value > 0x7fffffff ? 0x7fffffff : value < -0x7fffffff ? -0x7fffffff : value;
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}

function int32View(data: Buffer, offset: number, count: number): Int32Array {
  const words = view(data, offset, count);
  return new Int32Array(words.buffer, words.byteOffset, count);
}

/** A Uint32Array over `count` values at `offset`, copied when the buffer is not 4-byte aligned. */
function view(data: Buffer, offset: number, count: number): Uint32Array {
  const start = data.byteOffset + offset;
  if (start % 4 === 0) return new Uint32Array(data.buffer, start, count);
  return new Uint32Array(data.buffer.slice(start, start + count * 4));
}
