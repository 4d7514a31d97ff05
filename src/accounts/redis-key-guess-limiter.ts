import { Redis } from "ioredis";
import type { KeyGuessLimiter } from "./accounts.js";

/**
 * The unrecognized-key limiter shared by every replica through Redis: one set per client address
 * and UTC minute holding the hashes of the different unrecognized keys it presented. The Lua
 * script adds and counts atomically, and stops adding once the client is over the limit, so a
 * guesser cannot grow the set without bound. Commands fail after a short timeout while Redis
 * is away: the edge then fails open (answers 401, logs a warning).
 */
const NOTE = `
local n = redis.call('SCARD', KEYS[1])
if n <= tonumber(ARGV[2]) then
  redis.call('SADD', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[1], 120)
  n = redis.call('SCARD', KEYS[1])
end
return n`;

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
  }

  async noteUnrecognized(client: string, keyHash: string): Promise<boolean> {
    const minute = Math.floor(this.now() / 60_000);
    const key = `${this.prefix}unknown-keys:${client}:${minute}`;
    const count = await this.redis.eval(NOTE, 1, key, keyHash, this.options.limit);
    return Number(count) > this.options.limit;
  }

  /** Resolves when Redis answers a PING (within the command timeout); rejects otherwise. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
