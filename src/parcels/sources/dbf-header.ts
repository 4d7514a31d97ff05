/**
 * The field names and record count of a dBASE file's header (dBASE III+ layout, as shapefiles use
 * it: ESRI Shapefile Technical Description, 1998, and the dBASE file format): bytes 4–7 the record
 * count, 8–9 the header length, then 32-byte field descriptors (name in the first 11 bytes,
 * NUL-padded) up to a 0x0D terminator.
 */
export interface DbfHeader {
  records: number;
  fields: string[];
}

/** The header's length, from its first 32 bytes. */
export function dbfHeaderLength(head: Buffer): number {
  return head.length >= 10 ? head.readUInt16LE(8) : 0;
}

export function readDbfHeader(
  bytes: Buffer,
  decode: (bytes: Uint8Array) => string,
  where: string,
): DbfHeader {
  const length = dbfHeaderLength(bytes);
  if (bytes.length < 32 || length < 33 || bytes.length < length)
    throw new Error(`${where}: not a dBASE (.dbf) file`);
  const fields: string[] = [];
  for (let at = 32; at + 32 <= length && bytes[at] !== 0x0d; at += 32) {
    const name = bytes.subarray(at, at + 11);
    const end = name.indexOf(0);
    fields.push(decode(name.subarray(0, end === -1 ? 11 : end)).trim());
  }
  return { records: bytes.readUInt32LE(4), fields };
}
