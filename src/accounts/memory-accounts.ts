import type {
  AccountStore,
  Authentication,
  KeyGuessLimiter,
  RequestLog,
  RequestLogEntry,
  TeamStanding,
  UsageLedger,
  UsageRecord,
} from "./accounts.js";
import { BlockedClients, RequestIdTaken, sameRequest } from "./accounts.js";
import { grantFrom } from "./credit-leases.js";
import type { LeaseGrant, LeaseRequest, LeaseSource } from "./credit-leases.js";
import { describeKey, hashApiKey } from "./api-keys.js";

/** In-memory accounts: for tests and for faults injected around the real stores. */
export class MemoryAccountStore implements AccountStore {
  private readonly teams = new Map<string, TeamStanding>();
  private readonly keys = new Map<
    string,
    { keyId: string; keyPrefix: string; teamId: string; revoked: boolean }
  >();

  addTeam(team: Partial<TeamStanding> & { teamId: string }): TeamStanding {
    const standing: TeamStanding = {
      status: "active",
      creditMicros: 1_000_000_000,
      budgetMicros: null,
      monthSpendMicros: 0,
      ...team,
    };
    this.teams.set(team.teamId, standing);
    return standing;
  }

  team(teamId: string): TeamStanding | undefined {
    return this.teams.get(teamId);
  }

  addKey(teamId: string, secret: string, keyId = `key_${this.keys.size + 1}`): void {
    const { hash, displayPrefix } = describeKey(secret);
    this.keys.set(hash, { keyId, keyPrefix: displayPrefix, teamId, revoked: false });
  }

  revokeKey(secret: string): void {
    const key = this.keys.get(hashApiKey(secret));
    if (key) key.revoked = true;
  }

  async authenticate(secret: string): Promise<Authentication | null> {
    return this.peek(secret);
  }

  peek(secret: string): Authentication | null {
    const key = this.keys.get(hashApiKey(secret));
    if (!key || key.revoked) return null;
    const team = this.teams.get(key.teamId);
    if (!team) return null;
    return { key: { keyId: key.keyId, keyPrefix: key.keyPrefix, teamId: key.teamId }, team: { ...team } };
  }

  recognizes(secret: string): boolean {
    return this.peek(secret) !== null;
  }

  async close(): Promise<void> {}
}

export class MemoryUsageLedger implements UsageLedger {
  readonly records = new Map<string, UsageRecord>();

  constructor(private readonly onRecord?: (usage: UsageRecord) => void) {}

  async record(usage: UsageRecord): Promise<void> {
    const present = this.records.get(usage.requestId);
    if (present !== undefined) {
      if (!sameRequest(present, usage)) throw new RequestIdTaken(usage.requestId);
      return;
    }
    this.records.set(usage.requestId, usage);
    this.onRecord?.(usage);
  }

  async close(): Promise<void> {}
}

export class MemoryRequestLog implements RequestLog {
  readonly entries: RequestLogEntry[] = [];

  append(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  async close(): Promise<void> {}
}

/** Counts different unrecognized keys per client address in fixed one-minute windows. */
export class MemoryKeyGuessLimiter implements KeyGuessLimiter {
  private readonly windows = new Map<string, { minute: number; hashes: Set<string> }>();
  private readonly known: BlockedClients;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new BlockedClients(now);
  }

  get blocking(): boolean {
    return this.known.blocking;
  }

  blocked(client: string): boolean {
    return this.known.blocked(client);
  }

  async noteUnrecognized(client: string, keyHash: string): Promise<boolean> {
    const minute = Math.floor(this.now() / 60_000);
    let window = this.windows.get(client);
    if (!window || window.minute !== minute) {
      if (this.windows.size > 100_000) this.evictBefore(minute);
      window = { minute, hashes: new Set() };
      this.windows.set(client, window);
    }
    if (window.hashes.size <= this.limit) window.hashes.add(keyHash);
    const over = window.hashes.size > this.limit;
    if (over) this.known.block(client);
    return over;
  }

  private evictBefore(minute: number): void {
    for (const [client, window] of this.windows) if (window.minute < minute) this.windows.delete(client);
  }

  async close(): Promise<void> {}
}

/**
 * Credit leases over a MemoryAccountStore's standings, granted as SqlLeaseSource grants them:
 * half of what is left beside every holder's reservation, at least `minMicros` while any is.
 */
export class MemoryLeaseSource implements LeaseSource {
  readonly leases = new Map<string, number>();

  constructor(private readonly accounts: MemoryAccountStore) {}

  async acquire(request: LeaseRequest): Promise<LeaseGrant> {
    const team = this.accounts.team(request.teamId);
    if (team === undefined) return { grantedMicros: 0, refusal: "insufficient_credit" };
    let others = 0;
    for (const [key, micros] of this.leases)
      if (key.startsWith(`${request.teamId} `) && key !== `${request.teamId} ${request.holder}`)
        others += micros;
    const grant = grantFrom(team, others, request);
    if (grant.refusal === undefined)
      this.leases.set(`${request.teamId} ${request.holder}`, request.outstandingMicros + grant.grantedMicros);
    return grant;
  }

  async settle(teamId: string, holder: string, outstandingMicros: number): Promise<void> {
    if (outstandingMicros <= 0) this.leases.delete(`${teamId} ${holder}`);
    else this.leases.set(`${teamId} ${holder}`, outstandingMicros);
  }
}
