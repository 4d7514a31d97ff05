import type { Migration } from "../../db/migrate.js";
/**
 * The portal's tables, appended to the accounts migrations (src/accounts/sql/account-migrations.ts) as
 * versions 20 and up so they never collide with the accounts schema's low numbers.
 * - `portal_sessions`: one row per browser session. Only the SHA-256 of the session token is
 *   stored, so a leaked table cannot be replayed as cookies (OWASP Session Management Cheat
 *   Sheet). `user_id` is null for a signed-out visitor's session, which exists only to hold the
 *   CSRF token of the sign-in form (synchronizer token pattern, OWASP CSRF Cheat Sheet).
 * - `portal_sign_in_attempts`: failed and running sign-ins by e-mail and client address, counted
 *   over a window to refuse guessing (docs/portal.md "Sign-in limits"); kept in the database so the
 *   limit holds across replicas.
 */
export const PORTAL_MIGRATIONS: readonly Migration[] = [
  {
    version: 20,
    name: "portal sessions and sign-in attempts",
    sql: `
      CREATE TABLE portal_sessions (
        token_hash   text PRIMARY KEY,
        user_id      text,
        csrf_token   text NOT NULL,
        created_at   timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at   timestamptz NOT NULL
      );
      CREATE INDEX portal_sessions_expires ON portal_sessions (expires_at);
      CREATE INDEX portal_sessions_user ON portal_sessions (user_id);
      CREATE TABLE portal_sign_in_attempts (
        email  text NOT NULL,
        client text NOT NULL,
        at     timestamptz NOT NULL
      );
      CREATE INDEX portal_sign_in_attempts_email ON portal_sign_in_attempts (email, at);
      CREATE INDEX portal_sign_in_attempts_client ON portal_sign_in_attempts (client, at);
    `,
  },
  {
    version: 21,
    name: "sign-in attempts counted before the password is checked",
    // An attempt is a row from before its password is checked until it succeeds (then deleted),
    // so concurrent attempts count each other; the ID names the row to delete.
    sql: `ALTER TABLE portal_sign_in_attempts ADD COLUMN id bigserial PRIMARY KEY;`,
  },
];
