import { toNumber } from "../../db/database.js";
import type { Database } from "../../db/database.js";
import type { NewSession, PortalSession, PortalStore } from "./portal-store.js";

type Timestamp = string | Date;

type SessionRow = {
  token_hash: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_id: string | null;
  email: string | null;
  team_id: string | null;
  team_name: string | null;
};

const SESSION = `
  SELECT s.token_hash, s.csrf_token, s.created_at, s.last_seen_at, s.expires_at,
         u.id AS user_id, u.email, t.id AS team_id, t.name AS team_name
    FROM portal_sessions s
    LEFT JOIN portal_users u ON u.id = s.user_id
    LEFT JOIN teams t ON t.id = u.team_id
   WHERE s.token_hash = $1 AND s.expires_at > $2::timestamptz`;

/** The portal's own tables (sessions, failed sign-ins) in the service database (PostgreSQL or PGlite). */
export class SqlPortalStore implements PortalStore {
  constructor(private readonly db: Database) {}

  async createSession(session: NewSession): Promise<void> {
    await this.db.query(
      `INSERT INTO portal_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz, $5::timestamptz)`,
      [session.tokenHash, session.userId, session.csrfToken, iso(session.at), iso(session.expiresAt)],
    );
  }

  async findSession(tokenHash: string, now: Date): Promise<PortalSession | null> {
    const [row] = await this.db.query<SessionRow>(SESSION, [tokenHash, iso(now)]);
    if (!row) return null;
    const user =
      row.user_id !== null && row.email !== null && row.team_id !== null
        ? { userId: row.user_id, email: row.email, teamId: row.team_id, teamName: row.team_name ?? "" }
        : null;
    return {
      tokenHash: row.token_hash,
      user,
      csrfToken: row.csrf_token,
      createdAt: new Date(row.created_at),
      lastSeenAt: new Date(row.last_seen_at),
      expiresAt: new Date(row.expires_at),
    };
  }

  async extendSession(tokenHash: string, at: Date, expiresAt: Date): Promise<void> {
    await this.db.query(
      "UPDATE portal_sessions SET last_seen_at = $2::timestamptz, expires_at = $3::timestamptz WHERE token_hash = $1",
      [tokenHash, iso(at), iso(expiresAt)],
    );
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.query("DELETE FROM portal_sessions WHERE token_hash = $1", [tokenHash]);
  }

  async purge(now: Date, failuresBefore: Date): Promise<void> {
    await this.db.query("DELETE FROM portal_sessions WHERE expires_at <= $1::timestamptz", [iso(now)]);
    await this.db.query("DELETE FROM portal_sign_in_attempts WHERE at < $1::timestamptz", [
      iso(failuresBefore),
    ]);
  }

  async claimAttempt(
    email: string,
    client: string,
    since: Date,
    at: Date,
    limits: { email: number; client: number },
  ): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      // Attempts for one e-mail (and from one client) queue here, so each counts every attempt
      // committed before it: none passes the limit however many run at once. E-mail first,
      // then client, in separate lock spaces: one order for every transaction, no deadlock.
      await tx.query("SELECT pg_advisory_xact_lock(1, hashtext(lower($1)))", [email]);
      await tx.query("SELECT pg_advisory_xact_lock(2, hashtext($1))", [client]);
      const [row] = await tx.query<{ by_email: unknown; by_client: unknown }>(
        `SELECT count(*) FILTER (WHERE email = lower($1)) AS by_email,
                count(*) FILTER (WHERE client = $2) AS by_client
           FROM portal_sign_in_attempts
          WHERE at >= $3::timestamptz AND (email = lower($1) OR client = $2)`,
        [email, client, iso(since)],
      );
      if (toNumber(row?.by_email) >= limits.email || toNumber(row?.by_client) >= limits.client) return null;
      const [inserted] = await tx.query<{ id: unknown }>(
        "INSERT INTO portal_sign_in_attempts (email, client, at) VALUES (lower($1), $2, $3::timestamptz) RETURNING id",
        [email, client, iso(at)],
      );
      return toNumber(inserted?.id);
    });
  }

  async clearAttempt(id: number): Promise<void> {
    await this.db.query("DELETE FROM portal_sign_in_attempts WHERE id = $1", [id]);
  }
}

function iso(date: Date): string {
  return date.toISOString();
}
