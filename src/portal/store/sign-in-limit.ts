import type { PortalStore } from "./portal-store.js";

/**
 * Sign-in guessing limit: attempts are counted per e-mail address and per client address over a
 * sliding window, in the database (so every replica counts the same), from before the password is
 * checked until it proves right. Past either limit further attempts are refused unchecked, which also bounds the scrypt work
 * an attacker can cause (OWASP Authentication Cheat Sheet, "Protect against automated attacks").
 */
export interface SignInLimitOptions {
  perEmail: number;
  perClient: number;
  windowMs: number;
}

export class SignInLimit {
  constructor(
    private readonly store: PortalStore,
    private readonly options: SignInLimitOptions,
  ) {}

  /**
   * Counts an attempt before its password is checked: its ID (pass it to `succeeded` when the
   * password is right), or the seconds to wait when the limit is reached. Counted first and
   * atomically, so parallel attempts cannot all slip under the limit, and the scrypt work an
   * e-mail or a client can cause is bounded by the limit.
   */
  async attempt(email: string, client: string, now: Date): Promise<{ id: number } | { waitSeconds: number }> {
    const since = new Date(now.getTime() - this.options.windowMs);
    const id = await this.store.claimAttempt(email, client, since, now, {
      email: this.options.perEmail,
      client: this.options.perClient,
    });
    return id === null ? { waitSeconds: Math.ceil(this.options.windowMs / 1000) } : { id };
  }

  succeeded(attempt: { id: number }): Promise<void> {
    return this.store.clearAttempt(attempt.id);
  }

  get windowMs(): number {
    return this.options.windowMs;
  }
}
