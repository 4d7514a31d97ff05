import { PGlite } from "@electric-sql/pglite";
import type { Database, Queryable, Row, Subscriber } from "./database.js";

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in a
 * directory, so `npm start` needs no server. One process owns the directory; LISTEN/NOTIFY
 * works inside that process, which is all the embedded mode has.
 */
export class PgliteDatabase implements Database {
  readonly kind = "pglite";

  private constructor(private readonly db: PGlite) {}

  /** Opens (creating if needed) the database in `dataDir`; in memory when `dataDir` is undefined. */
  static async open(dataDir: string | undefined): Promise<PgliteDatabase> {
    const db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
    await db.waitReady;
    return new PgliteDatabase(db);
  }

  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, params as unknown[])).rows;
  }

  async script(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      work({
        query: async <R extends Row>(sql: string, params: readonly unknown[] = []) =>
          (await tx.query<R>(sql, params as unknown[])).rows,
        script: async (sql: string) => void (await tx.exec(sql)),
      }),
    );
  }

  async listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>> {
    const unlisten = await this.db.listen(channel, (payload) => subscriber.onMessage(payload));
    subscriber.onLive(true);
    return async () => unlisten();
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
