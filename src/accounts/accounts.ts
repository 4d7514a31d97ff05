/**
 * The accounts side of a request, as the HTTP edge sees it: who is calling (key and team),
 * what they may do (team standing), what they are billed (usage ledger), what is recorded
 * (request log) and who is guessing keys (limiter). Each is an interface with a real
 * (database, Redis) and an in-memory implementation.
 */

export const OPERATIONS = ["parse", "lookup", "lookup_by_id"] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface ApiKeyIdentity {
  keyId: string;
  /** Readable start of the key, safe to show and log; the secret never is. */
  keyPrefix: string;
  teamId: string;
}

export interface TeamStanding {
  teamId: string;
  status: "active" | "paused";
  /** Prepaid credit left, in micro-units. Requests are refused once it is zero or less. */
  creditMicros: number;
  /** Monthly spend cap in micro-units, or null for none. */
  budgetMicros: number | null;
  /** Spend of the current calendar month (UTC), in micro-units. */
  monthSpendMicros: number;
}

export interface Authentication {
  key: ApiKeyIdentity;
  team: TeamStanding;
}

export interface AccountStore {
  /**
   * The key and its team's standing for a presented secret, or null when the key is unknown
   * or revoked. Throws when keys cannot be checked (the edge answers 503 `unavailable`).
   */
  authenticate(secret: string): Promise<Authentication | null>;
  /**
   * The verdict of `authenticate` when it is at hand without waiting (in a fresh cache entry),
   * else undefined. The edge asks this first, so a cached key costs no timer and no promise.
   */
  peek?(secret: string): Authentication | null | undefined;
  /**
   * The key was valid when this process last read it, however long ago (its verdict is still
   * held, if stale). A guesser cannot present such a key; a client over the unknown-key limit
   * that does is checked as usual instead of refused.
   */
  recognizes?(secret: string): boolean;
  close(): Promise<void>;
}

export interface UsageRecord {
  requestId: string;
  teamId: string;
  keyId: string;
  operation: Operation;
  priceMicros: number;
  at: Date;
  /**
   * The request-log fields of the answer, stored with the usage row so that a billed request
   * costs one row, not two (its status is 200 and it has no error code).
   */
  log?: { method: string; path: string; latencyMs: number };
  /**
   * The request ID came from a trusted balancer (`X-Situs-Request-Id`), so a row may exist under
   * it already: the same request replayed (billed once) or, from a misbehaving balancer, another
   * request, which the ledger refuses with RequestIdTaken.
   */
  givenId?: boolean;
}

/** Two usage records of one request (a replay): same team, key and operation. */
export function sameRequest(
  a: Pick<UsageRecord, "teamId" | "keyId" | "operation">,
  b: Pick<UsageRecord, "teamId" | "keyId" | "operation">,
): boolean {
  return a.teamId === b.teamId && a.keyId === b.keyId && a.operation === b.operation;
}

const REQUEST_ID_TAKEN = "request ID taken by another request: ";

/**
 * A usage record's request ID already names the usage row of *another* request (another team,
 * key or operation, or an answer withheld and voided): the ledger writes nothing, and the edge
 * bills the answer under a new ID of its own. Its message survives a trip between processes.
 */
export class RequestIdTaken extends Error {
  override name = "RequestIdTaken";
  constructor(readonly requestId: string) {
    super(`${REQUEST_ID_TAKEN}${requestId}`);
  }

  /** The error a message names (one passed between processes), or the message as an Error. */
  static revive(message: string): Error {
    return message.includes(REQUEST_ID_TAKEN)
      ? new RequestIdTaken(message.slice(message.indexOf(REQUEST_ID_TAKEN) + REQUEST_ID_TAKEN.length))
      : new Error(message);
  }
}

export interface UsageLedger {
  /**
   * Resolves once the record is durable; rejects when it cannot be made durable. Idempotent per
   * requestId. Records made durable by one write resolve together, so their answers leave
   * together (the edge does not hold billed answers to the end of the turn; batched-sends.ts).
   */
  record(usage: UsageRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * Usage rows of answers already given that are not yet in the accounts database: the ledger's
 * lag (metrics). On PostgreSQL, rows waiting for their group commit; on the embedded database,
 * rows in the journal not yet applied.
 */
export interface LedgerBacklog {
  rows: number;
  /** When the oldest of them was answered (Unix ms); null when there are none. */
  oldestAt: number | null;
}

export interface RequestLogEntry {
  requestId: string;
  teamId: string;
  keyId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  at: Date;
  /** The entry was stored with the request's usage row already (UsageRecord.log). */
  inUsageRecord?: boolean;
}

export interface RequestLog {
  /** Queues one entry; never throws and never delays the answer. */
  append(entry: RequestLogEntry): void;
  close(): Promise<void>;
}

export interface KeyGuessLimiter {
  /**
   * The client is over the limit this minute as far as this process knows, answered at once
   * (no I/O): the edge asks first and refuses with 429 before any key is looked up.
   */
  blocked(client: string): boolean;
  /** Some client is blocked: until one is, the edge skips `blocked` (and naming the client). */
  readonly blocking: boolean;
  /**
   * For a key not in this process's cache, what the replicas share (Redis): `blocked` when the
   * client is over the limit, `unrecognized` when some replica found this key unrecognized
   * moments ago, else `check` (read the key from the database). Absent where nothing is shared.
   */
  screen?(client: string, keyHash: string): Promise<KeyScreen>;
  /**
   * Notes that `client` presented the unrecognized key with hash `keyHash`; resolves true when
   * the client has now presented more different unrecognized keys this minute than allowed.
   */
  noteUnrecognized(client: string, keyHash: string): Promise<boolean>;
  close(): Promise<void>;
}

export type KeyScreen = "blocked" | "unrecognized" | "check";

/**
 * Clients known to be over the unknown-key limit, each until the end of its UTC minute: what a
 * limiter that counts elsewhere (Redis, a cluster primary) remembers, so a blocked client costs
 * the edge a map lookup, not a round trip.
 */
export class BlockedClients {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  get blocking(): boolean {
    return this.until.size > 0;
  }

  block(client: string): void {
    if (this.until.size >= 100_000) this.sweep();
    this.until.set(client, (Math.floor(this.now() / 60_000) + 1) * 60_000);
  }

  blocked(client: string): boolean {
    const until = this.until.get(client);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.until.delete(client);
    return false;
  }

  private sweep(): void {
    const now = this.now();
    for (const [client, until] of this.until) if (until <= now) this.until.delete(client);
  }
}

export type Prices = Record<Operation, number>;

/**
 * The request log stores the path called, not the operation: these are the paths of each
 * operation (current and older, SPEC.md "Versioning"), for display and for filtering.
 */
export const OPERATION_PATHS: Record<Operation, { exact: string[]; prefixes: string[] }> = {
  parse: { exact: ["/v1/verify/parse", "/v1/address/parse"], prefixes: [] },
  lookup: { exact: ["/v1/verify/lookup", "/v1/property/lookup"], prefixes: [] },
  lookup_by_id: { exact: [], prefixes: ["/v1/verify/lookup/", "/v1/property/lookup/"] },
};
