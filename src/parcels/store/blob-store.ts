import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { setImmediate } from "node:timers/promises";
import { dirname, join, relative } from "node:path";

/**
 * Where index builds live: a flat namespace of immutable blobs keyed by `/`-separated names,
 * plus the `CURRENT` pointer that publishing replaces atomically. `get` answers undefined for a
 * blob that does not exist and throws when the store cannot be read at all.
 */
export interface BlobStore {
  get(key: string): Promise<Buffer | undefined>;
  /** Writes a blob so that readers see either nothing or all of it. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Keys under a prefix (recursively). */
  list(prefix: string): Promise<string[]>;
  delete(keys: string[]): Promise<void>;
  /** A URL naming the store, for logs and reports. */
  readonly url: string;
}

/** A directory on local disk; writes go to a temporary file renamed into place (atomic on POSIX). */
export class LocalBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  get url(): string {
    return `file://${this.root}`;
  }

  /**
   * Read on the calling thread. An index file is at most a few hundred kilobytes, read in well
   * under a millisecond from a local disk (less than inflating it, which is synchronous too),
   * while each trip through libuv's thread pool (`readFile` makes four: open, stat, read, close)
   * has a tail of tens of milliseconds on a VM, measured (docs/performance.md "Where a lookup's
   * time goes"). So a network file system's stalls would stop the event loop: serve such an
   * index from object storage instead (docs/parcel-index.md). The answer comes in a later turn
   * of the event loop, as from any store, so a loop of lookups that miss the cache still lets
   * timers and I/O run.
   */
  async get(key: string): Promise<Buffer | undefined> {
    try {
      const data = readFileSync(join(this.root, key));
      await setImmediate();
      return data;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** The put being written: puts run one after another. */
  private writing: Promise<void> = Promise.resolve();

  /**
   * One file at a time: files created at once in one directory contend for it in the kernel.
   * Writing 630 files of 20 KB (a build's chunks and shards) cost a median 875 ms of CPU time
   * eight at a time, 558 ms one at a time (6 rounds each, alternated in one run).
   */
  put(key: string, data: Uint8Array): Promise<void> {
    const written = this.writing.then(() => this.write(key, data));
    this.writing = written.catch(() => undefined);
    return written;
  }

  private async write(key: string, data: Uint8Array): Promise<void> {
    const path = join(this.root, key);
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    // The directory is made only when missing: a build writes thousands of files into a few.
    try {
      await writeFile(temporary, data);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, data);
    }
    await rename(temporary, path);
  }

  async list(prefix: string): Promise<string[]> {
    const base = join(this.root, prefix);
    try {
      const entries = await readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
        .map((entry) => relative(this.root, join(entry.parentPath, entry.name)))
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(join(this.root, key), { force: true })));
  }
}
