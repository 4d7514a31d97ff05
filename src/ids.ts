import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

/**
 * Random bytes for ULIDs from a pool filled 4 KiB at a time. The library's default source asks the
 * operating system for one byte per character, sixteen calls for every new millisecond: on a
 * busy server, one system call per request for nothing.
 */
function pooledRandom(): () => number {
  const pool = Buffer.alloc(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}

/**
 * Identifiers: a prefix and a ULID (https://github.com/ulid/spec). ULIDs are Crockford base32,
 * 26 characters, the first at most `7` because the 48-bit timestamp must fit in 10 characters.
 */
const nextUlid = monotonicFactory(pooledRandom());

const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export function newUlid(now: number = Date.now()): string {
  return nextUlid(now);
}

export function newRequestId(): string {
  return `req_${nextUlid()}`;
}

/** True for a canonical (uppercase) ULID. Decoding is case-insensitive, so callers upper-case first. */
export function isUlid(value: string): boolean {
  return ULID_PATTERN.test(value);
}

export type ParcelIdCheck =
  { kind: "parcel"; serviceId: string } | { kind: "building"; buildingId: string } | { kind: "invalid" };

/**
 * Classifies a path ID of lookup by ID. ULIDs are case-insensitive, so `adr_01h...` is the same
 * parcel as `adr_01H...`; the canonical form is uppercase. Prefixes are case-sensitive.
 */
export function classifyParcelId(raw: string): ParcelIdCheck {
  const prefix = raw.slice(0, 4);
  const ulid = raw.slice(4).toUpperCase();
  if (raw.length !== 30 || !isUlid(ulid)) return { kind: "invalid" };
  if (prefix === "adr_") return { kind: "parcel", serviceId: `adr_${ulid}` };
  if (prefix === "bld_") return { kind: "building", buildingId: `bld_${ulid}` };
  return { kind: "invalid" };
}
