import type { Operation } from "../../accounts/accounts.js";
import type { KeySummary } from "../../accounts/sql/account-admin.js";
import type { RequestLogRow } from "../../accounts/sql/account-queries.js";

/**
 * Everything the portal reads and writes, behind one interface (implemented over the accounts
 * database by SqlPortalStore). Every team-owned read or change takes the team ID as a required
 * argument and filters on it in SQL: the portal passes the signed-in session's team, never an
 * ID from the request, so a team can only ever reach its own rows.
 */
export interface PortalSession {
  tokenHash: string;
  /** Null for a signed-out visitor: the session then only carries the sign-in form's CSRF token. */
  user: { userId: string; email: string; teamId: string; teamName: string } | null;
  csrfToken: string;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The session may not be extended past this (absolute lifetime). */
  createdAt: Date;
}

export interface NewSession {
  tokenHash: string;
  userId: string | null;
  csrfToken: string;
  at: Date;
  expiresAt: Date;
}

export interface PortalUserCredentials {
  userId: string;
  teamId: string;
  email: string;
  passwordHash: string;
}

/** A key as the portal lists it (the accounts admin's summary: never the secret). */
export type PortalKey = KeySummary;

export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  operation: Operation;
  requests: number;
  spendMicros: number;
}

export interface TeamBilling {
  name: string;
  creditMicros: number;
  budgetMicros: number | null;
  monthSpendMicros: number;
}

export interface MonthSpend {
  /** `YYYY-MM-01`. */
  month: string;
  requests: number;
  spendMicros: number;
}

export interface LogFilter {
  /** Exact status (`402`) or a class (`4xx`). */
  status?: string;
  errorCode?: string;
  operation?: Operation;
  from?: Date;
  to?: Date;
  requestId?: string;
  /** Keyset paging: rows strictly older (`before`) or newer (`after`) than this row. */
  before?: { at: Date; requestId: string };
  after?: { at: Date; requestId: string };
  limit: number;
}

/** A request-log row (the accounts layer's shape). */
export type LogRow = RequestLogRow;

export interface PortalStore {
  findUser(email: string): Promise<PortalUserCredentials | null>;
  createSession(session: NewSession): Promise<void>;
  /** The session for a token hash, or null when unknown or expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<PortalSession | null>;
  extendSession(tokenHash: string, at: Date, expiresAt: Date): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Deletes expired sessions and sign-in failures older than `before`. */
  purge(now: Date, failuresBefore: Date): Promise<void>;

  /** Failed sign-ins since `since`, for this e-mail and for this client address. */
  countFailures(email: string, client: string, since: Date): Promise<{ email: number; client: number }>;
  noteFailure(email: string, client: string, at: Date): Promise<void>;

  listKeys(teamId: string): Promise<PortalKey[]>;
  createKey(teamId: string, name: string): Promise<{ keyId: string; secret: string }>;
  /** False when the team has no such key (another team's key included). */
  revokeKey(teamId: string, keyId: string): Promise<boolean>;

  /** Billed requests and spend per UTC day and operation, for `from` ≤ day < `to` (`YYYY-MM-DD`). */
  dailyUsage(teamId: string, from: string, to: string): Promise<DailyUsage[]>;
  /** Requests answered with an error per UTC day (from the request log, within its retention). */
  dailyErrors(teamId: string, from: string, to: string): Promise<Map<string, number>>;
  billing(teamId: string): Promise<TeamBilling>;
  monthlySpend(teamId: string, months: number, now: Date): Promise<MonthSpend[]>;
  setBudget(teamId: string, budgetMicros: number | null): Promise<void>;

  requestLogs(teamId: string, filter: LogFilter): Promise<LogRow[]>;
}
