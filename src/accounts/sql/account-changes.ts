import type { Queryable } from "../../db/database.js";

/**
 * Changes that must reach every replica's key cache at once: a key created or revoked (by hash),
 * a team paused, resumed, credited or budgeted. Sent with pg_notify inside the transaction that
 * makes the change, so they are delivered exactly when it commits (PostgreSQL LISTEN/NOTIFY;
 * PGlite delivers them inside its one process).
 */
export const ACCOUNT_CHANNEL = "situs_accounts";

export type AccountChange = { kind: "key"; hash: string } | { kind: "team"; teamId: string };

export async function announce(tx: Queryable, change: AccountChange): Promise<void> {
  await tx.query("SELECT pg_notify($1, $2)", [ACCOUNT_CHANNEL, JSON.stringify(change)]);
}

export function parseChange(payload: string): AccountChange | null {
  try {
    const value = JSON.parse(payload) as Partial<{ kind: string; hash: string; teamId: string }>;
    if (value.kind === "key" && typeof value.hash === "string") return { kind: "key", hash: value.hash };
    if (value.kind === "team" && typeof value.teamId === "string")
      return { kind: "team", teamId: value.teamId };
  } catch {
    // A payload we cannot read is treated as "anything may have changed" by the caller.
  }
  return null;
}

let lastMonth = { from: 0, to: -1, month: "" };

/**
 * The first day of the month of `at`, UTC, as `YYYY-MM-01`: budgets count calendar months (UTC).
 * Asked on every request, so the last month's bounds are kept and a string is built only when
 * the month changes.
 */
export function monthOf(at: Date): string {
  return monthAt(at.getTime());
}

/** `monthOf` for a time in milliseconds, without a Date unless the month changed. */
export function monthAt(ms: number): string {
  if (ms >= lastMonth.from && ms < lastMonth.to) return lastMonth.month;
  const at = new Date(ms);
  const month = `${at.toISOString().slice(0, 7)}-01`;
  const from = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  lastMonth = { from, to: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1), month };
  return month;
}
