import type { BlobStore } from "../../src/parcels/store/blob-store.js";

/** A store wrapper whose reads can be made to fail: the whole store down, or one file missing or damaged. */
export class FaultyStore implements BlobStore {
  down = false;
  missing = new Set<string>();
  corrupt = new Set<string>();
  reads: string[] = [];

  constructor(private readonly inner: BlobStore) {}

  get url(): string {
    return this.inner.url;
  }

  async get(key: string): Promise<Buffer | undefined> {
    this.reads.push(key);
    if (this.down) throw new Error("connect ECONNREFUSED (injected)");
    if ([...this.missing].some((suffix) => key.endsWith(suffix))) return undefined;
    const data = await this.inner.get(key);
    if (data && [...this.corrupt].some((suffix) => key.endsWith(suffix))) {
      const copy = Buffer.from(data);
      copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0xff;
      return copy;
    }
    return data;
  }

  put(key: string, data: Uint8Array): Promise<void> {
    return this.inner.put(key, data);
  }

  list(prefix: string): Promise<string[]> {
    return this.inner.list(prefix);
  }

  delete(keys: string[]): Promise<void> {
    return this.inner.delete(keys);
  }
}
