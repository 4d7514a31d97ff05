import type { CopyValue } from "./database.js";

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
  let size = SIGNATURE.length + 8 + 2;
  for (const row of rows) {
    size += 2;
    for (let i = 0; i < columns.length; i++) size += 4 + fieldBytes(columns[i]!, row[i] ?? null);
  }
  const buffer = Buffer.allocUnsafe(size);
  let at = SIGNATURE.copy(buffer, 0);
  at = buffer.writeInt32BE(0, at); // flags
  at = buffer.writeInt32BE(0, at); // header extension length
  for (const row of rows) {
    at = buffer.writeInt16BE(columns.length, at);
    for (let i = 0; i < columns.length; i++) at = writeField(buffer, at, columns[i]!, row[i] ?? null);
  }
  buffer.writeInt16BE(-1, at);
  return buffer;
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const FIXED_BYTES: Record<Exclude<CopyType, "text">, number> = {
  int4: 4,
  int8: 8,
  float4: 4,
  timestamptz: 8,
};
/** 2000-01-01T00:00:00Z in Unix milliseconds: PostgreSQL's timestamp epoch. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
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
