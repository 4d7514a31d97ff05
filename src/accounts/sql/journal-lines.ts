import { OPERATIONS } from "../accounts.js";
import type { Operation, UsageRecord } from "../accounts.js";
import type { Queryable } from "./database.js";
import { billUsage } from "./usage-writes.js";

/**
 * The usage journal's format: one JSON array per line, `[requestId, teamId, keyId, operation,
 * priceMicros, at (ms)]` and, for a row that carries its request-log entry, `method, path,
 * latencyMs` after them.
 */
export function journalLine(r: UsageRecord): string {
  const row: unknown[] = [r.requestId, r.teamId, r.keyId, r.operation, r.priceMicros, r.at.getTime()];
  if (r.log) row.push(r.log.method, r.log.path, r.log.latencyMs);
  return `${JSON.stringify(row)}\n`;
}

/**
 * The rows of a journal. A line cut short by a crash belongs to a write that never synced, so no
 * answer waited on it: it is skipped, as is anything that is not a well-formed row (the zeros
 * of a write that never reached the disk, say).
 */
export function readJournal(text: string): UsageRecord[] {
  const records: UsageRecord[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const record = parseLine(line);
    if (record) records.push(record);
  }
  return records;
}

/** Bills a journal's rows into the database, `batch` rows per statement (idempotent: billUsage). */
export async function billJournalText(db: Queryable, text: string, batch: number): Promise<void> {
  const records = readJournal(text);
  for (let start = 0; start < records.length; start += batch) {
    await billUsage(db, records.slice(start, start + batch));
  }
}

function parseLine(line: string): UsageRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
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
