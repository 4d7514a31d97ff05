import type { PortalStore } from "./portal-store.js";

/**
 * Sign-in guessing limit: failed attempts are counted per e-mail address and per client address
 * over a sliding window, in the database (so every replica counts the same). Past either limit
 * further attempts are refused before any password is checked, which also bounds the scrypt work
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

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  async refusedFor(email: string, client: string, now: Date): Promise<number> {
    const since = new Date(now.getTime() - this.options.windowMs);
    const counts = await this.store.countFailures(email, client, since);
    if (counts.email < this.options.perEmail && counts.client < this.options.perClient) return 0;
    return Math.ceil(this.options.windowMs / 1000);
  }

  noteFailure(email: string, client: string, now: Date): Promise<void> {
    return this.store.noteFailure(email, client, now);
  }

  get windowMs(): number {
    return this.options.windowMs;
  }
}
