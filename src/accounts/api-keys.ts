import { hash, randomBytes } from "node:crypto";

/**
 * API keys: `sk_` and 32 base64url characters (192 random bits; DECISIONS.md asks for at least
 * 128). Only the SHA-256 hash and a display prefix are stored; the secret is shown once.
 */
const KEY_PREFIX = "sk_";
const DISPLAY_LENGTH = 11;

export interface NewApiKey {
  secret: string;
  hash: string;
  displayPrefix: string;
}

export function generateApiKey(): NewApiKey {
  return describeKey(KEY_PREFIX + randomBytes(24).toString("base64url"));
}

/** The hash and display prefix of a secret (also of a fixed DEMO_API_KEY of any form). */
export function describeKey(secret: string): NewApiKey {
  return { secret, hash: hashApiKey(secret), displayPrefix: displayPrefix(secret) };
}

/**
 * Hashes of the keys presented lately. Every API request hashes its key to find it, and a
 * SHA-256 costs about ten times a map look-up; a busy key is hashed once. The secrets are held
 * only in this process's memory, where each request's headers are anyway, and the map is
 * cleared when full so that guessed keys cannot grow it.
 */
const recentHashes = new Map<string, string>();
const RECENT_HASHES = 10_000;

/** SHA-256, hex. The one-shot `hash` takes a third of the time of a Hash object per call. */
export function hashApiKey(secret: string): string {
  let digest = recentHashes.get(secret);
  if (digest === undefined) {
    digest = hash("sha256", secret, "hex");
    if (recentHashes.size >= RECENT_HASHES) recentHashes.clear();
    recentHashes.set(secret, digest);
  }
  return digest;
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, Math.min(DISPLAY_LENGTH, Math.ceil(secret.length / 3)));
}

const BEARER = /^Bearer +([\x21-\x7e]{1,512})$/i;

/** The key of an `Authorization: Bearer <key>` header, or null when the header is malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header.trim());
  return match?.[1] ?? null;
}
