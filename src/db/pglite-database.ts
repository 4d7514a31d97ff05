import { PGlite } from "@electric-sql/pglite";
import { copyBinary, COPY_HEADER, COPY_TRAILER } from "./copy-binary.js";
import type { CopyColumn } from "./copy-binary.js";
import { copyStatement } from "./database.js";
import type { Database, Queryable, Row, Subscriber } from "./database.js";
import type { CopyValue } from "./copy-binary.js";
import { DirectoryLock } from "./directory-lock.js";

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in a
 * directory, so `npm start` needs no server. One process owns the directory; LISTEN/NOTIFY
 * works inside that process, which is all the embedded mode has.
 */
export class PgliteDatabase implements Database {
  readonly kind = "pglite";

  private constructor(
    private readonly db: PGlite,
    private readonly lock: DirectoryLock | null,
  ) {}

  /**
   * Opens (creating if needed) the database in `dataDir`; in memory when `dataDir` is undefined.
   * A new database starts from `template` (a `dumpDataDir()` tarball) when given, which skips
   * the several seconds of initdb (tests use it).
   */
  static async open(dataDir: string | undefined, template?: Blob): Promise<PgliteDatabase> {
    const lock = dataDir === undefined ? null : await DirectoryLock.acquire(dataDir);
    try {
      const db = await PgliteDatabase.start(dataDir, template);
      return new PgliteDatabase(db, lock);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  private static async start(dataDir: string | undefined, template?: Blob): Promise<PGlite> {
    const db = new PGlite({
      ...(dataDir === undefined ? {} : { dataDir }),
      ...(template ? { loadDataDir: template } : {}),
    });
    await db.waitReady;
    return db;
  }

  /** The database files as a tarball, to start other databases from (see `open`). */
  async dump(): Promise<Blob> {
    return this.db.dumpDataDir("none");
  }

  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, params as unknown[])).rows;
  }

  async script(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async copyRows(
    table: string,
    columns: readonly CopyColumn[],
    rows: readonly (readonly CopyValue[])[],
  ): Promise<void> {
    await copyBlob(this.db, table, columns, [copyBinary(columns, rows)]);
  }

  /**
   * Appends rows already in binary COPY tuple form (copyTuples) to `table`: `parts` are joined
   * between one header and one trailer, never decoded here. All or nothing, like copyRows.
   */
  async copyTuples(
    table: string,
    columns: readonly CopyColumn[],
    parts: readonly Uint8Array[],
  ): Promise<void> {
    await copyBlob(this.db, table, columns, [COPY_HEADER, ...parts, COPY_TRAILER]);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      work({
        query: async <R extends Row>(sql: string, params: readonly unknown[] = []) =>
          (await tx.query<R>(sql, params as unknown[])).rows,
        script: async (sql: string) => void (await tx.exec(sql)),
        copyRows: (table, columns, rows) => copyBlob(tx, table, columns, [copyBinary(columns, rows)]),
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
    this.lock?.release();
  }
}

/** PGlite takes COPY input as a blob in place of the client's standard input. */
async function copyBlob(
  db: Pick<PGlite, "query">,
  table: string,
  columns: readonly CopyColumn[],
  input: readonly Uint8Array[],
): Promise<void> {
  await db.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([...input]) });
}
