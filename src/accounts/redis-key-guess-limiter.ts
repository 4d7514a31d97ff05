import { Redis } from "ioredis";
import { BlockedClients } from "./accounts.js";
import type { KeyGuessLimiter, KeyScreen } from "./accounts.js";

/**
 * The unrecognized-key limiter shared by every replica through Redis: one set per client address
 * and UTC minute holding the hashes of the different unrecognized keys it presented. The Lua
 * script adds and counts atomically, and stops adding once the client is over the limit, so a
 * guesser cannot grow the set without bound. Commands fail after a short timeout while Redis
 * is away: the edge then fails open (answers 401, logs a warning).
 *
 * The same script remembers the key as unrecognized for UNRECOGNIZED_TTL_S (a negative cache every
 * replica reads before the database: `screen`), and a client found over the limit is remembered
 * in the process until its minute ends, so it is refused without a round trip at all. A key is
 * created with a secret no one has presented, so remembering a hash as unrecognized never holds
 * up a new key; a revoked key is unrecognized anyway.
 */
const NOTE = `
local n = redis.call('SCARD', KEYS[1])
if n <= tonumber(ARGV[2]) then
  redis.call('SADD', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[1], 120)
  n = redis.call('SCARD', KEYS[1])
end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
return n`;

const SCREEN = `
if redis.call('SCARD', KEYS[1]) > tonumber(ARGV[1]) then return 2 end
return redis.call('EXISTS', KEYS[2])`;

const UNRECOGNIZED_TTL_S = 30;

export interface RedisLimiterOptions {
  url: string;
  limit: number;
  /** Namespace of the limiter's keys (tests use one per run). */
  prefix?: string;
  timeoutMs?: number;
  now?: () => number;
}

export class RedisKeyGuessLimiter implements KeyGuessLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly known: BlockedClients;

  constructor(private readonly options: RedisLimiterOptions) {
    const timeout = options.timeoutMs ?? 500;
    this.redis = new Redis(options.url, {
      // Commands wait for a (re)connection at most commandTimeout, then fail: bounded, never a hang.
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
      commandTimeout: timeout,
      connectTimeout: timeout,
      lazyConnect: false,
    });
    // Connection errors surface as failed commands; the client reconnects by itself.
    this.redis.on("error", () => {});
    this.prefix = options.prefix ?? "situs:";
    this.now = options.now ?? Date.now;
    this.known = new BlockedClients(this.now);
  }

  get blocking(): boolean {
    return this.known.blocking;
  }

  blocked(client: string): boolean {
    return this.known.blocked(client);
  }

  async screen(client: string, keyHash: string): Promise<KeyScreen> {
    const found = Number(
      await this.redis.eval(
        SCREEN,
        2,
        this.windowKey(client),
        this.unrecognizedKey(keyHash),
        this.options.limit,
      ),
    );
    if (found === 2) {
      this.known.block(client);
      return "blocked";
    }
    return found === 1 ? "unrecognized" : "check";
  }

  async noteUnrecognized(client: string, keyHash: string): Promise<boolean> {
    const count = await this.redis.eval(
      NOTE,
      2,
      this.windowKey(client),
      this.unrecognizedKey(keyHash),
      keyHash,
      this.options.limit,
      UNRECOGNIZED_TTL_S,
    );
    const over = Number(count) > this.options.limit;
    if (over) this.known.block(client);
    return over;
  }

  private windowKey(client: string): string {
    return `${this.prefix}unknown-keys:${client}:${Math.floor(this.now() / 60_000)}`;
  }

  private unrecognizedKey(keyHash: string): string {
    return `${this.prefix}unrecognized-key:${keyHash}`;
  }

  /** Resolves when Redis answers a PING (within the command timeout); rejects otherwise. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
