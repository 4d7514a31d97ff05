import { close, constants, mkdirSync, openSync, readdirSync, readFileSync, write } from "node:fs";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Logger } from "pino";
import { atTurnEnd } from "../../runtime/turn-end.js";
import { RequestIdTaken, sameRequest } from "../accounts.js";
import type { LedgerBacklog, Operation, UsageLedger, UsageRecord } from "../accounts.js";
import { SpendTally } from "./pending-spend.js";
import type { PendingSpend } from "./pending-spend.js";
import type { PgliteThreadDatabase } from "../../db/pglite-thread-database.js";
import { encodeJournal } from "./usage-journal.js";
import type { JournalFormat } from "./usage-journal.js";

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
  fd: number;
  /** Bytes reserved by writes so far; each write has its own range. */
  size: number;
  /** The bytes of every write that synced, in the order they did: what the database takes in. */
  synced: Buffer[];
  /** The spend of those rows, pending until the journal is applied. */
  spend: SpendTally;
  /** Their balancer-given request IDs (JournalUsageLedger.givenIds). */
  givenIds: string[];
  /** How many rows synced, and when the first of them was answered (Unix ms). */
  rows: number;
  oldestAt: number | null;
  writes: Set<Promise<void>>;
}

/** What makes two usage records one request (`sameRequest`). */
type Signature = Pick<UsageRecord, "teamId" | "keyId" | "operation">;

/** A journal's name: its number and its format (usage-journal.ts). */
const SEGMENT = /^usage-(\d{12})\.(copy|jsonl)$/;
/** Writes running at once: a row waits for one write, never for one already running plus its own. */
const MAX_WRITES = 8;
const MAX_ROWS_PER_WRITE = 5000;

const writeAt = promisify(write);
const closeFd = promisify(close);

/**
 * The usage ledger of the embedded database. A usage row is durable once it is in an
 * append-only journal beside the database, written to the operating system (DECISIONS.md: as
 * durable as the embedded database itself, which survives the process being killed, not a power
 * loss), encoded once as a binary COPY tuple (usage-journal.ts): `record()` resolves after the
 * write that covers it returns. Rows arriving in one turn of the event loop share one write, and
 * up to eight writes overlap, with no database work on the answer's path.
 * Every `applyEveryMs` the journal is closed, a new one started, and the closed one's rows are
 * written into the database in large batches (its synced tuples copied as they are, on the
 * embedded database's own thread; idempotent by request ID) and the file deleted. At start,
 * journals left by a process that died are applied first, those of the older JSON-lines format
 * too.
 */
export class JournalUsageLedger implements UsageLedger {
  private waiting: Waiting[] = [];
  private pumpScheduled = false;
  /** Appends in flight, over all segments. */
  private inFlight = 0;
  private current: Segment;
  private closedSegments: Segment[] = [];
  private applying: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private nextSequence: number;
  /** Balancer-given request IDs journaled and not yet applied, with their team, key and operation. */
  private readonly givenIds = new Map<string, Signature>();

  private constructor(
    private readonly db: PgliteThreadDatabase,
    private readonly options: JournalLedgerOptions,
    sequence: number,
  ) {
    this.nextSequence = sequence;
    this.current = this.openSegment();
    this.timer = setInterval(() => void this.apply().catch(() => {}), options.applyEveryMs);
    this.timer.unref();
  }

  /** Applies journals left over from an earlier process, then opens a new one. */
  static async open(db: PgliteThreadDatabase, options: JournalLedgerOptions): Promise<JournalUsageLedger> {
    const sequence = await applyLeftoverJournals(db, options);
    return new JournalUsageLedger(db, options, sequence + 1);
  }

  record(usage: UsageRecord): Promise<void> {
    if (usage.givenId) return this.recordGiven(usage);
    return new Promise((resolve, reject) => {
      this.waiting.push({ usage, resolve, reject });
      this.schedulePump();
    });
  }

  /**
   * A record under a request ID from a trusted balancer: a row under it already (in the database,
   * or journaled and not yet applied) is this request replayed, billed already, or another
   * request's (RequestIdTaken). The one read this costs is paid only behind a balancer.
   */
  private async recordGiven(usage: UsageRecord): Promise<void> {
    let found: Signature | "voided" | undefined = this.givenIds.get(usage.requestId);
    if (found === undefined) {
      const [row] = await this.db.query<{
        team_id: string;
        key_id: string;
        operation: Operation;
        voided: boolean;
      }>("SELECT team_id, key_id, operation, voided FROM usage_records WHERE request_id = $1", [
        usage.requestId,
      ]);
      if (row)
        found = row.voided ? "voided" : { teamId: row.team_id, keyId: row.key_id, operation: row.operation };
      // Journaled by another record of this ID while the read ran.
      else found = this.givenIds.get(usage.requestId);
    }
    if (found !== undefined) {
      if (found === "voided" || !sameRequest(found, usage)) throw new RequestIdTaken(usage.requestId);
      return;
    }
    this.givenIds.set(usage.requestId, usage);
    return new Promise((resolve, reject) => {
      this.waiting.push({ usage, resolve, reject });
      this.schedulePump();
    });
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    // At the end of this turn of the event loop, with whatever else arrived in it.
    atTurnEnd(() => {
      this.pumpScheduled = false;
      while (this.waiting.length > 0 && this.inFlight < MAX_WRITES) {
        this.append(this.current, this.waiting.splice(0, MAX_ROWS_PER_WRITE));
      }
    });
  }

  private append(segment: Segment, batch: Waiting[]): void {
    const records = batch.map((waiting) => waiting.usage);
    const bytes = encodeJournal(records);
    const offset = segment.size;
    segment.size += bytes.length;
    this.inFlight++;
    const writing = (async () => {
      try {
        const { bytesWritten } = await writeAt(segment.fd, bytes, 0, bytes.length, offset);
        if (bytesWritten !== bytes.length) throw new Error("short write to the usage journal");
      } catch (error) {
        for (const record of records) if (record.givenId) this.givenIds.delete(record.requestId);
        this.refuse(segment, batch, error);
        return;
      }
      segment.synced.push(bytes);
      for (const record of records) if (record.givenId) segment.givenIds.push(record.requestId);
      segment.spend.add(records);
      segment.rows += records.length;
      segment.oldestAt ??= records[0]?.at.getTime() ?? null;
      this.options.onDurable?.(records);
      for (const waiting of batch) waiting.resolve();
    })().finally(() => {
      this.inFlight--;
      segment.writes.delete(writing);
      if (this.waiting.length > 0) this.schedulePump();
    });
    segment.writes.add(writing);
  }

  /**
   * A write that failed: its answers are withheld, and its bytes may or may not be in the
   * file. The journal is closed at once and applied from memory (its synced rows only), never
   * read back, so those bytes are not applied while this process lives.
   */
  private refuse(segment: Segment, batch: Waiting[], error: unknown): void {
    this.options.log?.error(
      { err: error, records: batch.length, journal: segment.path },
      "usage journal write failed",
    );
    for (const waiting of batch) waiting.reject(error);
    if (segment === this.current) {
      try {
        this.rotate();
      } catch (failed) {
        this.options.log?.error({ err: failed }, "usage journal could not be replaced");
      }
    }
  }

  /** Starts a new journal for new rows and queues the current one to be closed and applied. */
  private rotate(): void {
    const next = this.openSegment();
    this.closedSegments.push(this.current);
    this.current = next;
  }

  private openSegment(): Segment {
    const path = join(this.options.dir, `usage-${String(this.nextSequence++).padStart(12, "0")}.copy`);
    // No O_DSYNC and no fsync: a row is durable once its write has returned (DECISIONS.md: on
    // the embedded database, written to the operating system, which survives the process).
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    const spend = this.options.pendingSpend?.open() ?? new SpendTally();
    return {
      path,
      fd,
      size: 0,
      synced: [],
      spend,
      givenIds: [],
      rows: 0,
      oldestAt: null,
      writes: new Set(),
    };
  }

  /**
   * Rows answered but not yet in the database (waiting for their write, or in a journal not yet
   * applied), and when the oldest was answered.
   */
  backlog(): LedgerBacklog {
    let rows = this.waiting.length;
    let oldestAt = this.waiting[0]?.usage.at.getTime() ?? null;
    for (const segment of [...this.closedSegments, this.current]) {
      rows += segment.rows;
      if (segment.oldestAt !== null && (oldestAt === null || segment.oldestAt < oldestAt))
        oldestAt = segment.oldestAt;
    }
    return { rows, oldestAt };
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
    if (this.current.size > 0) this.rotate();
    while (this.closedSegments.length > 0) {
      const segment = this.closedSegments[0]!;
      await Promise.all(segment.writes);
      try {
        // The synced writes' tuples, joined into one buffer and moved to PGlite's thread, which
        // copies them into the database as they are (journal-jobs.ts, on the database's thread).
        await this.db.runJob<number>("billJournalBytes", Buffer.concat(segment.synced), [
          "copy",
          this.options.applyBatch,
        ]);
        this.options.pendingSpend?.settle(segment.spend);
        for (const requestId of segment.givenIds) this.givenIds.delete(requestId);
        segment.synced = [];
        await closeFd(segment.fd).catch(() => {});
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

  /** Syncs what is waiting, applies every journal to the database and removes the empty one. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    while (this.pumpScheduled || this.inFlight > 0 || this.waiting.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.apply();
    await closeFd(this.current.fd).catch(() => {});
    await unlink(this.current.path).catch(() => {});
  }
}

/**
 * Applies every journal in `dir` to the database and deletes it; returns the highest journal
 * number seen. Only the owner of the embedded database may call it (the service at start, or
 * `situs admin` while the service is stopped), so no journal is still being written.
 */
export async function applyLeftoverJournals(
  db: PgliteThreadDatabase,
  options: Pick<JournalLedgerOptions, "dir" | "applyBatch" | "log">,
): Promise<number> {
  mkdirSync(options.dir, { recursive: true });
  const leftover = readdirSync(options.dir)
    .filter((name) => SEGMENT.test(name))
    .sort();
  let sequence = 0;
  for (const name of leftover) {
    const [, number, format] = SEGMENT.exec(name)!;
    sequence = Math.max(sequence, Number(number));
    const path = join(options.dir, name);
    const bytes = readFileSync(path);
    const size = bytes.length; // the buffer is moved to PGlite's thread, and empty here after
    const unread = await db.runJob<number>("billJournalBytes", bytes, [
      format as JournalFormat,
      options.applyBatch,
    ]);
    await unlink(path);
    if (size > 0) options.log?.info({ journal: name, bytes: size }, "usage journal applied");
    if (unread > 0) {
      // Holes and torn ends of writes that never synced (no answer waited on them): tupleRuns.
      options.log?.warn({ journal: name, bytes: unread }, "usage journal bytes not read");
    }
  }
  return sequence;
}
