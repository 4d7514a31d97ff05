import type { Operation, RequestLogEntry } from "../accounts.js";
import { monthOf } from "./account-changes.js";
import { toNumber } from "../../db/database.js";
import type { Queryable } from "../../db/database.js";

/**
 * Reads for the operator and the portal. Every one takes the team ID as its first, mandatory
 * filter: there is no query that reads across teams, so a team can never see another's data.
 */
export interface RequestLogFilter {
  from?: Date;
  to?: Date;
  status?: number;
  errorCode?: string;
  requestId?: string;
  limit?: number;
}

/** A request-log entry as read back: its team is the one asked for. */
export type RequestLogRow = Omit<RequestLogEntry, "teamId" | "inUsageRecord">;

/** The team's request log, newest first, filtered by time, status, error code and request ID. */
export async function queryRequestLogs(
  db: Queryable,
  teamId: string,
  filter: RequestLogFilter = {},
): Promise<RequestLogRow[]> {
  const params: unknown[] = [teamId];
  const where = ["team_id = $1"];
  const add = (condition: string, value: unknown): void => {
    params.push(value);
    where.push(condition.replace("?", `$${params.length}`));
  };
  if (filter.from) add("at >= ?", filter.from.toISOString());
  if (filter.to) add("at < ?", filter.to.toISOString());
  if (filter.status !== undefined) add("status = ?", filter.status);
  if (filter.errorCode !== undefined) add("error_code = ?", filter.errorCode);
  if (filter.requestId !== undefined) add("request_id = ?", filter.requestId);
  return selectRequestLogs(db, where, params, "DESC", Math.min(Math.max(filter.limit ?? 100, 1), 10_000));
}

const COLUMNS = "request_id, key_id, method, path, status, error_code, latency_ms, at";

/** Billed answers' entries, kept in their usage rows (migration 3), within the retention period. */
const BILLED_ENTRIES = `
  SELECT request_id, team_id, key_id, method, path, 200 AS status, NULL::text AS error_code, latency_ms, at
    FROM usage_records
   WHERE method IS NOT NULL AND NOT voided
     AND at >= now() - make_interval(days => (SELECT retention_days FROM request_log_settings))`;

/**
 * The one SELECT of request-log rows, for the operator's query above and the portal's paged
 * one: `where` holds conditions on `$1…$n` of `params` (the team first), rows come in `order`
 * of (at, request_id).
 */
export async function selectRequestLogs(
  db: Queryable,
  where: readonly string[],
  params: readonly unknown[],
  order: "ASC" | "DESC",
  limit: number,
): Promise<RequestLogRow[]> {
  const conditions = where.join(" AND ");
  const ordered = `ORDER BY at ${order}, request_id ${order} LIMIT $${params.length + 1}`;
  const rows = await db.query<{
    request_id: string;
    key_id: string;
    method: string;
    path: string;
    status: number;
    error_code: string | null;
    latency_ms: number;
    at: string | Date;
  }>(
    // The two halves of the request log (request_log_entries) read apart, each in the order of
    // its (team, time) index and cut at the limit, then merged: a query on the view as a whole
    // would sort every entry of the team first.
    `SELECT * FROM (
       (SELECT ${COLUMNS} FROM request_logs WHERE ${conditions} ${ordered})
       UNION ALL
       (SELECT ${COLUMNS} FROM (${BILLED_ENTRIES}) billed WHERE ${conditions} ${ordered})
     ) entries ${ordered}`,
    [...params, limit],
  );
  return rows.map((row) => ({
    requestId: row.request_id,
    keyId: row.key_id,
    method: row.method,
    path: row.path,
    status: Number(row.status),
    errorCode: row.error_code,
    latencyMs: Number(row.latency_ms),
    at: new Date(row.at),
  }));
}

export interface UsageReport {
  teamId: string;
  month: string;
  byOperation: Array<{ operation: Operation; requests: number; spendMicros: number }>;
  monthSpendMicros: number;
}

/** Billed requests and spend of one calendar month (UTC) by operation; voided rows excluded. */
export async function usageReport(
  db: Queryable,
  teamId: string,
  month = monthOf(new Date()),
): Promise<UsageReport> {
  const rows = await db.query<{ operation: Operation; requests: unknown; spend: unknown }>(
    `SELECT operation, count(*) AS requests, sum(price_micros) AS spend
       FROM usage_records
      WHERE team_id = $1 AND NOT voided 
        AND at >= ($2::date::timestamp AT TIME ZONE 'UTC')
        AND at < (($2::date + interval '1 month') AT TIME ZONE 'UTC')
      GROUP BY operation ORDER BY operation`,
    [teamId, month],
  );
  const spend = await db.query<{ spend_micros: unknown }>(
    "SELECT sum(spend_micros) AS spend_micros FROM monthly_spend WHERE team_id = $1 AND month = $2::date",
    [teamId, month],
  );
  return {
    teamId,
    month,
    byOperation: rows.map((row) => ({
      operation: row.operation,
      requests: toNumber(row.requests),
      spendMicros: toNumber(row.spend),
    })),
    monthSpendMicros: toNumber(spend[0]?.spend_micros),
  };
}
