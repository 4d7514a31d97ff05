import type { BlobStore } from "./store/blob-store.js";
import { ByteLru } from "./store/chunk-cache.js";
import type { Gazetteer } from "../places/gazetteer.js";
import { nationalGazetteer } from "../places/gazetteer.js";
import { ParcelLookup } from "./lookup/parcel-lookup.js";
import { IndexBuild, readCurrent } from "./store/index-build.js";
import type { LocationAmbiguity, LookupAnswer, LookupRequest, ParcelRecord } from "./lookup-types.js";
import type { ParcelIndex, Timed } from "./parcel-index.js";
import { IndexUnavailableError } from "./parcel-index.js";

export interface StoredIndexOptions {
  cacheBytes: number;
  /** How often to look for a newly published build; 0 to never poll (call `refresh`). */
  refreshMs: number;
  onSwitch?: (from: string | null, to: string) => void;
  onRefreshError?: (error: unknown) => void;
  /** Places for city lookups; the national gazetteer when omitted. */
  gazetteer?: Gazetteer;
}

/**
 * The parcel index read from a blob store. It serves the build `CURRENT` names and polls for a
 * newer one: a new build is loaded and checked completely (manifest) before it replaces the old
 * one in a single assignment, and requests already running finish on the build they started with
 * (builds are immutable and publishing keeps the previous ones), so a switch fails no request.
 */
export class StoredParcelIndex implements ParcelIndex {
  private build: IndexBuild | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private retiring: IndexBuild | undefined;
  readonly cache: ByteLru;
  private readonly matcher: ParcelLookup;

  constructor(
    readonly store: BlobStore,
    private readonly options: StoredIndexOptions,
  ) {
    this.cache = new ByteLru(options.cacheBytes);
    this.matcher = new ParcelLookup(options.gazetteer ?? nationalGazetteer());
  }

  /** Opens the store's current build; the index answers 503 until one exists and can be read. */
  static async open(store: BlobStore, options: StoredIndexOptions): Promise<StoredParcelIndex> {
    const index = new StoredParcelIndex(store, options);
    await index.refresh().catch((error: unknown) => options.onRefreshError?.(error));
    if (options.refreshMs > 0) {
      index.timer = setInterval(() => {
        index.refresh().catch((error: unknown) => options.onRefreshError?.(error));
      }, options.refreshMs);
      index.timer.unref();
    }
    return index;
  }

  get buildId(): string | null {
    return this.build?.buildId ?? null;
  }

  /** The build being served (lookup code reads through it). */
  current(): IndexBuild {
    if (!this.build) throw new IndexUnavailableError("no parcel index build is published");
    return this.build;
  }

  /** Switches to the build CURRENT names when it differs from the one served. */
  async refresh(): Promise<void> {
    this.refreshing ??= this.switchToCurrent().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async switchToCurrent(): Promise<void> {
    // CURRENT is a few bytes; the manifest of a national build is megabytes of JSON to fetch,
    // hash and parse (about 40 ms at 42,000 ZIPs), so it is read only when the build changed.
    const pointer = await readCurrent(this.store);
    if (!pointer || pointer.buildId === this.build?.buildId) return;
    const next = await IndexBuild.open(this.store, pointer, this.cache);
    await next.streets(); // fail here, not on a request, when the new build is unreadable
    const previous = this.build;
    this.build = next;
    // Requests may still be finishing on the previous build; the one before it is done with,
    // but for the chunk and ID-directory files the new build kept from it (every file is cached
    // under its own path).
    if (this.retiring) {
      const kept = new Set([...next.fileCacheKeys(), ...(previous?.fileCacheKeys() ?? [])]);
      this.cache.evictKeys(this.retiring.fileCacheKeys().filter((key) => !kept.has(key)));
    }
    this.retiring = previous;
    this.options.onSwitch?.(previous?.buildId ?? null, next.buildId);
  }

  async findById(serviceId: string): Promise<Timed<ParcelRecord | undefined>> {
    const build = this.current();
    const started = process.hrtime.bigint();
    const result = await unavailableOnFailure(() => build.findById(serviceId));
    return { result, phases: { fetchMs: elapsedMs(started) } };
  }

  /** Lookup by address; `fetchMs` is the time spent reading chunks, `matchMs` the rest. */
  async lookup(request: LookupRequest): Promise<Timed<LookupAnswer | LocationAmbiguity>> {
    const build = this.current();
    const fetch = { value: 0 };
    const started = process.hrtime.bigint();
    const result = await unavailableOnFailure(() => this.matcher.lookup(build, request, fetch));
    return { result, phases: { fetchMs: fetch.value, matchMs: elapsedMs(started) - fetch.value } };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** Any failure to read the index (store down, file missing or corrupt) is 503 `matchkey_unavailable`. */
export async function unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof IndexUnavailableError) throw error;
    throw new IndexUnavailableError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

function elapsedMs(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}
