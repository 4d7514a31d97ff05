/** A value of a row copied into a table. */
export type CopyValue = string | number | null;

/** The column types bulk copies write (PostgreSQL's names of their binary forms). */
export type CopyType = "text" | "int4" | "int8" | "float4" | "timestamptz";

/** A column of a bulk copy: its name and the type its values are sent as. */
export interface CopyColumn {
  readonly name: string;
  readonly type: CopyType;
}

/**
 * Rows in PostgreSQL's binary COPY format (the COPY reference, "Binary Format"): a signature,
 * then per row its field count and each field as a length and its bytes, then -1.
 *
 * The binary form spares the server every input function: on the embedded database, where
 * PostgreSQL runs as WebAssembly, parsing a timestamptz and the numbers of a usage row's text
 * cost about as much as storing the row. Values: text as a string; int4, int8 and float4 as
 * numbers; timestamptz as milliseconds since the Unix epoch (sent as microseconds since
 * 2000-01-01, PostgreSQL's own count); null as SQL NULL.
 */
export function copyBinary(columns: readonly CopyColumn[], rows: readonly (readonly CopyValue[])[]): Buffer {
  return encodeRows(columns, rows, COPY_HEADER, COPY_TRAILER);
}

/**
 * The rows alone, without the header and trailer: per row its field count, then each field as
 * an int32 length (-1 for NULL) and its bytes. Tuples written apart can be joined and copied
 * between one COPY_HEADER and one COPY_TRAILER (the usage journal is made of them).
 */
export function copyTuples(columns: readonly CopyColumn[], rows: readonly (readonly CopyValue[])[]): Buffer {
  return encodeRows(columns, rows, NOTHING, NOTHING);
}

/** The rows' tuples between `before` and `after`, in one buffer (no second copy of the rows). */
function encodeRows(
  columns: readonly CopyColumn[],
  rows: readonly (readonly CopyValue[])[],
  before: Buffer,
  after: Buffer,
): Buffer {
  let size = before.length + after.length;
  for (const row of rows) {
    size += 2;
    for (let i = 0; i < columns.length; i++) size += 4 + fieldBytes(columns[i]!, row[i] ?? null);
  }
  const buffer = Buffer.allocUnsafe(size);
  let at = before.copy(buffer, 0);
  for (const row of rows) {
    at = buffer.writeInt16BE(columns.length, at);
    for (let i = 0; i < columns.length; i++) at = writeField(buffer, at, columns[i]!, row[i] ?? null);
  }
  after.copy(buffer, at);
  return buffer;
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** What precedes the rows: the signature, the flags (none) and the header extension's length (0). */
export const COPY_HEADER = Buffer.concat([SIGNATURE, Buffer.alloc(8)]);
/** What follows the rows: a field count of -1. */
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);
const NOTHING = Buffer.alloc(0);
/** The bytes of a value of each fixed-width type. */
export const FIXED_BYTES: Readonly<Record<Exclude<CopyType, "text">, number>> = {
  int4: 4,
  int8: 8,
  float4: 4,
  timestamptz: 8,
};
/** 2000-01-01T00:00:00Z in Unix milliseconds: PostgreSQL's timestamp epoch. */
export const POSTGRES_EPOCH_MS = 946_684_800_000;
const TWO_TO_32 = 2 ** 32;

function fieldBytes(column: CopyColumn, value: CopyValue): number {
  if (value === null) return 0;
  if (column.type === "text") return Buffer.byteLength(expect(column, value, "string"));
  return FIXED_BYTES[column.type];
}

function writeField(buffer: Buffer, at: number, column: CopyColumn, value: CopyValue): number {
  if (value === null) return buffer.writeInt32BE(-1, at);
  switch (column.type) {
    case "text": {
      const length = buffer.write(value as string, at + 4);
      buffer.writeInt32BE(length, at);
      return at + 4 + length;
    }
    case "int4":
      at = buffer.writeInt32BE(4, at);
      return buffer.writeInt32BE(integer(column, value), at);
    case "float4":
      at = buffer.writeInt32BE(4, at);
      return buffer.writeFloatBE(expect(column, value, "number"), at);
    case "int8":
      at = buffer.writeInt32BE(8, at);
      return writeInt64(buffer, at, integer(column, value));
    case "timestamptz": {
      const micros = Math.round((expect(column, value, "number") - POSTGRES_EPOCH_MS) * 1000);
      at = buffer.writeInt32BE(8, at);
      return writeInt64(buffer, at, micros);
    }
  }
}

/** A safe integer as a big-endian two's-complement int64, without BigInt. */
function writeInt64(buffer: Buffer, at: number, value: number): number {
  at = buffer.writeInt32BE(Math.floor(value / TWO_TO_32), at);
  return buffer.writeUInt32BE(value >>> 0, at);
}

function integer(column: CopyColumn, value: CopyValue): number {
  const number = expect(column, value, "number");
  if (!Number.isSafeInteger(number))
    throw new TypeError(`column ${column.name}: ${number} is not an integer`);
  return number;
}

function expect<T extends "string" | "number">(
  column: CopyColumn,
  value: CopyValue,
  type: T,
): T extends "string" ? string : number {
  if (typeof value !== type) throw new TypeError(`column ${column.name} (${column.type}) takes a ${type}`);
  return value as T extends "string" ? string : number;
}

/**
 * The value of a non-null field of `length` bytes at `at`, as copyTuples took it (the inverse
 * of writeField; the caller has checked that a fixed-width field has its width).
 */
export function readField(buffer: Buffer, at: number, length: number, column: CopyColumn): CopyValue {
  switch (column.type) {
    case "text":
      return buffer.toString("utf8", at, at + length);
    case "int4":
      return buffer.readInt32BE(at);
    case "float4":
      return buffer.readFloatBE(at);
    case "int8":
      return readInt64(buffer, at);
    case "timestamptz":
      return readInt64(buffer, at) / 1000 + POSTGRES_EPOCH_MS;
  }
}

/** A big-endian int64 as a number (exact within the safe integers), without BigInt. */
function readInt64(buffer: Buffer, at: number): number {
  return buffer.readInt32BE(at) * TWO_TO_32 + buffer.readUInt32BE(at + 4);
}
