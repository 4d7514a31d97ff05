/**
 * The one SQL surface both account backends share: PostgreSQL through `pg` (DATABASE_URL) and
 * the embedded PGlite (DATA_DIR). Every statement is parameterized (`$1`…); no value is ever
 * spliced into SQL text.
 */
import type { CopyColumn, CopyValue } from "./copy-binary.js";

export type Row = Record<string, unknown>;

/**
 * A value of one column in a bulk copy: text, a number (a timestamp as Unix milliseconds), or
 * SQL NULL; the column's CopyType says how it is sent.
 */

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Appends `rows` to `table` with COPY, the cheapest way into PostgreSQL per row. All or
   * nothing: a row that breaks a constraint (a duplicate key, code 23505) fails the whole copy.
   */
  copyRows(
    table: string,
    columns: readonly CopyColumn[],
    rows: readonly (readonly CopyValue[])[],
  ): Promise<void>;
  /** Runs a script of several statements without parameters (migrations). */
  script(sql: string): Promise<void>;
}

/** Reports notifications on one channel and whether the subscription is currently live. */
export interface Subscriber {
  onMessage(payload: string): void;
  /** False when notifications may be missed (connection lost); true once they flow again. */
  onLive(live: boolean): void;
}

export interface Database extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to a LISTEN/NOTIFY channel; resolves with the unsubscribe function. */
  listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Postgres `bigint` arrives as a string from `pg` and as a number from PGlite. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}

/**
 * A duplicate key (PostgreSQL error 23505): what makes a COPY of rows already present fail whole,
 * so the caller writes them again with ON CONFLICT DO NOTHING.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

/**
 * Rows turned into one array per column: the parameters of an `unnest($1::…[], …)` insert, the
 * way a batch goes in when its copy failed. Timestamps become ISO strings, which the array
 * casts read.
 */
export function columnsOf(
  rows: readonly (readonly CopyValue[])[],
  columns: readonly CopyColumn[],
): CopyValue[][] {
  return columns.map((column, i) =>
    rows.map((row) => {
      const value = row[i] ?? null;
      return column.type === "timestamptz" && typeof value === "number"
        ? new Date(value).toISOString()
        : value;
    }),
  );
}

/** `COPY table (columns) FROM source` in the binary format (copyBinary), every name quoted. */
export function copyStatement(table: string, columns: readonly CopyColumn[], source: string): string {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `COPY ${quote(table)} (${columns.map((column) => quote(column.name)).join(", ")}) FROM ${source} WITH (FORMAT binary)`;
}
