import { Readable } from "node:stream";

/** `text` as UTF-8 bytes in chunks of `size` bytes, split anywhere (inside a character too). */
export function chunkedStream(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}
