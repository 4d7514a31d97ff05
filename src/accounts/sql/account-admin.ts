import { generateApiKey, describeKey } from "../api-keys.js";
import { newUlid } from "../../ids.js";
import { hashPassword } from "../passwords.js";
import { announce, monthOf } from "./account-changes.js";
import { readStandings } from "./team-standing.js";
import type { TeamSummary } from "./team-standing.js";
import type { Database, Queryable } from "../../db/database.js";

export interface KeySummary {
  keyId: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export class AdminError extends Error {
  override name = "AdminError";
}

/**
 * What the operator (bin/situs admin) and later the portal change. Each change runs in one
 * transaction with its pg_notify, so every replica's cache hears of it when it commits.
 */
export class AccountAdmin {
  constructor(private readonly db: Database) {}

  async createTeam(name: string, creditMicros = 0, teamId = `team_${newUlid()}`): Promise<string> {
    await this.db.query("INSERT INTO teams (id, name, credit_granted_micros) VALUES ($1, $2, $3)", [
      teamId,
      name,
      creditMicros,
    ]);
    return teamId;
  }

  async setStatus(teamId: string, status: "active" | "paused"): Promise<void> {
    await this.changeTeam(teamId, "UPDATE teams SET status = $2 WHERE id = $1", [status]);
  }

  async addCredit(teamId: string, micros: number): Promise<void> {
    await this.changeTeam(
      teamId,
      "UPDATE teams SET credit_granted_micros = credit_granted_micros + $2 WHERE id = $1",
      [micros],
    );
  }

  async setBudget(teamId: string, micros: number | null): Promise<void> {
    await this.changeTeam(teamId, "UPDATE teams SET budget_micros = $2 WHERE id = $1", [micros]);
  }

  /** Creates a key; the secret is in the answer and nowhere else (only its hash is stored). */
  async createKey(teamId: string, name: string, secret?: string): Promise<{ keyId: string; secret: string }> {
    const key = secret === undefined ? generateApiKey() : describeKey(secret);
    const keyId = `key_${newUlid()}`;
    await this.db.transaction(async (tx) => {
      await requireTeam(tx, teamId);
      await tx.query(
        "INSERT INTO api_keys (id, team_id, name, display_prefix, hash) VALUES ($1, $2, $3, $4, $5)",
        [keyId, teamId, name, key.displayPrefix, key.hash],
      );
      await announce(tx, { kind: "key", hash: key.hash });
    });
    return { keyId, secret: key.secret };
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query<{ hash: string }>(
        "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING hash",
        [keyId],
      );
      if (!rows[0]) throw new AdminError(`no key ${keyId}`);
      await announce(tx, { kind: "key", hash: rows[0].hash });
    });
  }

  async listKeys(teamId: string): Promise<KeySummary[]> {
    const rows = await this.db.query<{
      id: string;
      name: string;
      display_prefix: string;
      created_at: string | Date;
      last_used_at: string | Date | null;
      revoked_at: string | Date | null;
    }>(
      `SELECT id, name, display_prefix, created_at, last_used_at, revoked_at
         FROM api_keys WHERE team_id = $1 ORDER BY created_at, id`,
      [teamId],
    );
    const date = (value: string | Date | null) => (value === null ? null : new Date(value));
    return rows.map((row) => ({
      keyId: row.id,
      name: row.name,
      displayPrefix: row.display_prefix,
      createdAt: new Date(row.created_at),
      lastUsedAt: date(row.last_used_at),
      revokedAt: date(row.revoked_at),
    }));
  }

  async createPortalUser(teamId: string, email: string, password: string): Promise<string> {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AdminError(`not an e-mail address: ${email}`);
    if (password.length < 12) throw new AdminError("a portal password needs at least 12 characters");
    const userId = `usr_${newUlid()}`;
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      await requireTeam(tx, teamId);
      await tx.query("INSERT INTO portal_users (id, team_id, email, password_hash) VALUES ($1, $2, $3, $4)", [
        userId,
        teamId,
        email,
        passwordHash,
      ]);
    });
    return userId;
  }

  async teams(): Promise<TeamSummary[]> {
    return readStandings(this.db, monthOf(new Date()));
  }

  async team(teamId: string): Promise<TeamSummary> {
    const [team] = await readStandings(this.db, monthOf(new Date()), teamId);
    if (!team) throw new AdminError(`no team ${teamId}`);
    return team;
  }

  private async changeTeam(teamId: string, sql: string, params: unknown[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(`${sql} RETURNING id`, [teamId, ...params]);
      if (rows.length === 0) throw new AdminError(`no team ${teamId}`);
      await announce(tx, { kind: "team", teamId });
    });
  }
}

async function requireTeam(tx: Queryable, teamId: string): Promise<void> {
  const rows = await tx.query("SELECT 1 FROM teams WHERE id = $1", [teamId]);
  if (rows.length === 0) throw new AdminError(`no team ${teamId}`);
}
