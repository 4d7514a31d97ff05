import type {
  AccountStore,
  KeyGuessLimiter,
  RequestLog,
  RequestLogEntry,
  UsageLedger,
  UsageRecord,
} from "../accounts/accounts.js";
import type { LeaseRequest, LeaseSource } from "../accounts/credit-leases.js";
import type { Channel, Handlers } from "./rpc.js";
import { serveRpc } from "./rpc.js";
import { ACCOUNTS_SERVICE } from "./remote-accounts.js";

/**
 * What a cluster primary may hold for its workers: the accounts database services (when only
 * one process can open the database: the embedded PGlite) and the key-guess limiter (when no
 * Redis shares it, so the count holds across workers).
 */
export interface HostedAccounts {
  accounts?: { accounts: AccountStore; usage: UsageLedger; requestLog: RequestLog; leaseSource: LeaseSource };
  keyGuesses?: KeyGuessLimiter;
}

export type HostedPart = "accounts" | "limiter";

export function hostedParts(hosted: HostedAccounts): HostedPart[] {
  return [
    ...(hosted.accounts ? (["accounts"] as const) : []),
    ...(hosted.keyGuesses ? (["limiter"] as const) : []),
  ];
}

/** Dates cross IPC as ISO strings; the stores expect Date objects. */
function revive<T extends { at: Date | string }>(record: T): T & { at: Date } {
  return { ...record, at: new Date(record.at) };
}

/**
 * The primary's side of RemoteAccountStore & co.: answers one worker's calls with the real
 * services. A usage batch answers one outcome per record: null once durable, else the reason.
 */
export function hostAccounts(channel: Channel, hosted: HostedAccounts): () => void {
  const handlers: Handlers = {};
  const { accounts, keyGuesses } = hosted;
  if (accounts) {
    handlers.authenticate = (secret: string) => accounts.accounts.authenticate(secret);
    handlers.recordUsage = async (records: UsageRecord[]) => {
      const outcomes = await Promise.allSettled(
        records.map((record) => accounts.usage.record(revive(record))),
      );
      return outcomes.map((outcome) => (outcome.status === "fulfilled" ? null : String(outcome.reason)));
    };
    handlers.acquireLease = (request: LeaseRequest) => accounts.leaseSource.acquire(request);
    handlers.settleLease = async (teamId: string, holder: string, outstandingMicros: number) => {
      await accounts.leaseSource.settle(teamId, holder, outstandingMicros);
      return true;
    };
    handlers.appendLogs = (entries: RequestLogEntry[]) => {
      for (const entry of entries) accounts.requestLog.append(revive(entry));
      return true;
    };
  }
  if (keyGuesses) {
    handlers.noteUnrecognized = (client: string, keyHash: string) =>
      keyGuesses.noteUnrecognized(client, keyHash);
  }
  return serveRpc(channel, ACCOUNTS_SERVICE, handlers);
}
