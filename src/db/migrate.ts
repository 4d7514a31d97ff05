import type { Database } from "./database.js";

/** One numbered schema change; never edited once shipped (changes are new entries). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Brings the schema up to date. Replicas starting together serialize on an advisory lock, so
 * each migration runs exactly once; each runs in the transaction that records it.
 */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7261001)");
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ version: number }>("SELECT version FROM schema_migrations")).map(
        (row) => row.version,
      ),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.script(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
