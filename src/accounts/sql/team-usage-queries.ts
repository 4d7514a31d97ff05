import type { Operation } from "../accounts.js";
import { monthOf } from "./account-changes.js";
import { toNumber } from "../../db/database.js";
import type { Queryable } from "../../db/database.js";
import type { DailyUsage, HourlyUsage, MonthSpend } from "../team-accounts.js";

/**
 * Usage reads of the portal. Days and months are UTC calendar days and months, as budgets are
 * (SPEC.md "Limits"). Voided usage rows (answers withheld, docs/accounts.md) are never counted.
 * Each query is bounded by team and time, served by the (team_id, at) indexes.
 */
const DAY = `to_char(date_trunc('day', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
const RANGE = `at >= ($2::date::timestamp AT TIME ZONE 'UTC') AND at < ($3::date::timestamp AT TIME ZONE 'UTC')`;

export async function queryDailyUsage(
  db: Queryable,
  teamId: string,
  from: string,
  to: string,
): Promise<DailyUsage[]> {
  const rows = await db.query<{ day: string; operation: Operation; requests: unknown; spend: unknown }>(
    `SELECT ${DAY} AS day, operation, count(*) AS requests, sum(price_micros) AS spend
       FROM usage_records
      WHERE team_id = $1 AND NOT voided AND ${RANGE}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [teamId, from, to],
  );
  return rows.map((row) => ({
    day: row.day,
    operation: row.operation,
    requests: toNumber(row.requests),
    spendMicros: toNumber(row.spend),
  }));
}

/** Billed requests and spend of one UTC day (`YYYY-MM-DD`) per hour (0–23), hours with none left out. */
export async function queryHourlyUsage(db: Queryable, teamId: string, day: string): Promise<HourlyUsage[]> {
  const rows = await db.query<{ hour: unknown; requests: unknown; spend: unknown }>(
    `SELECT extract(hour FROM at AT TIME ZONE 'UTC') AS hour, count(*) AS requests, sum(price_micros) AS spend
       FROM usage_records
      WHERE team_id = $1 AND NOT voided
        AND at >= ($2::date::timestamp AT TIME ZONE 'UTC') AND at < (($2::date + 1)::timestamp AT TIME ZONE 'UTC')
      GROUP BY 1 ORDER BY 1`,
    [teamId, day],
  );
  return rows.map((row) => ({
    hour: toNumber(row.hour),
    requests: toNumber(row.requests),
    spendMicros: toNumber(row.spend),
  }));
}

export async function queryDailyErrors(
  db: Queryable,
  teamId: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const rows = await db.query<{ day: string; errors: unknown }>(
    `SELECT ${DAY} AS day, count(*) AS errors
       FROM request_logs
      WHERE team_id = $1 AND status <> 200 AND ${RANGE}
      GROUP BY 1`,
    [teamId, from, to],
  );
  return new Map(rows.map((row) => [row.day, toNumber(row.errors)]));
}

/** Spend (the billing ledger's month totals) and billed requests of the last `months` months, newest first. */
export async function queryMonthlySpend(
  db: Queryable,
  teamId: string,
  months: number,
  now: Date,
): Promise<MonthSpend[]> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  const since = monthOf(first);
  const spend = await db.query<{ month: string; spend: unknown }>(
    // monthly_spend is sharded (docs/accounts.md "Group commit"): a month's spend is the sum.
    `SELECT to_char(month, 'YYYY-MM-DD') AS month, sum(spend_micros) AS spend
       FROM monthly_spend WHERE team_id = $1 AND month >= $2::date GROUP BY month`,
    [teamId, since],
  );
  const requests = await db.query<{ month: string; requests: unknown }>(
    `SELECT to_char(date_trunc('month', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month, count(*) AS requests
       FROM usage_records
      WHERE team_id = $1 AND NOT voided AND at >= ($2::date::timestamp AT TIME ZONE 'UTC')
      GROUP BY 1`,
    [teamId, since],
  );
  const byMonth = new Map<string, MonthSpend>();
  const entry = (month: string): MonthSpend => {
    const found = byMonth.get(month) ?? { month, requests: 0, spendMicros: 0 };
    byMonth.set(month, found);
    return found;
  };
  entry(monthOf(now));
  for (const row of spend) entry(row.month).spendMicros = toNumber(row.spend);
  for (const row of requests) entry(row.month).requests = toNumber(row.requests);
  return [...byMonth.values()].sort((a, b) => b.month.localeCompare(a.month));
}
