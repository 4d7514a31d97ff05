import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { hashPassword, verifyPassword } from "../accounts/passwords.js";
import { AccountAdmin } from "../accounts/sql/account-admin.js";
import type { Database } from "../accounts/sql/database.js";
import { DEMO_TEAM_ID } from "../accounts/sql/demo-team.js";
import type { Config } from "../config.js";

type DemoConfig = Pick<Config, "DEMO_PORTAL_EMAIL" | "DEMO_PORTAL_PASSWORD" | "HOST" | "PORT" | "TLS_CERT">;

/**
 * The demo team's portal user, so that a fresh `npm start` can sign in at once. Created on the
 * first start that has the demo team and no user with DEMO_PORTAL_EMAIL: its password is
 * DEMO_PORTAL_PASSWORD, or a random one printed once (like the demo key, only its hash is
 * stored). With DEMO_PORTAL_PASSWORD set, a later start also resets the password to it.
 */
export async function ensureDemoPortalUser(db: Database, config: DemoConfig, log: Logger): Promise<void> {
  const demo = await db.query("SELECT 1 FROM teams WHERE id = $1", [DEMO_TEAM_ID]);
  if (demo.length === 0) return;
  const email = config.DEMO_PORTAL_EMAIL;
  const fixed = config.DEMO_PORTAL_PASSWORD;
  const [user] = await db.query<{ id: string; password_hash: string }>(
    "SELECT id, password_hash FROM portal_users WHERE lower(email) = lower($1)",
    [email],
  );
  if (user) {
    if (fixed !== undefined && !(await verifyPassword(fixed, user.password_hash))) {
      await db.query("UPDATE portal_users SET password_hash = $2 WHERE id = $1", [
        user.id,
        await hashPassword(fixed),
      ]);
      log.info({ email }, "demo portal user's password set from DEMO_PORTAL_PASSWORD");
    }
    return;
  }
  if (fixed === undefined) {
    const others = await db.query("SELECT 1 FROM portal_users WHERE team_id = $1 LIMIT 1", [DEMO_TEAM_ID]);
    if (others.length > 0) return;
  }
  const password = fixed ?? randomBytes(12).toString("base64url");
  await new AccountAdmin(db).createPortalUser(DEMO_TEAM_ID, email, password);
  const scheme = config.TLS_CERT === undefined ? "http" : "https";
  const shown = fixed === undefined ? password : "(the value of DEMO_PORTAL_PASSWORD)";
  log.info({ email }, "created the demo portal user (password printed once on stderr)");
  process.stderr.write(
    `\nDemo portal: ${scheme}://${config.HOST}:${config.PORT}/portal\n  e-mail:   ${email}\n  password: ${shown}\n\n`,
  );
}
