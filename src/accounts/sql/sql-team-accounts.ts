import type { Database } from "../../db/database.js";
import type {
  LogFilter,
  LogRow,
  TeamAccounts,
  TeamBilling,
  TeamKey,
  UserCredentials,
} from "../team-accounts.js";
import { AccountAdmin } from "./account-admin.js";
import { announce } from "./account-changes.js";
import { queryLogs } from "./team-log-query.js";
import {
  queryDailyErrors,
  queryDailyUsage,
  queryHourlyUsage,
  queryMonthlySpend,
} from "./team-usage-queries.js";

/** A team's accounts over the accounts database (PostgreSQL or PGlite), for the portal. */
export class SqlTeamAccounts implements TeamAccounts {
  private readonly admin: AccountAdmin;

  constructor(private readonly db: Database) {
    this.admin = new AccountAdmin(db);
  }

  async findUser(email: string): Promise<UserCredentials | null> {
    const rows = await this.db.query<{ id: string; team_id: string; email: string; password_hash: string }>(
      "SELECT id, team_id, email, password_hash FROM portal_users WHERE lower(email) = lower($1)",
      [email],
    );
    const row = rows[0];
    return row
      ? { userId: row.id, teamId: row.team_id, email: row.email, passwordHash: row.password_hash }
      : null;
  }

  listKeys(teamId: string): Promise<TeamKey[]> {
    return this.admin.listKeys(teamId);
  }

  createKey(teamId: string, name: string): Promise<{ keyId: string; secret: string }> {
    return this.admin.createKey(teamId, name);
  }

  async revokeKey(teamId: string, keyId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ hash: string }>(
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
          WHERE id = $1 AND team_id = $2 RETURNING hash`,
        [keyId, teamId],
      );
      if (!rows[0]) return false;
      // Every replica's key cache drops the key when this commits (account-changes.ts).
      await announce(tx, { kind: "key", hash: rows[0].hash });
      return true;
    });
  }

  hourlyUsage(teamId: string, day: string) {
    return queryHourlyUsage(this.db, teamId, day);
  }

  dailyUsage(teamId: string, from: string, to: string) {
    return queryDailyUsage(this.db, teamId, from, to);
  }

  dailyErrors(teamId: string, from: string, to: string) {
    return queryDailyErrors(this.db, teamId, from, to);
  }

  async billing(teamId: string): Promise<TeamBilling> {
    const team = await this.admin.team(teamId);
    return {
      name: team.name,
      creditMicros: team.creditMicros,
      budgetMicros: team.budgetMicros,
      monthSpendMicros: team.monthSpendMicros,
    };
  }

  monthlySpend(teamId: string, months: number, now: Date) {
    return queryMonthlySpend(this.db, teamId, months, now);
  }

  setBudget(teamId: string, budgetMicros: number | null): Promise<void> {
    return this.admin.setBudget(teamId, budgetMicros);
  }

  requestLogs(teamId: string, filter: LogFilter): Promise<LogRow[]> {
    return queryLogs(this.db, teamId, filter);
  }
}
