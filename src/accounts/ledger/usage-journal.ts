import { OPERATIONS } from "../accounts.js";
import type { Operation, UsageRecord } from "../accounts.js";
import { copyTuples, FIXED_BYTES, readField } from "../../db/copy-binary.js";
import { isUniqueViolation } from "../../db/database.js";
import type { Queryable } from "../../db/database.js";
import type { CopyValue } from "../../db/copy-binary.js";
import type { PgliteDatabase } from "../../db/pglite-database.js";
import { billUsage, insertNewUsage, USAGE_COLUMNS, usageRow } from "./usage-writes.js";

/**
 * The usage journal's formats, named by the file's extension: `copy` (written now) holds the
 * rows as PostgreSQL binary COPY tuples (copy-binary.ts) of USAGE_COLUMNS, one after the other
 * with no header or trailer, so applying a journal copies its bytes as they are; `jsonl` (written
 * by versions before it) holds one JSON array a line, applied only when left over at start.
 */
export type JournalFormat = "copy" | "jsonl";

/** The rows as journal bytes: their COPY tuples, encoded once, on the thread that answers. */
export function encodeJournal(records: readonly UsageRecord[]): Buffer {
  return copyTuples(USAGE_COLUMNS, records.map(usageRow));
}

/** Consecutive well-formed tuples of a journal. */
export interface TupleRun {
  bytes: Buffer;
  rows: number;
}

/** request_id, team_id, key_id, operation, price_micros and at are NOT NULL in usage_records. */
const REQUIRED_COLUMNS = 6;
const OPERATION_COLUMN = 3;
const OPERATION_BYTES = OPERATIONS.map((operation) => Buffer.from(operation));

/**
 * The runs of well-formed tuples in journal bytes, each of at most `maxRows` rows, and what
 * lies between them skipped. Writes are positional and up to eight overlap, so after a crash a
 * journal may hold, besides the synced writes' whole tuples:
 * - a hole of zero bytes: a write that never reached the disk while a later one did (a process
 *   that dies leaves exactly this: the write it had not issued yet). A tuple starts with its
 *   field count, 9, so never with two zero bytes: the walker steps over zero bytes one at a time
 *   while the next two are both zero, which stops it exactly at the first tuple after the hole
 *   (holes are whole writes, and writes are whole tuples). A zero-filled end is skipped the same.
 * - a last tuple cut short, or anything else that is not a well-formed tuple and does not start
 *   with two zero bytes (a write torn by a power loss): the rest of the journal is not read.
 *   Resynchronizing on such bytes would mean trying every offset, and a tuple's own bytes (a
 *   length of 9 is 00 00 00 09) could then be read as the start of another: a row billed that
 *   never was, or a real one lost. No answer waited on a write that never synced; what follows
 *   such bytes in the same journal is lost, which only a power loss mid-write can cause.
 * A tuple is well formed when it has 9 fields, each of length -1 (NULL; only method, path and
 * latency_ms may be) or one that fits, the fixed-width ones of their exact width, and its
 * operation is one of OPERATIONS.
 */
export function* tupleRuns(bytes: Buffer, maxRows = Infinity): Generator<TupleRun> {
  let at = 0;
  let start = 0;
  let rows = 0;
  while (at < bytes.length) {
    const end = tupleEnd(bytes, at);
    if (end !== -1) {
      at = end;
      if (++rows < maxRows) continue;
    }
    if (rows > 0) yield { bytes: bytes.subarray(start, at), rows };
    rows = 0;
    if (end === -1) {
      if (bytes[at] !== 0 || (at + 1 < bytes.length && bytes[at + 1] !== 0)) return;
      at++;
    }
    start = at;
  }
  if (rows > 0) yield { bytes: bytes.subarray(start, at), rows };
}

/** Where the well-formed tuple at `at` ends, or -1 when none starts there. */
function tupleEnd(bytes: Buffer, at: number): number {
  if (at + 2 > bytes.length || bytes.readInt16BE(at) !== USAGE_COLUMNS.length) return -1;
  at += 2;
  for (let i = 0; i < USAGE_COLUMNS.length; i++) {
    if (at + 4 > bytes.length) return -1;
    const length = bytes.readInt32BE(at);
    at += 4;
    if (length === -1 && i >= REQUIRED_COLUMNS) continue;
    if (length < 0 || length > bytes.length - at) return -1;
    const type = USAGE_COLUMNS[i]!.type;
    if (type !== "text" && length !== FIXED_BYTES[type]) return -1;
    if (i === OPERATION_COLUMN && !isOperation(bytes.subarray(at, at + length))) return -1;
    at += length;
  }
  return at;
}

function isOperation(field: Buffer): boolean {
  return OPERATION_BYTES.some((operation) => operation.equals(field));
}

/** The rows of a journal's well-formed tuples (tests, tools, and a copy that met a duplicate). */
export function readJournal(bytes: Buffer): UsageRecord[] {
  const records: UsageRecord[] = [];
  for (const run of tupleRuns(bytes)) {
    for (let at = 0; at < run.bytes.length;) at = readTuple(run.bytes, at, records);
  }
  return records;
}

/** Reads the well-formed tuple at `at` into `records`; returns where it ends. */
function readTuple(bytes: Buffer, at: number, records: UsageRecord[]): number {
  const values: CopyValue[] = [];
  at += 2;
  for (const column of USAGE_COLUMNS) {
    const length = bytes.readInt32BE(at);
    at += 4;
    values.push(length === -1 ? null : readField(bytes, at, length, column));
    at += Math.max(length, 0);
  }
  const record = usageRecord(values);
  if (record) records.push(record);
  return at;
}

/**
 * Bills a journal's rows into the database: its runs of tuples are copied as they are, at most
 * `batch` rows a COPY. Idempotent by request ID like billUsage: a copy that meets a request ID
 * already billed fails whole, and its rows are then inserted with ON CONFLICT DO NOTHING. Month
 * spend follows the inserted rows either way (the trigger of migration 2 runs for COPY too).
 * Returns how many bytes were not read (tupleRuns).
 */
export async function billJournal(db: PgliteDatabase, bytes: Buffer, batch: number): Promise<number> {
  let unread = bytes.length;
  let parts: Buffer[] = [];
  let rows = 0;
  for (const run of tupleRuns(bytes, batch)) {
    unread -= run.bytes.length;
    if (rows + run.rows > batch) {
      await copyPart(db, parts);
      parts = [];
      rows = 0;
    }
    parts.push(run.bytes);
    rows += run.rows;
  }
  if (rows > 0) await copyPart(db, parts);
  return unread;
}

async function copyPart(db: PgliteDatabase, parts: readonly Buffer[]): Promise<void> {
  try {
    await db.copyTuples("usage_records", USAGE_COLUMNS, parts);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await insertNewUsage(db, readJournal(Buffer.concat(parts)));
  }
}

/**
 * The rows of a journal in the older `jsonl` format: one JSON array a line, `[requestId, teamId,
 * keyId, operation, priceMicros, at (ms)]` and, for a row with its request-log entry, `method,
 * path, latencyMs` after them. A line that is not such a row (cut short by a crash, or the zeros
 * of a write that never reached the disk) is skipped.
 */
export function readJsonJournal(text: string): UsageRecord[] {
  const records: UsageRecord[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const record = usageRecord(parseJson(line));
    if (record) records.push(record);
  }
  return records;
}

/** Bills the rows of a `jsonl` journal, `batch` rows per statement (idempotent: billUsage). */
export async function billJsonJournal(db: Queryable, text: string, batch: number): Promise<void> {
  const records = readJsonJournal(text);
  for (let start = 0; start < records.length; start += batch) {
    await billUsage(db, records.slice(start, start + batch));
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/**
 * A usage row's values in USAGE_COLUMNS' order (the inverse of usageRow; `at` in Unix ms) as a
 * record, or null when they are not a row: 6 values, or 9 with the request-log entry's (NULL
 * there means no entry).
 */
function usageRecord(value: unknown): UsageRecord | null {
  if (!Array.isArray(value) || (value.length !== 6 && value.length !== 9)) return null;
  const [requestId, teamId, keyId, operation, priceMicros, at, method, path, latencyMs] = value as unknown[];
  if (
    typeof requestId !== "string" ||
    typeof teamId !== "string" ||
    typeof keyId !== "string" ||
    !OPERATIONS.includes(operation as Operation) ||
    typeof priceMicros !== "number" ||
    typeof at !== "number"
  )
    return null;
  const record: UsageRecord = {
    requestId,
    teamId,
    keyId,
    operation: operation as Operation,
    priceMicros,
    at: new Date(at),
  };
  if (typeof method === "string" && typeof path === "string" && typeof latencyMs === "number") {
    record.log = { method, path, latencyMs };
  }
  return record;
}
