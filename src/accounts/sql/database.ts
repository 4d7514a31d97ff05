/**
 * The one SQL surface both account backends share: PostgreSQL through `pg` (DATABASE_URL) and
 * the embedded PGlite (DATA_DIR). Every statement is parameterized (`$1`…); no value is ever
 * spliced into SQL text.
 */
export type Row = Record<string, unknown>;

/** A value of one column in a bulk copy: text, a number, or SQL NULL. */
export type CopyValue = string | number | null;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Appends `rows` to `table` with COPY, the cheapest way into PostgreSQL per row. All or
   * nothing: a row that breaks a constraint (a duplicate key, code 23505) fails the whole copy.
   */
  copyRows(table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]): Promise<void>;
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

/** Rows turned into one array per column: the parameters of an `unnest($1::…[], …)` insert. */
export function columnsOf(rows: readonly (readonly CopyValue[])[], width: number): CopyValue[][] {
  const columns: CopyValue[][] = Array.from({ length: width }, () => []);
  for (const row of rows) for (let i = 0; i < width; i++) columns[i]!.push(row[i] ?? null);
  return columns;
}

/** The COPY text format of `rows`: tab-separated columns, `\N` for NULL, one line per row. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (i > 0) text += "\t";
      text +=
        value === null || value === undefined
          ? "\\N"
          : typeof value === "number"
            ? String(value)
            : escapeCopy(value);
    }
    text += "\n";
  }
  return text;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function escapeCopy(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : value;
}

/** `COPY table (columns) FROM source` with every name quoted. */
export function copyStatement(table: string, columns: readonly string[], source: string): string {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `COPY ${quote(table)} (${columns.map(quote).join(", ")}) FROM ${source}`;
}
