/**
 * A least-recently-used cache of decoded index files, bounded by the bytes they hold rather than
 * by count (a national chunk is 1,000× a rural one). Loads of one key in flight are shared, so a
 * burst of requests for a cold chunk reads it once.
 */
export interface Sized {
  readonly bytes: number;
}

export class ByteLru {
  private readonly entries = new Map<string, Sized>();
  private readonly loading = new Map<string, Promise<Sized>>();
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(readonly capacityBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** The cached value without waiting, marked recent; undefined when not cached. */
  peek<T extends Sized>(key: string): T | undefined {
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      this.hits++;
    }
    return cached as T | undefined;
  }

  async get<T extends Sized>(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached); // Map order is insertion order: re-insert marks it recent
      this.hits++;
      return cached as T;
    }
    const inFlight = this.loading.get(key);
    if (inFlight) return (await inFlight) as T;
    this.misses++;
    const promise = load();
    this.loading.set(key, promise);
    try {
      const value = await promise;
      this.insert(key, value);
      return value;
    } finally {
      this.loading.delete(key);
    }
  }

  private insert(key: string, value: Sized): void {
    if (value.bytes > this.capacityBytes) return; // larger than the whole cache: serve, do not keep
    this.entries.set(key, value);
    this.used += value.bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.capacityBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  /** Drops every entry whose key starts with `prefix` (a build no longer served). */
  evictPrefix(prefix: string): void {
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(prefix)) continue;
      this.entries.delete(key);
      this.used -= entry.bytes;
    }
  }

  /** Drops the entries of these keys. */
  evictKeys(keys: Iterable<string>): void {
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) continue;
      this.entries.delete(key);
      this.used -= entry.bytes;
    }
  }
}
