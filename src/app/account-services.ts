import cluster from "node:cluster";
import type { Logger } from "pino";
import type { AccountStore, KeyGuessLimiter, RequestLog, UsageLedger } from "../accounts/accounts.js";
import { openAccounts } from "./accounts-backend.js";
import type { Database } from "../db/database.js";
import { ensureDemoTeam } from "./demo-team.js";
import { ensureDemoPortalUser } from "./demo-portal-user.js";
import type { Config } from "../config.js";
import type { HostedAccounts } from "../cluster/accounts-host.js";
import { partsHostedForThisWorker } from "../cluster/hosted-parts.js";
import {
  ACCOUNTS_SERVICE,
  RemoteAccountStore,
  RemoteKeyGuessLimiter,
  RemoteLeaseSource,
  RemoteRequestLog,
  RemoteUsageLedger,
} from "../cluster/remote-accounts.js";
import { RpcClient, parentChannel } from "../cluster/rpc.js";
import { CreditLeases } from "../accounts/credit-leases.js";
import { leaseHolder } from "./accounts-backend.js";

/** The accounts services a server process uses, however they are provided. */
export interface AccountServices {
  /** The accounts database, when this process holds it (not in a worker whose primary hosts it). */
  db?: Database;
  accounts: AccountStore;
  usage: UsageLedger;
  requestLog: RequestLog;
  keyGuesses: KeyGuessLimiter;
  leases: CreditLeases;
  close(): Promise<void>;
}

/**
 * Opens the accounts services of this process: the database's own (single process, or a worker
 * on PostgreSQL), or proxies to the primary for the parts it hosts. Only a process that is not
 * a worker creates the demo team, so replicas starting together never race to create it.
 */
export async function openAccountServices(config: Config, log: Logger): Promise<AccountServices> {
  const hosted = partsHostedForThisWorker();
  const rpc =
    hosted.size > 0 ? new RpcClient(parentChannel(), ACCOUNTS_SERVICE, config.KEY_CHECK_TIMEOUT_MS) : null;
  const backend = hosted.has("accounts") ? null : await openAccounts(config, log);
  if (backend && !cluster.isWorker) await ensureDemoAccounts(backend.db, config, log);
  const remote =
    rpc && hosted.has("accounts")
      ? {
          accounts: new RemoteAccountStore(rpc),
          usage: new RemoteUsageLedger(rpc),
          requestLog: new RemoteRequestLog(rpc),
          leases: new CreditLeases(new RemoteLeaseSource(rpc), leaseHolder()),
        }
      : null;
  const services = remote ?? backend!;
  const keyGuesses = rpc && hosted.has("limiter") ? new RemoteKeyGuessLimiter(rpc) : backend!.keyGuesses;
  return {
    ...(backend ? { db: backend.db } : {}),
    accounts: services.accounts,
    usage: services.usage,
    requestLog: services.requestLog,
    keyGuesses,
    leases: services.leases,
    async close() {
      if (remote) {
        await Promise.all([remote.usage.close(), remote.requestLog.close()]);
        await remote.leases.close();
      }
      await backend?.close();
      rpc?.close();
    },
  };
}

/**
 * What a cluster primary opens for its workers: the accounts database when it is the embedded
 * PGlite (one process only), the key-guess limiter when no Redis shares it; null when every
 * worker opens its own. It also migrates the schema and creates the demo team, once.
 */
export async function openHostedAccounts(
  config: Config,
  log: Logger,
): Promise<{ hosted: HostedAccounts; close(): Promise<void> } | null> {
  const backend = await openAccounts(config, log);
  await ensureDemoAccounts(backend.db, config, log);
  const hostDatabase = config.DATABASE_URL === undefined;
  const hostLimiter = config.REDIS_URL === undefined;
  if (!hostDatabase && !hostLimiter) {
    await backend.close();
    return null;
  }
  return {
    hosted: {
      ...(hostDatabase ? { accounts: backend } : {}),
      ...(hostLimiter ? { keyGuesses: backend.keyGuesses } : {}),
    },
    close: () => backend.close(),
  };
}

/** The demo team, its key and its portal user, created on the first start with an empty database. */
async function ensureDemoAccounts(db: Database, config: Config, log: Logger): Promise<void> {
  await announceDemoKey(await ensureDemoTeam(db, config.DEMO_API_KEY), log);
  await ensureDemoPortalUser(db, config, log);
}

/**
 * The demo key is printed once, when the demo team is created on an empty database; only its
 * hash is stored, so it cannot be shown again (create another with `situs admin key create`).
 */
async function announceDemoKey(secret: string | null, log: Logger): Promise<void> {
  if (secret === null) return;
  log.info("created the demo team and its API key (printed once on stderr)");
  process.stderr.write(`\nDemo API key (shown only now; only its hash is stored):\n  ${secret}\n\n`);
}
