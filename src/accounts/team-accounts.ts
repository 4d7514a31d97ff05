import type { Operation } from "./accounts.js";
import type { KeySummary } from "./sql/account-admin.js";
import type { RequestLogRow } from "./sql/account-queries.js";

/**
 * What a team's own pages read and change in the accounts: its users' credentials, keys, usage,
 * billing, budget and request log (the portal's seam into accounts; SqlTeamAccounts implements it
 * over the accounts database). Every team-owned read or change takes the team ID as a required
 * argument and filters on it in SQL: the caller passes the signed-in session's team, never an ID
 * from the request, so a team can only ever reach its own rows.
 */
export interface TeamAccounts {
  findUser(email: string): Promise<UserCredentials | null>;

  listKeys(teamId: string): Promise<TeamKey[]>;
  createKey(teamId: string, name: string): Promise<{ keyId: string; secret: string }>;
  /** False when the team has no such key (another team's key included). */
  revokeKey(teamId: string, keyId: string): Promise<boolean>;

  /** Billed requests and spend per UTC day and operation, for `from` ≤ day < `to` (`YYYY-MM-DD`). */
  dailyUsage(teamId: string, from: string, to: string): Promise<DailyUsage[]>;
  /** Billed requests and spend per UTC hour of one day (`YYYY-MM-DD`); hours with none left out. */
  hourlyUsage(teamId: string, day: string): Promise<HourlyUsage[]>;
  /** Requests answered with an error per UTC day (from the request log, within its retention). */
  dailyErrors(teamId: string, from: string, to: string): Promise<Map<string, number>>;
  billing(teamId: string): Promise<TeamBilling>;
  monthlySpend(teamId: string, months: number, now: Date): Promise<MonthSpend[]>;
  setBudget(teamId: string, budgetMicros: number | null): Promise<void>;

  requestLogs(teamId: string, filter: LogFilter): Promise<LogRow[]>;
}

export interface UserCredentials {
  userId: string;
  teamId: string;
  email: string;
  passwordHash: string;
}

/** A key as a team lists it (the accounts admin's summary: never the secret). */
export type TeamKey = KeySummary;

export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  operation: Operation;
  requests: number;
  spendMicros: number;
}

export interface HourlyUsage {
  /** 0–23, UTC. */
  hour: number;
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
