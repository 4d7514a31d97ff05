import type {
  AccountStore,
  KeyGuessLimiter,
  RequestLog,
  RequestLogEntry,
  UsageLedger,
  UsageRecord,
} from "../accounts/accounts.js";
import type { Channel } from "./rpc.js";
import { serveRpc } from "./rpc.js";
import { ACCOUNTS_SERVICE } from "./remote-accounts.js";

export interface HostedAccounts {
  accounts: AccountStore;
  usage: UsageLedger;
  requestLog: RequestLog;
  keyGuesses: KeyGuessLimiter;
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
  return serveRpc(channel, ACCOUNTS_SERVICE, {
    authenticate: (secret: string) => hosted.accounts.authenticate(secret),
    recordUsage: async (records: UsageRecord[]) => {
      const outcomes = await Promise.allSettled(records.map((record) => hosted.usage.record(revive(record))));
      return outcomes.map((outcome) => (outcome.status === "fulfilled" ? null : String(outcome.reason)));
    },
    appendLogs: (entries: RequestLogEntry[]) => {
      for (const entry of entries) hosted.requestLog.append(revive(entry));
      return true;
    },
    noteUnrecognized: (client: string, keyHash: string) =>
      hosted.keyGuesses.noteUnrecognized(client, keyHash),
  });
}
