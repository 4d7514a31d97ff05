import { describeKey, generateApiKey } from "../accounts/api-keys.js";
import { newUlid } from "../ids.js";
import { announce } from "../accounts/sql/account-changes.js";
import type { Database } from "../db/database.js";

export const DEMO_TEAM_ID = "team_demo";
/** Credit of the demo team at creation: 1,000 currency units. */
export const DEMO_CREDIT_MICROS = 1_000_000_000;

/**
 * On first start with an empty database, creates the demo team with one key and returns its
 * secret (the caller prints it once; only the hash is stored). With `fixedKey` (DEMO_API_KEY)
 * that key is the demo key, and it is added to the demo team if a later start introduces it.
 * Replicas starting together serialize on an advisory lock, so only one creates the team.
 */
export async function ensureDemoTeam(db: Database, fixedKey?: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7261002)");
    const empty = (await tx.query("SELECT 1 FROM teams LIMIT 1")).length === 0;
    if (empty) {
      await tx.query("INSERT INTO teams (id, name, credit_granted_micros) VALUES ($1, 'Demo', $2)", [
        DEMO_TEAM_ID,
        DEMO_CREDIT_MICROS,
      ]);
    }
    const key = fixedKey === undefined ? (empty ? generateApiKey() : null) : describeKey(fixedKey);
    if (key === null) return null;
    const demoExists = (await tx.query("SELECT 1 FROM teams WHERE id = $1", [DEMO_TEAM_ID])).length > 0;
    if (!demoExists) return null;
    await tx.query(
      `INSERT INTO api_keys (id, team_id, name, display_prefix, hash) VALUES ($1, $2, 'demo', $3, $4)
       ON CONFLICT (hash) DO NOTHING`,
      [`key_${newUlid()}`, DEMO_TEAM_ID, key.displayPrefix, key.hash],
    );
    await announce(tx, { kind: "key", hash: key.hash });
    return empty && fixedKey === undefined ? key.secret : null;
  });
}
