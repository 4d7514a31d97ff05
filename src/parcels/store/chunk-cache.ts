/**
 * A least-recently-used cache of decoded index files, bounded by the bytes they hold rather than
 * by count (a national chunk is 1,000× a rural one). Loads of one key in flight are shared, so a
 * burst of requests for a cold chunk reads it once.
 */
export interface Sized {
  readonly bytes: number;
}

/** An entry of the cache's recency list: most recent at `newest`, least recent at `oldest`. */
interface Node {
  readonly key: string;
  readonly value: Sized;
  older: Node | undefined;
  newer: Node | undefined;
}

/**
 * Recency is a doubly-linked list threaded through the entries, so a hit relinks one node: no
 * allocation, and no delete-and-reinsert into the Map (whose deleted slots make it rehash every
 * few thousand hits of a large cache).
 */
export class ByteLru {
  private readonly entries = new Map<string, Node>();
  private readonly loading = new Map<string, Promise<Sized>>();
  private oldest: Node | undefined;
  private newest: Node | undefined;
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(readonly capacityBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** The cached value without waiting, marked recent; undefined when not cached. */
  peek<T extends Sized>(key: string): T | undefined {
    const node = this.entries.get(key);
    if (!node) return undefined;
    this.touch(node);
    this.hits++;
    return node.value as T;
  }

  async get<T extends Sized>(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.peek<T>(key);
    if (cached) return cached;
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

  /** Drops the entries of these keys. */
  evictKeys(keys: Iterable<string>): void {
    for (const key of keys) {
      const node = this.entries.get(key);
      if (node) this.remove(node);
    }
  }

  private insert(key: string, value: Sized): void {
    if (value.bytes > this.capacityBytes) return; // larger than the whole cache: serve, do not keep
    const known = this.entries.get(key);
    if (known) this.remove(known);
    const node: Node = { key, value, older: undefined, newer: undefined };
    this.linkNewest(node);
    this.entries.set(key, node);
    this.used += value.bytes;
    while (this.used > this.capacityBytes && this.oldest) this.remove(this.oldest);
  }

  /** Makes `node` the most recent. */
  private touch(node: Node): void {
    if (node === this.newest) return;
    this.unlink(node);
    this.linkNewest(node);
  }

  /** Puts an unlinked `node` at the newest end. */
  private linkNewest(node: Node): void {
    node.older = this.newest;
    node.newer = undefined;
    if (this.newest) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }

  private remove(node: Node): void {
    this.unlink(node);
    this.entries.delete(node.key);
    this.used -= node.value.bytes;
  }

  private unlink(node: Node): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.newest = node.older;
  }
}
