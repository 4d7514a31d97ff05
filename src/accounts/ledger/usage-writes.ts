import type { UsageRecord } from "../accounts.js";
import { columnsOf, isUniqueViolation } from "../../db/database.js";
import type { CopyColumn } from "../../db/copy-binary.js";
import type { Database, Queryable } from "../../db/database.js";
import type { CopyValue } from "../../db/copy-binary.js";

/**
 * The two writes of the usage ledger, each one transaction for a whole batch:
 * - `billUsage` inserts usage rows keyed by request ID; a request ID already present is skipped,
 *   so a replay bills nothing, and one whose row is another request's is reported as taken. The batch goes in by COPY, the cheapest way per row; only when
 *   some of its request IDs exist already (the copy fails whole on the duplicate key) is it
 *   inserted again row by row with ON CONFLICT DO NOTHING. Month spend follows the inserted
 *   rows inside the same statement (the trigger of migration 2).
 * - `voidUsage` withdraws rows whose answers were withheld: it leaves a tombstone under each
 *   request ID (so a late commit of the same rows can no longer insert them) and takes back
 *   whatever had been added to month spend.
 * Credit left is derived from month spend (team-standing.ts), so billing writes no team row.
 */
/** usage_records' columns as the ledger writes them (the usage journal's tuples hold these too). */
export const USAGE_COLUMNS: readonly CopyColumn[] = [
  { name: "request_id", type: "text" },
  { name: "team_id", type: "text" },
  { name: "key_id", type: "text" },
  { name: "operation", type: "text" },
  { name: "price_micros", type: "int8" },
  { name: "at", type: "timestamptz" },
  { name: "method", type: "text" },
  { name: "path", type: "text" },
  { name: "latency_ms", type: "float4" },
];

const INPUT = `
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[],
                       $7::text[], $8::text[], $9::real[])
    AS t(request_id, team_id, key_id, operation, price_micros, at, method, path, latency_ms)`;

// The rows already present under a batch's request IDs are read in the statement's snapshot, from
// before its own inserts: those of another team, key or operation, or voided, are another
// request's, and their request IDs are returned as taken.
const INSERT_NEW = `
  WITH input AS (${INPUT}),
  inserted AS (
    INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at, method, path, latency_ms)
    SELECT * FROM input
    ON CONFLICT (request_id) DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM inserted) AS inserted,
         ARRAY(SELECT i.request_id FROM input i JOIN usage_records u USING (request_id)
                WHERE u.voided OR u.team_id <> i.team_id OR u.key_id <> i.key_id
                   OR u.operation <> i.operation) AS taken`;

const TOMBSTONE = `
  WITH input AS (${INPUT})
  INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at, voided)
  SELECT request_id, team_id, key_id, operation, 0, at, true FROM input
  ON CONFLICT (request_id) DO NOTHING`;

const REFUND = `
  WITH voided AS (
    UPDATE usage_records SET voided = true
     WHERE request_id = ANY($1::text[]) AND NOT voided
    RETURNING team_id, price_micros, (date_trunc('month', at AT TIME ZONE 'UTC'))::date AS month
  ),
  spend AS (
    INSERT INTO monthly_spend (team_id, month, shard, spend_micros)
    SELECT team_id, month, 0, -sum(price_micros) FROM voided GROUP BY team_id, month ORDER BY team_id, month
    ON CONFLICT (team_id, month, shard) DO UPDATE SET spend_micros = monthly_spend.spend_micros + excluded.spend_micros
    RETURNING team_id
  )
  SELECT count(*) AS refunded FROM voided`;

/** What a batch's write did: rows new, and request IDs whose rows are another request's. */
export interface Billed {
  inserted: number;
  taken: ReadonlySet<string>;
}

const NONE_TAKEN: ReadonlySet<string> = new Set();

/** Writes a batch; resolves once it is committed. */
export async function billUsage(db: Queryable, batch: readonly UsageRecord[]): Promise<Billed> {
  const records = unique(batch);
  const rows = records.map(usageRow);
  try {
    await db.copyRows("usage_records", USAGE_COLUMNS, rows);
    return { inserted: records.length, taken: NONE_TAKEN };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return insertNew(db, rows);
}

/**
 * Inserts the rows of a batch whose request IDs are new, skipping the others (ON CONFLICT DO
 * NOTHING): what billUsage does once the batch's copy failed on a duplicate key, for callers
 * that copied the batch themselves (usage-journal.ts). Returns how many rows were new.
 */
export function insertNewUsage(db: Queryable, batch: readonly UsageRecord[]): Promise<Billed> {
  return insertNew(db, unique(batch).map(usageRow));
}

async function insertNew(db: Queryable, rows: readonly (readonly CopyValue[])[]): Promise<Billed> {
  const [row] = await db.query<{ inserted: unknown; taken: string[] | null }>(
    INSERT_NEW,
    columnsOf(rows, USAGE_COLUMNS),
  );
  return { inserted: Number(row?.inserted ?? 0), taken: new Set(row?.taken ?? []) };
}

/** Withdraws a batch whose answers were not sent; returns how many billed rows were refunded. */
export async function voidUsage(db: Database, batch: readonly UsageRecord[]): Promise<number> {
  const records = unique(batch);
  return db.transaction(async (tx) => {
    await tx.query(TOMBSTONE, columnsOf(records.map(usageRow), USAGE_COLUMNS));
    const rows = await tx.query<{ refunded: unknown }>(REFUND, [records.map((r) => r.requestId)]);
    return Number(rows[0]?.refunded ?? 0);
  });
}

function unique(batch: readonly UsageRecord[]): UsageRecord[] {
  return [...new Map(batch.map((record) => [record.requestId, record])).values()];
}

/** A usage row's values in USAGE_COLUMNS' order; a row without a log entry has NULL method, path, latency. */
export function usageRow(r: UsageRecord): CopyValue[] {
  const log = r.log;
  return [
    r.requestId,
    r.teamId,
    r.keyId,
    r.operation,
    r.priceMicros,
    r.at.getTime(),
    log?.method ?? null,
    log?.path ?? null,
    log?.latencyMs ?? null,
  ];
}
