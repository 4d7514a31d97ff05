import type { AccountStore, ApiKeyIdentity, Authentication, TeamStanding, UsageRecord } from "../accounts.js";
import { hashApiKey } from "../api-keys.js";
import { ACCOUNT_CHANNEL, monthAt, monthOf, parseChange } from "./account-changes.js";
import type { PendingSpend } from "../ledger/pending-spend.js";
import { readKeyWithStanding, readStandings } from "./team-standing.js";
import type { Database, Subscriber } from "../../db/database.js";

export interface AccountCacheOptions {
  /** Longest a key verdict is reused while change notifications flow (they evict it at once). */
  keyCacheTtlMs: number;
  /** Longest a team's standing (status, credit, month spend) is reused before it is re-read. */
  teamRefreshMs: number;
  /** Spend durable elsewhere but not yet in the database (the embedded usage journal). */
  pendingSpend?: PendingSpend;
  now?: () => number;
}

/** Without live notifications a key verdict is reused at most this long: the spec's one second. */
export const UNNOTIFIED_KEY_TTL_MS = 1000;
const MAX_CACHED_KEYS = 100_000;

/**
 * A team's standing as cached, with the month its spend counts. One class, so every cached
 * standing has one shape: the check on every request reads it, and `noteSpend` updates it in
 * place. Authentications hand out this object itself: it is read at once, never kept.
 */
class MonthStanding implements TeamStanding {
  constructor(
    readonly teamId: string,
    readonly status: TeamStanding["status"],
    public creditMicros: number,
    readonly budgetMicros: number | null,
    public monthSpendMicros: number,
    readonly month: string,
  ) {}
}

interface Cached<T> {
  value: T;
  at: number;
}

/**
 * API keys and team standing from the database, cached in memory (docs/accounts.md "Caches").
 * Key lookups go by SHA-256 hash: the secret is never stored, and an index lookup on the hash of
 * a guessed secret reveals nothing usable about other keys, so no byte-wise comparison of
 * secrets happens here that could leak through timing.
 */
export class SqlAccountStore implements AccountStore, Subscriber {
  private readonly keys = new Map<string, Cached<ApiKeyIdentity | null>>();
  /** Hashes of keys read valid at some time, kept through evictions (`recognizes`). */
  private readonly seenValid = new Set<string>();
  private readonly teams = new Map<string, Cached<MonthStanding | null>>();
  /** Reads running, by key hash and by team: concurrent callers share one. */
  private readonly loadingKeys = new Map<string, Promise<ApiKeyIdentity | null>>();
  private readonly loadingTeams = new Map<string, Promise<MonthStanding | null>>();
  private readonly now: () => number;
  /** Bumped on every eviction, so a read that raced a change is used once but not cached. */
  private generation = 0;
  private live = false;
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(
    private readonly db: Database,
    private readonly options: AccountCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  static async open(db: Database, options: AccountCacheOptions): Promise<SqlAccountStore> {
    const store = new SqlAccountStore(db, options);
    store.unlisten = await db.listen(ACCOUNT_CHANNEL, store);
    return store;
  }

  onMessage(payload: string): void {
    const change = parseChange(payload);
    this.generation++;
    if (change === null) this.evictAll();
    else if (change.kind === "key") this.keys.delete(change.hash);
    else this.teams.delete(change.teamId);
  }

  onLive(live: boolean): void {
    // Whatever was cached before a gap in notifications may be stale: start again.
    this.live = live;
    this.evictAll();
  }

  async authenticate(secret: string): Promise<Authentication | null> {
    const hash = hashApiKey(secret);
    // A cached null (an unknown key, a missing team) is a verdict too: only undefined reads.
    let key = this.freshKey(hash, this.now());
    if (key === undefined) key = await this.loadKey(hash);
    if (key === null) return null;
    const now = this.now();
    const month = monthAt(now);
    let standing = this.freshStanding(key.teamId, month, now);
    if (standing === undefined) standing = await this.loadStanding(key.teamId, month);
    return standing === null ? null : { key, team: standing };
  }

  peek(secret: string): Authentication | null | undefined {
    const now = this.now();
    const key = this.freshKey(hashApiKey(secret), now);
    if (key === undefined || key === null) return key;
    const standing = this.freshStanding(key.teamId, monthAt(now), now);
    if (standing === undefined || standing === null) return standing;
    return { key, team: standing };
  }

  recognizes(secret: string): boolean {
    return this.seenValid.has(hashApiKey(secret));
  }

  /** Applies this replica's own durable spend at once, so its view of credit never lags it. */
  noteSpend(records: readonly UsageRecord[]): void {
    for (const record of records) {
      const cached = this.teams.get(record.teamId);
      if (!cached?.value) continue;
      cached.value.creditMicros -= record.priceMicros;
      if (monthOf(record.at) === cached.value.month) cached.value.monthSpendMicros += record.priceMicros;
    }
  }

  private keyTtl(): number {
    return this.live
      ? this.options.keyCacheTtlMs
      : Math.min(this.options.keyCacheTtlMs, UNNOTIFIED_KEY_TTL_MS);
  }

  /**
   * A cached verdict younger than its time to live, or undefined (the caller reads it afresh).
   * Past half its life an entry is re-read in the background, so a busy key or team never waits
   * for the database while the staleness bound still holds.
   */
  private freshKey(hash: string, now: number): ApiKeyIdentity | null | undefined {
    const entry = this.keys.get(hash);
    const ttlMs = this.keyTtl();
    if (entry === undefined || now - entry.at >= ttlMs) return undefined;
    if (now - entry.at >= ttlMs / 2 && !this.loadingKeys.has(hash)) void this.loadKey(hash).catch(() => {});
    return entry.value;
  }

  private loadKey(hash: string): Promise<ApiKeyIdentity | null> {
    return this.load(this.loadingKeys, this.keys, hash, () => this.readKey(hash));
  }

  // A new month starts a new spend count, so a standing of last month is never reused (nor a
  // missing team's null: it is read again).
  private freshStanding(teamId: string, month: string, now: number): MonthStanding | null | undefined {
    const entry = this.teams.get(teamId);
    const ttlMs = this.options.teamRefreshMs;
    if (entry === undefined || now - entry.at >= ttlMs || entry.value?.month !== month) return undefined;
    if (now - entry.at >= ttlMs / 2 && !this.loadingTeams.has(teamId)) {
      void this.loadStanding(teamId, month).catch(() => {});
    }
    return entry.value;
  }

  private loadStanding(teamId: string, month: string): Promise<MonthStanding | null> {
    return this.load(this.loadingTeams, this.teams, teamId, () => this.readTeam(teamId, month));
  }

  /** One read per key or team at a time; cached unless a change raced it. */
  private async load<T>(
    loading: Map<string, Promise<T>>,
    cache: Map<string, Cached<T>>,
    id: string,
    read: () => Promise<T>,
  ): Promise<T> {
    const running = loading.get(id);
    if (running) return running;
    const generation = this.generation;
    const at = this.now();
    const promise = read().finally(() => loading.delete(id));
    loading.set(id, promise);
    const value = await promise;
    if (generation === this.generation) this.remember(cache, id, value, at);
    return value;
  }

  private remember<T>(cache: Map<string, Cached<T>>, id: string, value: T, at: number): void {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(id, { value, at });
  }

  /**
   * The key and its team's standing in one read: the standing is cached beside the key (unless a
   * change raced the read), so a key's first check costs the database one statement.
   */
  private async readKey(hash: string): Promise<ApiKeyIdentity | null> {
    const generation = this.generation;
    const at = this.now();
    const month = monthAt(at);
    const found = await readKeyWithStanding(this.db, hash, month);
    if (found === null) return null;
    if (this.seenValid.size >= MAX_CACHED_KEYS) this.seenValid.clear();
    this.seenValid.add(hash);
    const { teamId, team } = found;
    if (team !== null && generation === this.generation && !this.loadingTeams.has(teamId))
      this.remember(this.teams, teamId, this.withPending(team, month), at);
    return { keyId: found.keyId, keyPrefix: found.keyPrefix, teamId };
  }

  private async readTeam(teamId: string, month: string): Promise<MonthStanding | null> {
    const [team] = await readStandings(this.db, month, teamId);
    return team ? this.withPending(team, month) : null;
  }

  /** A standing read from the database, with spend journaled and not yet applied added. */
  private withPending(team: TeamStanding, month: string): MonthStanding {
    const teamId = team.teamId;
    const pending = this.options.pendingSpend?.of(teamId, month);
    return new MonthStanding(
      team.teamId,
      team.status,
      team.creditMicros - (pending?.total ?? 0),
      team.budgetMicros,
      team.monthSpendMicros + (pending?.month ?? 0),
      month,
    );
  }

  private evictAll(): void {
    this.generation++;
    this.keys.clear();
    this.teams.clear();
  }

  async close(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
  }
}
