import type { UsageRecord } from "../accounts.js";
import { monthOf } from "./account-changes.js";
import type { Database } from "./database.js";

/**
 * The two writes of the usage ledger, each one transaction for a whole batch:
 * - `billUsage` inserts usage rows keyed by request ID (a request ID already present is skipped,
 *   so a replay bills nothing) and adds exactly the inserted rows to the teams' month spend, in
 *   one statement (one round trip, its own transaction);
 * - `voidUsage` withdraws rows whose answers were withheld: it leaves a tombstone under each
 *   request ID (so a late commit of the same rows can no longer insert them) and takes back
 *   whatever had been added to month spend.
 * Credit left is derived from month spend (team-standing.ts), so billing writes no team row.
 * Spend rows are upserted in (team, month) order, so concurrent batches lock them in the same
 * order and cannot deadlock; and each batch in flight writes its own shard of them, so they
 * rarely wait for each other at all.
 */
const INPUT = `
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::date[])
    AS t(request_id, team_id, key_id, operation, price_micros, at, month)`;

const BILL = `
  WITH input AS (${INPUT}),
  inserted AS (
    INSERT INTO usage_records (request_id, team_id, key_id, operation, price_micros, at)
    SELECT request_id, team_id, key_id, operation, price_micros, at FROM input
    ON CONFLICT (request_id) DO NOTHING
    RETURNING request_id
  ),
  spend AS (
    INSERT INTO monthly_spend (team_id, month, shard, spend_micros)
    SELECT i.team_id, i.month, $8, sum(i.price_micros) FROM input i JOIN inserted USING (request_id)
     GROUP BY i.team_id, i.month ORDER BY i.team_id, i.month
    ON CONFLICT (team_id, month, shard) DO UPDATE SET spend_micros = monthly_spend.spend_micros + excluded.spend_micros
    RETURNING team_id
  )
  SELECT (SELECT count(*) FROM inserted) AS inserted, (SELECT count(*) FROM spend) AS teams`;

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

/** Spend shards per team and month: more than batches in flight across a few replicas. */
export const SPEND_SHARDS = 16;

/**
 * Writes a batch into spend shard `shard` (0 … SPEND_SHARDS-1); resolves once it is committed.
 * Returns how many rows were new.
 */
export async function billUsage(db: Database, batch: readonly UsageRecord[], shard = 0): Promise<number> {
  const rows = await db.query<{ inserted: unknown }>(BILL, [...columns(unique(batch)), shard]);
  return Number(rows[0]?.inserted ?? 0);
}

/** Withdraws a batch whose answers were not sent; returns how many billed rows were refunded. */
export async function voidUsage(db: Database, batch: readonly UsageRecord[]): Promise<number> {
  const records = unique(batch);
  return db.transaction(async (tx) => {
    await tx.query(TOMBSTONE, columns(records));
    const rows = await tx.query<{ refunded: unknown }>(REFUND, [records.map((r) => r.requestId)]);
    return Number(rows[0]?.refunded ?? 0);
  });
}

function unique(batch: readonly UsageRecord[]): UsageRecord[] {
  return [...new Map(batch.map((record) => [record.requestId, record])).values()];
}

function columns(records: readonly UsageRecord[]): unknown[] {
  return [
    records.map((r) => r.requestId),
    records.map((r) => r.teamId),
    records.map((r) => r.keyId),
    records.map((r) => r.operation),
    records.map((r) => r.priceMicros),
    records.map((r) => r.at.toISOString()),
    records.map((r) => monthOf(r.at)),
  ];
}
