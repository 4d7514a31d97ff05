/**
 * The portal's own tables (sessions and failed sign-ins), implemented by SqlPortalStore. Teams,
 * users, keys, usage and request logs the portal reads through the accounts' TeamAccounts
 * (src/accounts/team-accounts.ts).
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

export interface PortalStore {
  createSession(session: NewSession): Promise<void>;
  /** The session for a token hash, or null when unknown or expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<PortalSession | null>;
  extendSession(tokenHash: string, at: Date, expiresAt: Date): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Deletes expired sessions and sign-in failures older than `before`. */
  purge(now: Date, failuresBefore: Date): Promise<void>;

  /**
   * Counts a sign-in attempt before its password is checked, atomically across replicas: when
   * fewer than `limits` attempts (failed or still running) were made since `since` for this e-mail
   * and for this client, records one at `at` and returns its ID; else returns null.
   */
  claimAttempt(
    email: string,
    client: string,
    since: Date,
    at: Date,
    limits: { email: number; client: number },
  ): Promise<number | null>;
  /** The attempt succeeded: it no longer counts. */
  clearAttempt(id: number): Promise<void>;
}
