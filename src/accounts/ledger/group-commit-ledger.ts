import type { Logger } from "pino";
import { atTurnEnd } from "../../runtime/turn-end.js";
import { RequestIdTaken } from "../accounts.js";
import type { LedgerBacklog, UsageLedger, UsageRecord } from "../accounts.js";
import type { Database } from "../../db/database.js";
import { billUsage, voidUsage } from "./usage-writes.js";
import type { Billed } from "./usage-writes.js";

export interface GroupCommitOptions {
  /**
   * How long the first request of a batch waits for others while earlier batches are being
   * written; 0: no longer than the current turn of the event loop.
   */
  windowMs: number;
  /** A batch this large is written at once. */
  maxBatch: number;
  /** Batches being written at the same time; later ones gather while these commit. */
  maxInFlight: number;
  /** Called with each batch once it is durable (the account cache charges its teams at once). */
  onDurable?: (records: readonly UsageRecord[]) => void;
  log?: Logger;
}

interface Waiting {
  usage: UsageRecord;
  resolve(): void;
  reject(error: unknown): void;
}

const RETRYABLE = new Set(["40001", "40P01"]); // serialization failure, deadlock detected
const MAX_VOID_QUEUE = 1_000_000;

/**
 * The usage ledger with group commit: `record()` waits a few milliseconds so that the usage rows
 * of many requests go into the database in one transaction, and resolves only once that
 * transaction has committed. When a batch cannot be written its callers are rejected (the edge
 * answers 503) and the batch is voided in the background, so that even a commit whose outcome
 * was unknown ends with no error billed (docs/accounts.md "Exactly once").
 */
export class GroupCommitUsageLedger implements UsageLedger {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** A flush is due at the end of this turn of the event loop. */
  private flushDue = false;
  private inFlight = new Set<Promise<void>>();
  /** The records of the batches being written. */
  private writing = new Set<readonly UsageRecord[]>();
  private toVoid: UsageRecord[] = [];
  private voidTimer: NodeJS.Timeout | undefined;
  private voidRetryMs = 250;

  constructor(
    private readonly db: Database,
    private readonly options: GroupCommitOptions,
  ) {}

  record(usage: UsageRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ usage, resolve, reject });
      if (this.waiting.length >= this.options.maxBatch) this.flush();
      // The batch goes at the end of this turn of the event loop, with whatever else arrived in
      // it; with a window set, and earlier batches being written, it gathers for the window
      // first. When every slot is busy, the batch that finishes first starts the next (see flush).
      else if (this.inFlight.size === 0 || this.options.windowMs === 0) this.flushSoon();
      else this.timer ??= setTimeout(() => this.flush(), this.options.windowMs);
    });
  }

  /** Rows waiting for their commit or being committed, and when the oldest was answered. */
  backlog(): LedgerBacklog {
    let rows = this.waiting.length;
    let oldestAt = this.waiting[0]?.usage.at.getTime() ?? null;
    for (const records of this.writing) {
      rows += records.length;
      const at = records[0]?.at.getTime();
      if (at !== undefined && (oldestAt === null || at < oldestAt)) oldestAt = at;
    }
    return { rows, oldestAt };
  }

  /** Records waiting to be voided (answers withheld whose rows may exist). */
  get pendingVoids(): number {
    return this.toVoid.length;
  }

  private flushSoon(): void {
    if (this.flushDue) return;
    this.flushDue = true;
    atTurnEnd(() => {
      if (this.flushDue) this.flush();
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushDue = false;
    while (this.waiting.length > 0 && this.inFlight.size < this.options.maxInFlight) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      const writing = this.write(batch).finally(() => {
        this.inFlight.delete(writing);
        if (this.waiting.length > 0) this.flush();
      });
      this.inFlight.add(writing);
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    const records = batch.map((waiting) => waiting.usage);
    this.writing.add(records);
    let taken: ReadonlySet<string>;
    try {
      taken = (await this.bill(records)).taken;
    } catch (error) {
      this.options.log?.error({ err: error, records: records.length }, "usage batch not durable");
      for (const waiting of batch) waiting.reject(error);
      this.scheduleVoid(records);
      return;
    } finally {
      this.writing.delete(records);
    }
    if (taken.size === 0) {
      this.options.onDurable?.(records);
      for (const waiting of batch) waiting.resolve();
      return;
    }
    this.options.onDurable?.(records.filter((record) => !taken.has(record.requestId)));
    for (const waiting of batch) {
      if (taken.has(waiting.usage.requestId)) waiting.reject(new RequestIdTaken(waiting.usage.requestId));
      else waiting.resolve();
    }
  }

  private async bill(records: UsageRecord[]): Promise<Billed> {
    try {
      return await billUsage(this.db, records);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (!RETRYABLE.has(code)) throw error;
      this.options.log?.warn({ code, records: records.length }, "usage batch retried after a conflict");
      return billUsage(this.db, records);
    }
  }

  private scheduleVoid(records: UsageRecord[]): void {
    if (this.toVoid.length + records.length > MAX_VOID_QUEUE) {
      this.options.log?.error(
        { dropped: records.length },
        "void queue full; withheld answers may stay billed",
      );
    } else this.toVoid.push(...records);
    this.retryVoidsLater();
  }

  private retryVoidsLater(): void {
    if (this.voidTimer !== undefined) return;
    this.voidTimer = setTimeout(() => void this.voidPending(), this.voidRetryMs);
    this.voidTimer.unref();
  }

  /** Voids everything queued; on failure retries with backoff (0.25 s doubling to 5 s). */
  async voidPending(): Promise<void> {
    clearTimeout(this.voidTimer);
    this.voidTimer = undefined;
    const records = this.toVoid.splice(0, 10_000);
    if (records.length === 0) return;
    try {
      const refunded = await voidUsage(this.db, records);
      if (refunded > 0) this.options.log?.warn({ refunded }, "refunded usage of withheld answers");
      this.voidRetryMs = 250;
    } catch (error) {
      this.toVoid.unshift(...records);
      this.voidRetryMs = Math.min(this.voidRetryMs * 2, 5000);
      this.options.log?.warn(
        { err: error, records: records.length, retryMs: this.voidRetryMs },
        "voiding withheld answers failed; will retry",
      );
    }
    if (this.toVoid.length > 0) this.retryVoidsLater();
  }

  /** Every resolved record is committed already; what is left is voiding withheld answers. */
  settle(): Promise<void> {
    return this.voidPending();
  }

  /** Writes what is waiting, waits for batches in flight, and makes one last attempt at voids. */
  async close(): Promise<void> {
    this.flush();
    while (this.inFlight.size > 0 || this.waiting.length > 0) {
      await Promise.allSettled([...this.inFlight]);
      this.flush();
    }
    await this.voidPending();
    clearTimeout(this.voidTimer);
    this.voidTimer = undefined;
  }
}
