import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from "../view/cookies.js";
import type { PortalSession, PortalStore } from "./portal-store.js";

/**
 * Portal sessions, kept in the database (OWASP Session Management Cheat Sheet): the cookie holds
 * 256 random bits; only their SHA-256 is stored. A session ends after `idleMs` without a request
 * or `maxMs` after sign-in, whichever comes first; signing in always starts a new session
 * (no fixation), signing out deletes it. Each session carries its own CSRF token (synchronizer
 * token pattern); signed-out visitors get a short session only to hold the sign-in form's token.
 */
export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
  /** Lifetime of a signed-out visitor's session (the sign-in form's CSRF token). */
  visitorMs: number;
  now: () => Date;
}

/** Sliding expiry is written at most this often, so page views do not all write. */
const EXTEND_EVERY_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether the portal is served over HTTPS here (directly, or behind a trusted proxy). */
export function isSecure(request: FastifyRequest): boolean {
  return request.protocol === "https";
}

export class Sessions {
  constructor(
    private readonly store: PortalStore,
    private readonly policy: SessionPolicy,
  ) {}

  /** The request's live session, extended when due; null without one. */
  async current(request: FastifyRequest): Promise<PortalSession | null> {
    const token = readCookie(request.headers.cookie, sessionCookieName(isSecure(request)));
    if (token === undefined || !/^[\w-]{43}$/.test(token)) return null;
    const now = this.policy.now();
    const session = await this.store.findSession(hashToken(token), now);
    if (session === null) return null;
    if (session.user !== null && now.getTime() - session.lastSeenAt.getTime() >= EXTEND_EVERY_MS) {
      const expiresAt = this.expiry(session.createdAt, now);
      await this.store.extendSession(session.tokenHash, now, expiresAt);
      session.expiresAt = expiresAt;
    }
    return session;
  }

  /** Starts a session (for `userId`, or a visitor's with null) and sets its cookie. */
  async start(request: FastifyRequest, reply: FastifyReply, userId: string | null): Promise<PortalSession> {
    const token = newToken();
    const now = this.policy.now();
    const expiresAt =
      userId === null ? new Date(now.getTime() + this.policy.visitorMs) : this.expiry(now, now);
    const csrfToken = newToken();
    await this.store.createSession({ tokenHash: hashToken(token), userId, csrfToken, at: now, expiresAt });
    const maxAge = Math.ceil((userId === null ? this.policy.visitorMs : this.policy.maxMs) / 1000);
    reply.header("set-cookie", sessionCookie(token, isSecure(request), maxAge));
    return { tokenHash: hashToken(token), user: null, csrfToken, createdAt: now, lastSeenAt: now, expiresAt };
  }

  async end(request: FastifyRequest, reply: FastifyReply, session: PortalSession | null): Promise<void> {
    if (session !== null) await this.store.deleteSession(session.tokenHash);
    reply.header("set-cookie", clearedSessionCookie(isSecure(request)));
  }

  private expiry(createdAt: Date, now: Date): Date {
    return new Date(Math.min(now.getTime() + this.policy.idleMs, createdAt.getTime() + this.policy.maxMs));
  }
}

/** Constant-time comparison of the form's CSRF token with the session's. */
export function csrfMatches(session: PortalSession | null, submitted: string | undefined): boolean {
  if (session === null || submitted === undefined) return false;
  const expected = Buffer.from(session.csrfToken);
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
