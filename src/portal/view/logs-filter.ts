import { ERROR_STATUS } from "../../errors.js";
import { isOperation } from "./operations.js";
import type { LogFilter } from "../../accounts/team-accounts.js";

/**
 * The Logs page's query string, read leniently: a value that is not one of the offered choices
 * is ignored (and the form shows "any"), never an error page. Times are `datetime-local` values
 * read as UTC, the portal's clock.
 */
export const PAGE_SIZE = 50;

export interface LogQuery {
  status: string;
  error: string;
  operation: string;
  from: string;
  to: string;
  request_id: string;
}

const STATUS_CHOICES = /^(?:[245]xx|\d{3})$/;
const REQUEST_ID = /^req_[0-9A-Za-z]{26}$/;

function utc(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/.test(value)) return undefined;
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `2026-11-20T22:01:02.123Z~req_…` → a keyset cursor. */
function cursor(value: string | undefined): { at: Date; requestId: string } | undefined {
  const [at, requestId] = (value ?? "").split("~");
  if (at === undefined || requestId === undefined || !REQUEST_ID.test(requestId)) return undefined;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? undefined : { at: date, requestId };
}

export function encodeCursor(row: { at: Date; requestId: string }): string {
  return `${row.at.toISOString()}~${row.requestId}`;
}

export function readLogQuery(raw: Record<string, string | undefined>): LogQuery {
  const text = (name: string) => (raw[name] ?? "").trim();
  const status = text("status");
  const error = text("error");
  const operation = text("operation");
  return {
    status: STATUS_CHOICES.test(status) ? status : "",
    error: error in ERROR_STATUS ? error : "",
    operation: isOperation(operation) ? operation : "",
    from: utc(text("from")) ? text("from") : "",
    to: utc(text("to")) ? text("to") : "",
    request_id: text("request_id").slice(0, 64),
  };
}

export function toFilter(query: LogQuery, raw: Record<string, string | undefined>): LogFilter {
  const filter: LogFilter = { limit: PAGE_SIZE + 1 };
  if (query.request_id !== "") {
    filter.requestId = query.request_id;
    return filter;
  }
  if (query.status !== "") filter.status = query.status;
  if (query.error !== "") filter.errorCode = query.error;
  if (isOperation(query.operation)) filter.operation = query.operation;
  const from = utc(query.from);
  const to = utc(query.to);
  if (from) filter.from = from;
  if (to) filter.to = to;
  const before = cursor(raw.before);
  const after = cursor(raw.after);
  if (before) filter.before = before;
  else if (after) filter.after = after;
  return filter;
}

/** The query string of the current filters (for paging links), without the cursor. */
export function filterParams(query: LogQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== "") params.set(name, value);
  return params;
}
