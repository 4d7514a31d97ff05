import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { CreditLeases } from "../accounts/credit-leases.js";
import { SqlLeaseSource } from "../accounts/sql/sql-credit-leases.js";
import { withoutPassword } from "../config.js";
import { JOURNAL_JOBS } from "../accounts/ledger/journal-jobs.js";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { KeyGuessLimiter, LedgerBacklog, UsageLedger, UsageRecord } from "../accounts/accounts.js";
import { MemoryKeyGuessLimiter } from "../accounts/memory-accounts.js";
import { RedisKeyGuessLimiter } from "../accounts/redis-key-guess-limiter.js";
import { AccountAdmin } from "../accounts/sql/account-admin.js";
import type { Database } from "../db/database.js";
import { GroupCommitUsageLedger } from "../accounts/ledger/group-commit-ledger.js";
import { applyLeftoverJournals, JournalUsageLedger } from "../accounts/ledger/journal-usage-ledger.js";
import { PendingSpend } from "../accounts/ledger/pending-spend.js";
import { migrate } from "../db/migrate.js";
import { SERVICE_MIGRATIONS } from "./service-migrations.js";
import { PgliteThreadDatabase } from "../db/pglite-thread-database.js";
import { PostgresDatabase } from "../db/postgres-database.js";
import { SqlAccountStore } from "../accounts/sql/sql-account-store.js";
import { SqlRequestLog } from "../accounts/sql/sql-request-log.js";
import { adminSocketPath, serveAdminSocket } from "../accounts/sql/admin-socket.js";

export type AccountsConfig = Pick<
  Config,
  | "DATA_DIR"
  | "DATABASE_URL"
  | "DATABASE_TIMEOUT_MS"
  | "REDIS_URL"
  | "REDIS_PREFIX"
  | "REDIS_TIMEOUT_MS"
  | "UNKNOWN_KEY_LIMIT"
  | "KEY_CACHE_TTL_MS"
  | "TEAM_REFRESH_MS"
  | "USAGE_COMMIT_WINDOW_MS"
  | "REQUEST_LOG_RETENTION_DAYS"
>;

/** How often the embedded database takes in the usage journal: the lag of its month spend. */
const JOURNAL_APPLY_MS = 250;

/** Where the embedded database's usage journal lives (docs/accounts.md). */
function usageJournalDir(config: Pick<Config, "DATA_DIR">): string {
  return join(config.DATA_DIR, "usage-journal");
}

/** Journal rows per statement when the embedded database takes them in. */
const JOURNAL_APPLY_BATCH = 5000;

/**
 * Applies the usage a stopped service left in its journal (the embedded database only; the
 * caller owns it), so that it counts in what an operator sees and changes.
 */
export async function applyLeftoverUsage(db: Database, config: Pick<Config, "DATA_DIR">): Promise<void> {
  if (db instanceof PgliteThreadDatabase)
    await applyLeftoverJournals(db, { dir: usageJournalDir(config), applyBatch: JOURNAL_APPLY_BATCH });
}

/** Opens the accounts database named by the configuration and brings its schema up to date. */
export async function openDatabase(config: AccountsConfig): Promise<Database> {
  const embeddedDir = join(config.DATA_DIR, "accounts");
  if (config.DATABASE_URL === undefined) mkdirSync(embeddedDir, { recursive: true });
  const db =
    config.DATABASE_URL === undefined
      ? await PgliteThreadDatabase.open(embeddedDir, undefined, JOURNAL_JOBS)
      : new PostgresDatabase({ url: config.DATABASE_URL, timeoutMs: config.DATABASE_TIMEOUT_MS });
  try {
    await migrate(db, SERVICE_MIGRATIONS);
  } catch (error) {
    await db.close().catch(() => {});
    throw config.DATABASE_URL === undefined
      ? error
      : unreachable("PostgreSQL", "DATABASE_URL", config.DATABASE_URL, error);
  }
  return db;
}

/** A dependency that does not answer at start, named with the variable that points to it. */
function unreachable(what: string, variable: string, url: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(`cannot reach ${what} at ${variable}=${withoutPassword(url)} (${reason})`, { cause });
}

/** The Redis of REDIS_URL, answering a PING before the service starts. */
async function reachableRedis(config: AccountsConfig & { REDIS_URL: string }): Promise<RedisKeyGuessLimiter> {
  const limiter = new RedisKeyGuessLimiter({
    url: config.REDIS_URL,
    limit: config.UNKNOWN_KEY_LIMIT,
    prefix: config.REDIS_PREFIX,
    timeoutMs: config.REDIS_TIMEOUT_MS,
  });
  try {
    await limiter.ping();
    return limiter;
  } catch (error) {
    await limiter.close();
    throw unreachable("Redis", "REDIS_URL", config.REDIS_URL, error);
  }
}

/**
 * A usage ledger that can also say when the database reflects every outcome so far, and how many
 * rows it does not yet (its lag, for metrics).
 */
export interface SettlingUsageLedger extends UsageLedger {
  settle(): Promise<void>;
  backlog(): LedgerBacklog;
}

export interface AccountsBackend {
  db: Database;
  accounts: SqlAccountStore;
  usage: SettlingUsageLedger;
  requestLog: SqlRequestLog;
  keyGuesses: KeyGuessLimiter;
  leases: CreditLeases;
  /** Where the credit leases of this process and of workers it hosts are granted. */
  leaseSource: SqlLeaseSource;
  admin: AccountAdmin;
  close(): Promise<void>;
}

/** A name for this process as a credit lease holder: unique per process start. */
export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

/** Everything accounts on one database: key store, usage ledger, request log, limiter, admin. */
export async function openAccounts(
  config: AccountsConfig,
  log?: Logger,
  db?: Database,
): Promise<AccountsBackend> {
  const database = db ?? (await openDatabase(config));
  const pendingSpend = database.kind === "pglite" ? new PendingSpend() : undefined;
  const accounts = await SqlAccountStore.open(database, {
    keyCacheTtlMs: config.KEY_CACHE_TTL_MS,
    teamRefreshMs: config.TEAM_REFRESH_MS,
    ...(pendingSpend ? { pendingSpend } : {}),
  });
  const onDurable = (records: readonly UsageRecord[]) => accounts.noteSpend(records);
  // PostgreSQL: rows committed by group commit, so replicas keep nothing of their own. The
  // embedded PGlite: rows synced to a journal beside it and applied in large batches, since
  // every small transaction would cost the one event loop tens of microseconds.
  const usage: SettlingUsageLedger =
    database instanceof PgliteThreadDatabase
      ? await JournalUsageLedger.open(database, {
          dir: usageJournalDir(config),
          applyEveryMs: JOURNAL_APPLY_MS,
          applyBatch: JOURNAL_APPLY_BATCH,
          onDurable,
          pendingSpend,
          ...(log ? { log } : {}),
        })
      : new GroupCommitUsageLedger(database, {
          windowMs: config.USAGE_COMMIT_WINDOW_MS,
          maxBatch: 2000,
          maxInFlight: 4,
          onDurable,
          ...(log ? { log } : {}),
        });
  const requestLog = new SqlRequestLog(database, {
    flushMs: 500,
    maxBatch: 2000,
    retentionDays: config.REQUEST_LOG_RETENTION_DAYS,
    ...(log ? { log } : {}),
  });
  const redisUrl = config.REDIS_URL;
  const keyGuesses =
    redisUrl === undefined
      ? new MemoryKeyGuessLimiter(config.UNKNOWN_KEY_LIMIT)
      : await reachableRedis({ ...config, REDIS_URL: redisUrl }).catch(async (error: unknown) => {
          await Promise.all([usage.close(), requestLog.close(), accounts.close()]).catch(() => {});
          if (db === undefined) await database.close().catch(() => {});
          throw error;
        });
  const adminSocket = database.kind === "pglite" ? await openAdminSocket(config, database, log) : undefined;
  const leaseSource = new SqlLeaseSource(database, pendingSpend);
  const leases = new CreditLeases(leaseSource, leaseHolder());
  return {
    db: database,
    accounts,
    usage,
    requestLog,
    keyGuesses,
    leases,
    leaseSource,
    admin: new AccountAdmin(database),
    async close() {
      // No new admin commands; answers first (usage), then logs, then the connections they use.
      await adminSocket?.close();
      await usage.close();
      await leases.close();
      await requestLog.close();
      await Promise.all([accounts.close(), keyGuesses.close()]);
      await database.close();
    },
  };
}

/**
 * The admin socket of the process holding the embedded database, so `situs admin` works while the
 * service runs. A socket that cannot be opened (a DATA_DIR path too long for a Unix socket) is
 * logged, and admin then needs the service stopped.
 */
async function openAdminSocket(
  config: Pick<Config, "DATA_DIR">,
  db: Database,
  log?: Logger,
): Promise<{ close(): Promise<void> } | undefined> {
  const path = adminSocketPath(config.DATA_DIR);
  try {
    return await serveAdminSocket(path, db, log);
  } catch (error) {
    log?.warn({ err: error, path }, "no admin socket: situs admin needs the service stopped");
    return undefined;
  }
}
