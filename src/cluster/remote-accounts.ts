import type {
  AccountStore,
  Authentication,
  KeyGuessLimiter,
  RequestLog,
  RequestLogEntry,
  UsageLedger,
  UsageRecord,
} from "../accounts/accounts.js";
import { BlockedClients, RequestIdTaken } from "../accounts/accounts.js";
import { hashApiKey } from "../accounts/api-keys.js";
import type { LeaseGrant, LeaseRequest, LeaseSource } from "../accounts/credit-leases.js";
import type { RpcClient } from "./rpc.js";

/**
 * The accounts services of a worker process whose primary hosts the database (the embedded
 * PGlite allows one process): each implements the same interface over IPC, batching so that
 * the primary handles a few messages per millisecond, not three per request.
 */
export const ACCOUNTS_SERVICE = "situs.accounts";

/** Verdicts are cached this long; the primary's store evicts revoked keys at once, so a revoked key is refused within it. */
export const VERDICT_TTL_MS = 500;
const VERDICT_CACHE_LIMIT = 50_000;

export class RemoteAccountStore implements AccountStore {
  private readonly verdicts = new Map<string, { auth: Authentication | null; until: number }>();

  constructor(private readonly rpc: RpcClient) {}

  async authenticate(secret: string): Promise<Authentication | null> {
    const known = this.peek(secret);
    if (known !== undefined) return known;
    const now = Date.now();
    const auth = await this.rpc.call<Authentication | null>("authenticate", secret);
    if (this.verdicts.size >= VERDICT_CACHE_LIMIT) this.verdicts.clear();
    this.verdicts.set(hashApiKey(secret), { auth, until: now + VERDICT_TTL_MS });
    return auth;
  }

  peek(secret: string): Authentication | null | undefined {
    const cached = this.verdicts.get(hashApiKey(secret));
    return cached && cached.until > Date.now() ? cached.auth : undefined;
  }

  recognizes(secret: string): boolean {
    return Boolean(this.verdicts.get(hashApiKey(secret))?.auth);
  }

  async close(): Promise<void> {}
}

interface PendingUsage {
  usage: UsageRecord;
  resolve(): void;
  reject(error: Error): void;
}

/** Usage records wait up to `windowMs` and go to the primary together; each resolves when durable there. */
export class RemoteUsageLedger implements UsageLedger {
  private batch: PendingUsage[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly rpc: RpcClient,
    private readonly windowMs = 1,
  ) {}

  record(usage: UsageRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.batch.push({ usage, resolve, reject });
      this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.timer = null;
    try {
      const outcomes = await this.rpc.call<Array<string | null>>(
        "recordUsage",
        batch.map(({ usage }) => usage),
      );
      batch.forEach((pending, index) => {
        const failure = outcomes[index];
        if (failure === null || failure === undefined) pending.resolve();
        else pending.reject(RequestIdTaken.revive(failure));
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async close(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      await this.flush();
    }
  }
}

/** Request-log entries go to the primary every `flushMs` or `maxBatch` entries, fire and forget. */
export class RemoteRequestLog implements RequestLog {
  private entries: RequestLogEntry[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly rpc: RpcClient,
    flushMs = 200,
    private readonly maxBatch = 1000,
  ) {
    this.timer = setInterval(() => this.flush(), flushMs);
    this.timer.unref();
  }

  append(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length >= this.maxBatch) this.flush();
  }

  private flush(): void {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.rpc.call("appendLogs", entries).catch(() => {
      // The primary is gone or slow; the request log is best effort by contract (never delays answers).
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.flush();
  }
}

/** Credit leases of a worker, granted by the primary from the database it holds. */
export class RemoteLeaseSource implements LeaseSource {
  constructor(private readonly rpc: RpcClient) {}

  acquire(request: LeaseRequest): Promise<LeaseGrant> {
    return this.rpc.call<LeaseGrant>("acquireLease", request);
  }

  async settle(teamId: string, holder: string, outstandingMicros: number): Promise<void> {
    await this.rpc.call<boolean>("settleLease", teamId, holder, outstandingMicros);
  }
}

/** Unrecognized keys are counted by the primary, so the limit holds across all workers. */
export class RemoteKeyGuessLimiter implements KeyGuessLimiter {
  private readonly known = new BlockedClients();

  constructor(private readonly rpc: RpcClient) {}

  get blocking(): boolean {
    return this.known.blocking;
  }

  blocked(client: string): boolean {
    return this.known.blocked(client);
  }

  async noteUnrecognized(client: string, keyHash: string): Promise<boolean> {
    const over = await this.rpc.call<boolean>("noteUnrecognized", client, keyHash);
    if (over) this.known.block(client);
    return over;
  }

  async close(): Promise<void> {}
}
