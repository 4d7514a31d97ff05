import type { Logger } from "pino";
import type { RequestLog, RequestLogEntry } from "../accounts.js";
import { columnsOf, isUniqueViolation } from "../../db/database.js";
import type { CopyColumn } from "../../db/copy-binary.js";
import type { Database, Queryable } from "../../db/database.js";
import type { CopyValue } from "../../db/copy-binary.js";

export interface RequestLogOptions {
  /** How often queued entries are written (also when `maxBatch` have gathered). */
  flushMs: number;
  maxBatch: number;
  /** Entries older than this many days are deleted (hourly, and at start). */
  retentionDays: number;
  /** Entries kept in memory while the database is unreachable; the oldest are dropped beyond. */
  maxQueued?: number;
  log?: Logger;
}

const COLUMNS: readonly CopyColumn[] = [
  { name: "request_id", type: "text" },
  { name: "team_id", type: "text" },
  { name: "key_id", type: "text" },
  { name: "method", type: "text" },
  { name: "path", type: "text" },
  { name: "status", type: "int4" },
  { name: "error_code", type: "text" },
  { name: "latency_ms", type: "float4" },
  { name: "at", type: "timestamptz" },
];

const INSERT = `
  INSERT INTO request_logs (request_id, team_id, key_id, method, path, status, error_code, latency_ms, at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[],
                       $8::real[], $9::timestamptz[])
  ON CONFLICT (request_id) DO NOTHING`;

// last_used_at rides on the log write: it is informational and must not slow the answer.
const TOUCH_KEYS = `
  UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
    FROM (SELECT key_id, max(at) AS at FROM unnest($1::text[], $2::timestamptz[]) AS t(key_id, at) GROUP BY key_id) u
   WHERE k.id = u.key_id`;

const HOUR_MS = 3_600_000;

/**
 * The request log, written in batches off the answer path: `append()` only queues. A failed
 * write keeps the entries for the next attempt, up to `maxQueued` (then the oldest are dropped,
 * and counted in the log), so an outage of the database never reaches the caller.
 */
export class SqlRequestLog implements RequestLog {
  private queue: RequestLogEntry[] = [];
  /** Keys last used by billed answers, whose entries are in their usage rows: key → time. */
  private touched = new Map<string, Date>();
  private dropped = 0;
  private flushing: Promise<void> | null = null;
  private readonly flushTimer: NodeJS.Timeout;
  private readonly retentionTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly options: RequestLogOptions,
  ) {
    this.flushTimer = setInterval(() => void this.flush(), options.flushMs);
    this.flushTimer.unref();
    this.retentionTimer = setInterval(() => void this.prune(), HOUR_MS);
    this.retentionTimer.unref();
    void this.prune();
  }

  append(entry: RequestLogEntry): void {
    if (entry.inUsageRecord) {
      noteKeyUse(this.touched, entry.keyId, entry.at);
      return;
    }
    this.queue.push(entry);
    const max = this.options.maxQueued ?? 200_000;
    if (this.queue.length > max) {
      this.dropped += this.queue.length - max;
      this.queue.splice(0, this.queue.length - max);
    }
    if (this.queue.length >= this.options.maxBatch) void this.flush();
  }

  /** Writes everything queued now; resolves when done (failures keep entries queued). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0 && this.touched.size === 0) return;
    const batch = this.queue.splice(0, this.options.maxBatch);
    let written = false;
    this.flushing = this.write(batch)
      .then((ok) => void (written = ok))
      .finally(() => (this.flushing = null));
    await this.flushing;
    if (written && this.queue.length >= this.options.maxBatch) await this.flush();
  }

  private async write(batch: RequestLogEntry[]): Promise<boolean> {
    const touched = this.touched;
    this.touched = new Map();
    for (const entry of batch) noteKeyUse(touched, entry.keyId, entry.at);
    const rows = batch.map(copyRow);
    try {
      try {
        await this.insert(touched, (tx) =>
          rows.length === 0 ? Promise.resolve() : tx.copyRows("request_logs", COLUMNS, rows),
        );
      } catch (error) {
        // A request ID logged already (one a trusted proxy sent twice): the copy fails whole,
        // so the batch goes again row by row, skipping what exists.
        if (!isUniqueViolation(error)) throw error;
        await this.insert(touched, (tx) => tx.query(INSERT, columnsOf(rows, COLUMNS)));
      }
      if (this.dropped > 0) {
        this.options.log?.warn({ dropped: this.dropped }, "request log entries dropped during an outage");
        this.dropped = 0;
      }
      return true;
    } catch (error) {
      this.options.log?.warn(
        { err: error, queued: this.queue.length },
        "request log write failed; will retry",
      );
      this.queue.unshift(...batch);
      for (const [keyId, at] of touched) noteKeyUse(this.touched, keyId, at);
      return false;
    }
  }

  private async insert(touched: Map<string, Date>, rows: (tx: Queryable) => Promise<unknown>): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Logs need not be durable before anything (unlike usage): not waiting for the WAL
      // flush leaves the disk to the usage commits that answers wait for. A database crash
      // can lose the last fraction of a second of log entries, never usage.
      await tx.query("SET LOCAL synchronous_commit = off");
      await rows(tx);
      await tx.query(TOUCH_KEYS, [[...touched.keys()], [...touched.values()].map((at) => at.toISOString())]);
    });
  }

  /**
   * Deletes entries past the retention period, and records the period for the entries kept in
   * usage rows (which stay for billing; the request log shows them only within the period).
   */
  async prune(): Promise<number> {
    try {
      await this.db.query("UPDATE request_log_settings SET retention_days = $1", [
        this.options.retentionDays,
      ]);
      const rows = await this.db.query<{ deleted: unknown }>(
        `WITH gone AS (DELETE FROM request_logs WHERE at < now() - make_interval(days => $1) RETURNING 1)
         SELECT count(*) AS deleted FROM gone`,
        [this.options.retentionDays],
      );
      return Number(rows[0]?.deleted ?? 0);
    } catch (error) {
      this.options.log?.warn({ err: error }, "request log retention failed; will retry");
      return 0;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.retentionTimer);
    await this.flush();
  }
}

function copyRow(e: RequestLogEntry): CopyValue[] {
  return [
    e.requestId,
    e.teamId,
    e.keyId,
    e.method,
    e.path,
    e.status,
    e.errorCode,
    e.latencyMs,
    e.at.getTime(),
  ];
}

/** Keeps the latest use of each key. */
function noteKeyUse(uses: Map<string, Date>, keyId: string, at: Date): void {
  const last = uses.get(keyId);
  if (!last || last < at) uses.set(keyId, at);
}
