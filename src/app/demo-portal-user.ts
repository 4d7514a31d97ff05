import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { hashPassword, verifyPassword } from "../accounts/passwords.js";
import type { Database } from "../db/database.js";
import { DEMO_TEAM_ID } from "./demo-team.js";
import type { Config } from "../config.js";
import { newUlid } from "../ids.js";

type DemoConfig = Pick<Config, "DEMO_PORTAL_EMAIL" | "DEMO_PORTAL_PASSWORD" | "HOST" | "PORT" | "TLS_CERT">;

/** Portal passwords need at least this many characters (as `situs admin` asks). */
const MIN_PASSWORD = 12;

/**
 * The demo team's portal user, so that a fresh `npm start` can sign in at once. Created on the
 * first start that has the demo team and no portal user yet: its password is
 * DEMO_PORTAL_PASSWORD, or a random one printed once (like the demo key, only its hash is
 * stored). With DEMO_PORTAL_PASSWORD set, a later start also resets the password to it.
 * Replicas starting together serialize on an advisory lock, so only one creates the user.
 */
export async function ensureDemoPortalUser(db: Database, config: DemoConfig, log: Logger): Promise<void> {
  const email = config.DEMO_PORTAL_EMAIL;
  const fixed = config.DEMO_PORTAL_PASSWORD;
  if (fixed !== undefined && fixed.length < MIN_PASSWORD) {
    throw new Error(`DEMO_PORTAL_PASSWORD needs at least ${MIN_PASSWORD} characters`);
  }
  const password = fixed ?? randomBytes(12).toString("base64url");
  const created = await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7261020)");
    if ((await tx.query("SELECT 1 FROM teams WHERE id = $1", [DEMO_TEAM_ID])).length === 0) return false;
    const [user] = await tx.query<{ id: string; password_hash: string }>(
      "SELECT id, password_hash FROM portal_users WHERE lower(email) = lower($1)",
      [email],
    );
    if (user) {
      if (fixed !== undefined && !(await verifyPassword(fixed, user.password_hash))) {
        const hash = await hashPassword(fixed);
        await tx.query("UPDATE portal_users SET password_hash = $2 WHERE id = $1", [user.id, hash]);
        log.info({ email }, "demo portal user's password set from DEMO_PORTAL_PASSWORD");
      }
      return false;
    }
    const others = await tx.query("SELECT 1 FROM portal_users WHERE team_id = $1 LIMIT 1", [DEMO_TEAM_ID]);
    if (fixed === undefined && others.length > 0) return false;
    await tx.query("INSERT INTO portal_users (id, team_id, email, password_hash) VALUES ($1, $2, $3, $4)", [
      `usr_${newUlid()}`,
      DEMO_TEAM_ID,
      email,
      await hashPassword(password),
    ]);
    return true;
  });
  if (created) announce(config, fixed === undefined ? password : "(the value of DEMO_PORTAL_PASSWORD)", log);
}

function announce(config: DemoConfig, shown: string, log: Logger): void {
  const scheme = config.TLS_CERT === undefined ? "http" : "https";
  log.info({ email: config.DEMO_PORTAL_EMAIL }, "created the demo portal user (printed once on stderr)");
  process.stderr.write(
    `\nDemo portal: ${scheme}://${config.HOST}:${config.PORT}/portal\n  e-mail:   ${config.DEMO_PORTAL_EMAIL}\n  password: ${shown}\n\n`,
  );
}
