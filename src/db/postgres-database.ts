import pg from "pg";
import { copyBinary } from "./copy-binary.js";
import type { CopyColumn } from "./copy-binary.js";
import { copyStatement } from "./database.js";
import type { Database, Queryable, Row, Subscriber } from "./database.js";
import type { CopyValue } from "./copy-binary.js";
import { PipelinedCopy } from "./pipelined-copy.js";

export interface PostgresOptions {
  url: string;
  /** Longest any statement may run, client side and server side, before it fails. */
  timeoutMs: number;
  poolSize?: number;
}

/**
 * PostgreSQL through a `pg` pool. Statements time out on both sides (`statement_timeout` and
 * `query_timeout`) so an unreachable or hung server turns into an error, never a hang.
 * LISTEN uses one dedicated connection that reconnects with backoff.
 */
export class PostgresDatabase implements Database {
  readonly kind = "postgres";
  private readonly pool: pg.Pool;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: PostgresOptions) {
    this.pool = new pg.Pool({ ...clientConfig(options), max: options.poolSize ?? 8 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on("error", () => {});
  }

  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.pool.query<T>(sql, params as unknown[]);
    return result.rows;
  }

  async script(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async copyRows(
    table: string,
    columns: readonly CopyColumn[],
    rows: readonly (readonly CopyValue[])[],
  ): Promise<void> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await copyInto(client, table, columns, rows);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost while checked out is reported as an 'error' event besides the failed
    // query; without a listener that event would crash the process.
    const ignore = (): void => {};
    client.on("error", ignore);
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work({
        query: async <R extends Row>(sql: string, params: readonly unknown[] = []) =>
          (await client.query<R>(sql, params as unknown[])).rows,
        script: async (sql: string) => void (await client.query(sql)),
        copyRows: (table, columns, rows) => copyInto(client, table, columns, rows),
      });
      await client.query("COMMIT");
      return result;
    } catch (error) {
      broken = await client.query("ROLLBACK").then(
        () => false,
        () => true,
      );
      throw error;
    } finally {
      client.off("error", ignore);
      client.release(broken);
    }
  }

  async listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>> {
    const listener = new Listener(this.options, channel, subscriber);
    this.listeners.add(listener);
    await listener.start();
    return async () => {
      this.listeners.delete(listener);
      await listener.stop();
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener.stop()));
    await this.pool.end();
  }
}

/** COPY … FROM STDIN on `client`, in one round trip; bounded by `query_timeout` like any query. */
async function copyInto(
  client: pg.PoolClient,
  table: string,
  columns: readonly CopyColumn[],
  rows: readonly (readonly CopyValue[])[],
): Promise<void> {
  const copy = new PipelinedCopy(copyStatement(table, columns, "STDIN"), copyBinary(columns, rows));
  client.query(copy);
  await copy.done;
}

function clientConfig(options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: options.url,
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: options.timeoutMs,
    statement_timeout: options.timeoutMs,
    idle_in_transaction_session_timeout: options.timeoutMs * 5,
    keepAlive: true,
    application_name: "situs",
  };
}

/**
 * A connection cut without a word (a partition) would leave LISTEN silent for minutes of TCP
 * timeouts; a heartbeat every 250 ms that must answer within 500 ms bounds that to 0.75 s, after
 * which the subscriber drops its cache (docs/accounts.md "Caches").
 */
const HEARTBEAT_MS = 250;
const HEARTBEAT_TIMEOUT_MS = 500;

/** One LISTEN connection; on loss it reports not-live and reconnects (0.1 s, doubling to 5 s). */
class Listener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(
    private readonly options: PostgresOptions,
    private readonly channel: string,
    private readonly subscriber: Subscriber,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(clientConfig(this.options));
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === this.channel) this.subscriber.onMessage(message.payload ?? "");
    });
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.retryMs = 100;
    this.subscriber.onLive(true);
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => this.beat(client), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private beat(client: pg.Client): void {
    if (this.client !== client || this.beating) return;
    this.beating = true;
    const timeout = setTimeout(() => this.lost(client), HEARTBEAT_TIMEOUT_MS);
    client
      .query("SELECT 1")
      .catch(() => this.lost(client))
      .finally(() => {
        clearTimeout(timeout);
        this.beating = false;
      });
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    clearInterval(this.heartbeat);
    this.subscriber.onLive(false);
    void client.end().catch(() => {});
    if (!this.stopped) this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.timer = setTimeout(() => {
      this.start().catch(() => {
        const failed = this.client;
        if (failed) this.lost(failed);
        else if (!this.stopped) this.scheduleRetry();
      });
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 5000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
