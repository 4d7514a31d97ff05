import { randomFillSync } from "node:crypto";

/**
 * ULIDs as 16 bytes (https://github.com/ulid/spec): 48-bit big-endian millisecond time, then 80
 * random bits. The index stores IDs in this form (16 bytes instead of 26 characters) and sorts
 * them bytewise, which is also their lexical order. Generation is monotonic like the spec's
 * `monotonicFactory`: within one millisecond the random part is incremented.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** IDs are handed out as views of shared slabs: millions of 16-byte buffers of their own are slow. */
const SLAB_BYTES = 16 * 4096;

export class UlidGenerator {
  private lastTime = -1;
  private readonly last = new Uint8Array(16);
  private slab = new Uint8Array(SLAB_BYTES);
  private slabUsed = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  next(): Uint8Array {
    const now = Math.max(this.clock(), this.lastTime);
    if (now === this.lastTime) increment(this.last);
    else {
      this.lastTime = now;
      writeTime(this.last, now);
      randomFillSync(this.last, 6, 10);
      this.last[6] = (this.last[6] ?? 0) & 0x7f; // leave room to increment without overflow
    }
    if (this.slabUsed === SLAB_BYTES) {
      this.slab = new Uint8Array(SLAB_BYTES);
      this.slabUsed = 0;
    }
    const slab = this.slab;
    const at = this.slabUsed;
    for (let i = 0; i < 16; i++) slab[at + i] = this.last[i]!;
    this.slabUsed += 16;
    return slab.subarray(at, at + 16);
  }
}

function writeTime(bytes: Uint8Array, time: number): void {
  let rest = time;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

function increment(bytes: Uint8Array): void {
  for (let i = 15; i >= 6; i--) {
    const value = (bytes[i] ?? 0) + 1;
    bytes[i] = value & 0xff;
    if (value < 256) return;
  }
  throw new Error("ULID random part overflowed within one millisecond");
}

/** 16 bytes → 26 Crockford base32 characters (the first encodes the top 3 bits). */
export function encodeUlid(bytes: Uint8Array, offset = 0): string {
  let out = "";
  let value = 0;
  let bits = 2; // 130 bits of output for 128 of input: two leading zero bits
  for (let i = 0; i < 16; i++) {
    value = ((value << 8) | (bytes[offset + i] ?? 0)) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(value >> bits) & 31];
    }
  }
  return out;
}

/** 26 uppercase Crockford characters → 16 bytes; undefined when not a canonical ULID. */
export function decodeUlid(text: string): Uint8Array | undefined {
  if (text.length !== 26 || text.charCodeAt(0) > 55) return undefined;
  const bytes = new Uint8Array(16);
  let value = 0;
  let bits = -2;
  let index = 0;
  for (let i = 0; i < 26; i++) {
    const digit = DECODE[text.charCodeAt(i)] ?? -1;
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >> bits) & 0xff;
    }
  }
  return bytes;
}

/** Bytewise comparison of two 16-byte IDs stored at offsets of two arrays. */
export function compareIds(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): number {
  for (let i = 0; i < 16; i++) {
    const difference = (a[aOffset + i] ?? 0) - (b[bOffset + i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
