/**
 * The session cookie. Over HTTPS it is `__Host-situs_portal` (the `__Host-` prefix makes the
 * browser refuse it unless Secure, Path=/ and host-only, RFC 6265bis §4.1.3.2); over plain HTTP
 * (local development) `situs_portal`, scoped to /portal. Always HttpOnly (no script can read
 * it) and SameSite=Lax (never sent on cross-site POSTs; the CSRF token is the second guard).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? "__Host-situs_portal" : "situs_portal";
}

export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  const parts = [
    `${sessionCookieName(secure)}=${token}`,
    secure ? "Path=/" : "Path=/portal",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", secure, 0);
}

/** The value of one cookie in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
