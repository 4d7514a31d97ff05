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

/** SHA-256, hex. The one-shot `hash` takes a third of the time of a Hash object per call. */
export function hashApiKey(secret: string): string {
  return hash("sha256", secret, "hex");
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
