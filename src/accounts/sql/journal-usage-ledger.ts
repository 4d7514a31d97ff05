import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { OPERATIONS } from "../accounts.js";
import type { Operation, UsageLedger, UsageRecord } from "../accounts.js";
import type { Database } from "./database.js";
import type { PendingSpend } from "./pending-spend.js";
import { billUsage } from "./usage-writes.js";

export interface JournalLedgerOptions {
  /** The journal's directory; one process owns it (the embedded database's lock guards both). */
  dir: string;
  /** How often journaled rows are applied to the database. */
  applyEveryMs: number;
  /** Rows per database statement when applying. */
  applyBatch: number;
  /** Called with each batch once it is durable (the account cache charges its teams at once). */
  onDurable?: (records: readonly UsageRecord[]) => void;
  /** Kept up to date with what is journaled but not yet applied. */
  pendingSpend?: PendingSpend;
  log?: Logger;
}

interface Waiting {
  usage: UsageRecord;
  resolve(): void;
  reject(error: unknown): void;
}

/** A journal file: appended to while current, applied to the database and deleted once closed. */
interface Segment {
  path: string;
  file: FileHandle | null;
  size: number;
  records: UsageRecord[];
}

const SEGMENT = /^usage-(\d{12})\.jsonl$/;

/**
 * The usage ledger of the embedded database. A usage row is durable once it is in an
 * append-only journal on the local disk: `record()` resolves after the `fdatasync` that covers
 * it, and rows arriving while one sync runs share the next (group commit in native code, with
 * no database work on the answer's path). Every `applyEveryMs` the journal is closed, a new one
 * started, and the closed one's rows are written into the database in large batches (COPY,
 * idempotent by request ID) and the file deleted. At start, journals left by a process that
 * died are applied first. PGlite costs tens of microseconds of the one event loop for every
 * small transaction; this way it sees a few large ones a second.
 */
export class JournalUsageLedger implements UsageLedger {
  private waiting: Waiting[] = [];
  private current: Segment;
  private closedSegments: Segment[] = [];
  /** File work runs one step at a time, in order: appends and the switch to a new segment. */
  private io: Promise<unknown> = Promise.resolve();
  private syncing = false;
  private applying: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private nextSequence: number;

  private constructor(
    private readonly db: Database,
    private readonly options: JournalLedgerOptions,
    sequence: number,
    first: Segment,
  ) {
    this.nextSequence = sequence;
    this.current = first;
    this.timer = setInterval(() => void this.apply().catch(() => {}), options.applyEveryMs);
    this.timer.unref();
  }

  /** Applies journals left over from an earlier process, then opens a new one. */
  static async open(db: Database, options: JournalLedgerOptions): Promise<JournalUsageLedger> {
    mkdirSync(options.dir, { recursive: true });
    const leftover = readdirSync(options.dir)
      .filter((name) => SEGMENT.test(name))
      .sort();
    let sequence = 0;
    for (const name of leftover) {
      sequence = Math.max(sequence, Number(SEGMENT.exec(name)![1]));
      const path = join(options.dir, name);
      const records = readJournal(readFileSync(path, "utf8"));
      await applyRecords(db, records, options.applyBatch);
      await unlink(path);
      if (records.length > 0)
        options.log?.info({ journal: name, records: records.length }, "usage journal applied");
    }
    const first = await openSegment(options.dir, sequence + 1);
    return new JournalUsageLedger(db, options, sequence + 2, first);
  }

  record(usage: UsageRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ usage, resolve, reject });
      if (!this.syncing) this.sync();
    });
  }

  /** Appends and syncs everything waiting; rows arriving meanwhile go in the next sync. */
  private sync(): void {
    this.syncing = true;
    // After this turn of the event loop, with whatever else arrived in it.
    setImmediate(() => {
      const batch = this.waiting;
      this.waiting = [];
      void this.step(() => this.append(batch)).finally(() => {
        if (this.waiting.length > 0) this.sync();
        else this.syncing = false;
      });
    });
  }

  private step<T>(work: () => Promise<T>): Promise<T> {
    const next = this.io.then(work);
    this.io = next.catch(() => {});
    return next;
  }

  private async append(batch: Waiting[]): Promise<void> {
    const segment = this.current;
    const records = batch.map((waiting) => waiting.usage);
    const text = records.map(journalLine).join("");
    try {
      if (segment.file === null) throw new Error("usage journal is closed");
      const { bytesWritten } = await segment.file.write(text, segment.size, "utf8");
      if (bytesWritten !== Buffer.byteLength(text)) throw new Error("short write to the usage journal");
      await segment.file.datasync();
    } catch (error) {
      // Cut the journal back to its last synced length, so these rows, whose answers are
      // withheld, are never applied. If it cannot be cut, a new journal takes over: the old one
      // is applied from memory (its synced rows only) and deleted, so its tail is never read.
      const cut = await segment.file?.truncate(segment.size).then(
        () => true,
        () => false,
      );
      if (!cut)
        await this.startSegment().catch((failed: unknown) =>
          this.options.log?.error({ err: failed }, "usage journal could not be replaced"),
        );
      this.options.log?.error({ err: error, records: records.length }, "usage journal write failed");
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    segment.size += Buffer.byteLength(text);
    segment.records.push(...records);
    this.options.pendingSpend?.add(records);
    this.options.onDurable?.(records);
    for (const waiting of batch) waiting.resolve();
  }

  /** Resolves once every row synced so far is in the database. */
  settle(): Promise<void> {
    return this.apply();
  }

  /** Closes the current journal (when it holds rows), starts a new one, applies the closed ones. */
  async apply(): Promise<void> {
    while (this.applying) await this.applying;
    this.applying = this.applyClosed().finally(() => (this.applying = null));
    await this.applying;
  }

  private async applyClosed(): Promise<void> {
    await this.step(async () => {
      if (this.current.records.length > 0) await this.startSegment();
    });
    while (this.closedSegments.length > 0) {
      const segment = this.closedSegments[0]!;
      try {
        await applyRecords(this.db, segment.records, this.options.applyBatch);
        this.options.pendingSpend?.remove(segment.records);
        await unlink(segment.path);
      } catch (error) {
        this.options.log?.warn(
          { err: error, journal: segment.path },
          "usage journal not applied yet; will retry",
        );
        throw error;
      }
      this.closedSegments.shift();
    }
  }

  /** Starts a new journal and queues the current one to be applied (runs as a step of `io`). */
  private async startSegment(): Promise<void> {
    const next = await openSegment(this.options.dir, this.nextSequence++);
    const closed = this.current;
    this.current = next;
    await closed.file?.close().catch(() => {});
    closed.file = null;
    this.closedSegments.push(closed);
  }

  /** Syncs what is waiting, applies every journal to the database and removes the empty one. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    while (this.syncing || this.waiting.length > 0) await new Promise((resolve) => setImmediate(resolve));
    await this.apply();
    await this.step(async () => {
      await this.current.file?.close();
      this.current.file = null;
      if (this.current.records.length === 0) await unlink(this.current.path).catch(() => {});
    });
  }
}

async function openSegment(dir: string, sequence: number): Promise<Segment> {
  const path = join(dir, `usage-${String(sequence).padStart(12, "0")}.jsonl`);
  return { path, file: await open(path, "wx"), size: 0, records: [] };
}

async function applyRecords(db: Database, records: readonly UsageRecord[], batch: number): Promise<void> {
  for (let start = 0; start < records.length; start += batch) {
    await billUsage(db, records.slice(start, start + batch));
  }
}

function journalLine(r: UsageRecord): string {
  return `${JSON.stringify([r.requestId, r.teamId, r.keyId, r.operation, r.priceMicros, r.at.getTime()])}\n`;
}

/**
 * The rows of a journal. A line cut short by a crash belongs to a write that never synced, so no
 * answer waited on it: it is skipped, as is anything that is not a well-formed row.
 */
export function readJournal(text: string): UsageRecord[] {
  const records: UsageRecord[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const record = parseLine(line);
    if (record) records.push(record);
  }
  return records;
}

function parseLine(line: string): UsageRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 6) return null;
  const [requestId, teamId, keyId, operation, priceMicros, at] = value as unknown[];
  if (
    typeof requestId !== "string" ||
    typeof teamId !== "string" ||
    typeof keyId !== "string" ||
    !OPERATIONS.includes(operation as Operation) ||
    typeof priceMicros !== "number" ||
    typeof at !== "number"
  )
    return null;
  return { requestId, teamId, keyId, operation: operation as Operation, priceMicros, at: new Date(at) };
}
