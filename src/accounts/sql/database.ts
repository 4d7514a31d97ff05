/**
 * The one SQL surface both account backends share: PostgreSQL through `pg` (DATABASE_URL) and
 * the embedded PGlite (DATA_DIR). Every statement is parameterized (`$1`…); no value is ever
 * spliced into SQL text.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
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
