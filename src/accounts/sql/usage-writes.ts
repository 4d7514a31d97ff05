import type { UsageRecord } from "../accounts.js";
import { monthOf } from "./account-changes.js";
import type { Database, Queryable } from "./database.js";

/**
 * The two writes of the usage ledger, each one transaction for a whole batch:
 * - `billUsage` inserts usage rows keyed by request ID (a request ID already present is skipped,
 *   so a replay bills nothing) and charges exactly the inserted rows to credit and month spend;
 * - `voidUsage` withdraws rows whose answers were withheld: it leaves a tombstone under each
 *   request ID (so a late commit of the same rows can no longer insert them) and refunds
 *   whatever had been charged.
 * Team rows are locked in ID order first, so concurrent batches on any replica never deadlock.
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
  billed AS (SELECT i.team_id, i.month, i.price_micros FROM input i JOIN inserted USING (request_id)),
  credit AS (
    UPDATE teams t SET credit_micros = t.credit_micros - s.total
      FROM (SELECT team_id, sum(price_micros) AS total FROM billed GROUP BY team_id) s
     WHERE t.id = s.team_id
    RETURNING t.id
  ),
  spend AS (
    INSERT INTO monthly_spend (team_id, month, spend_micros)
    SELECT team_id, month, sum(price_micros) FROM billed GROUP BY team_id, month
    ON CONFLICT (team_id, month) DO UPDATE SET spend_micros = monthly_spend.spend_micros + excluded.spend_micros
    RETURNING team_id
  )
  SELECT (SELECT count(*) FROM inserted) AS inserted, (SELECT count(*) FROM credit) AS teams`;

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
  credit AS (
    UPDATE teams t SET credit_micros = t.credit_micros + s.total
      FROM (SELECT team_id, sum(price_micros) AS total FROM voided GROUP BY team_id) s
     WHERE t.id = s.team_id
    RETURNING t.id
  ),
  spend AS (
    UPDATE monthly_spend m SET spend_micros = m.spend_micros - s.total
      FROM (SELECT team_id, month, sum(price_micros) AS total FROM voided GROUP BY team_id, month) s
     WHERE m.team_id = s.team_id AND m.month = s.month
    RETURNING m.team_id
  )
  SELECT count(*) AS refunded FROM voided`;

/** Writes a batch; resolves once it is committed. Returns how many rows were new. */
export async function billUsage(db: Database, batch: readonly UsageRecord[]): Promise<number> {
  const records = unique(batch);
  return db.transaction(async (tx) => {
    await lockTeams(tx, records);
    const rows = await tx.query<{ inserted: unknown }>(BILL, columns(records));
    return Number(rows[0]?.inserted ?? 0);
  });
}

/** Withdraws a batch whose answers were not sent; returns how many billed rows were refunded. */
export async function voidUsage(db: Database, batch: readonly UsageRecord[]): Promise<number> {
  const records = unique(batch);
  return db.transaction(async (tx) => {
    await lockTeams(tx, records);
    await tx.query(TOMBSTONE, columns(records));
    const rows = await tx.query<{ refunded: unknown }>(REFUND, [records.map((r) => r.requestId)]);
    return Number(rows[0]?.refunded ?? 0);
  });
}

async function lockTeams(tx: Queryable, records: readonly UsageRecord[]): Promise<void> {
  const teams = [...new Set(records.map((r) => r.teamId))].sort();
  await tx.query("SELECT id FROM teams WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [teams]);
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
