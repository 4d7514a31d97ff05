import { selectRequestLogs } from "./account-queries.js";
import type { Queryable } from "../../db/database.js";
import { OPERATION_PATHS } from "../accounts.js";
import type { LogFilter, LogRow } from "../team-accounts.js";

/**
 * The team's request log for the Logs page: newest first, filtered, paged by keyset on
 * (at, request_id) so a page costs the same however deep it is (no OFFSET scan), served by the
 * (team_id, at DESC) index. Every value is a parameter; the team filter is always the first.
 */
class Conditions {
  readonly params: unknown[];
  readonly where: string[] = ["team_id = $1"];

  constructor(teamId: string) {
    this.params = [teamId];
  }

  /** Adds a condition whose `?` marks are replaced by the next parameters, in order. */
  add(condition: string, ...values: unknown[]): void {
    let sql = condition;
    for (const value of values) {
      this.params.push(value);
      sql = sql.replace("?", `$${this.params.length}`);
    }
    this.where.push(sql);
  }
}

function addStatus(conditions: Conditions, status: string): void {
  const statusClass = /^([1-5])xx$/.exec(status);
  if (statusClass?.[1]) {
    const base = Number(statusClass[1]) * 100;
    conditions.add("status >= ? AND status < ?", base, base + 100);
  } else if (/^\d{3}$/.test(status)) conditions.add("status = ?", Number(status));
}

function build(teamId: string, filter: LogFilter): Conditions {
  const conditions = new Conditions(teamId);
  if (filter.requestId !== undefined) {
    // A request ID names one request: the other filters would only hide it.
    conditions.add("request_id = ?", filter.requestId);
    return conditions;
  }
  if (filter.status !== undefined) addStatus(conditions, filter.status);
  if (filter.errorCode !== undefined) conditions.add("error_code = ?", filter.errorCode);
  if (filter.operation !== undefined) {
    const paths = OPERATION_PATHS[filter.operation];
    conditions.add("(path = ANY(?::text[]) OR path LIKE ANY(?::text[]))", paths.exact, [
      ...paths.prefixes.map((prefix) => `${prefix}%`),
    ]);
  }
  if (filter.from) conditions.add("at >= ?::timestamptz", filter.from.toISOString());
  if (filter.to) conditions.add("at < ?::timestamptz", filter.to.toISOString());
  if (filter.before) {
    conditions.add(
      "(at, request_id) < (?::timestamptz, ?)",
      filter.before.at.toISOString(),
      filter.before.requestId,
    );
  }
  if (filter.after) {
    conditions.add(
      "(at, request_id) > (?::timestamptz, ?)",
      filter.after.at.toISOString(),
      filter.after.requestId,
    );
  }
  return conditions;
}

export async function queryLogs(db: Queryable, teamId: string, filter: LogFilter): Promise<LogRow[]> {
  const conditions = build(teamId, filter);
  // Paging towards newer rows reads ascending from the cursor, then flips to newest first.
  const order = filter.after ? "ASC" : "DESC";
  const rows = await selectRequestLogs(
    db,
    conditions.where,
    conditions.params,
    order,
    Math.min(Math.max(filter.limit, 1), 500),
  );
  return filter.after ? rows.reverse() : rows;
}
