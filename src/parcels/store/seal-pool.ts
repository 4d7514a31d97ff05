import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { crc32 } from "node:zlib";
import type { BlobKind } from "../format/blob-envelope.js";
import { sealBlob } from "../format/blob-envelope.js";
import type { SealRequest, SealResponse } from "./seal-worker.js";

/** A sealed index file and the CRC-32 of its bytes (what the manifest records). */
export interface SealedBlob {
  blob: Buffer;
  crc32: number;
}

/** Below this a payload is sealed in place: a round trip to a worker costs more than the DEFLATE. */
const INLINE_BYTES = 16 * 1024;

/** One worker per core beside the main thread, up to three; none on a single core. */
function defaultWorkers(): number {
  return Math.max(0, Math.min(3, availableParallelism() - 1));
}

interface Waiting {
  resolve: (sealed: SealedBlob) => void;
  reject: (error: Error) => void;
}

/**
 * Seals index files (DEFLATE and checksums, blob-envelope.ts) on worker threads, so that a build
 * compresses one chunk while the main thread encodes the next instead of after it. Workers start
 * on first use and keep the process alive only while they hold work.
 */
export class SealPool {
  private workers: Worker[] | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  private readonly size: number;

  constructor(size?: number) {
    this.size = size ?? defaultWorkers();
  }

  /** Seals a payload; the payload is copied before this returns, so its buffer may be reused. */
  seal(kind: BlobKind, payload: Uint8Array): Promise<SealedBlob> {
    if (this.size === 0 || payload.length < INLINE_BYTES) {
      const blob = sealBlob(kind, payload);
      return Promise.resolve({ blob, crc32: crc32(blob) });
    }
    const workers = this.start();
    const id = this.nextId++;
    const copy = new Uint8Array(payload);
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) for (const worker of workers) worker.ref();
      this.waiting.set(id, { resolve, reject });
      workers[id % workers.length]!.postMessage({ id, kind, payload: copy } satisfies SealRequest, [
        copy.buffer,
      ]);
    });
  }

  /** Stops the workers (after the caller has awaited every seal). */
  async close(): Promise<void> {
    const workers = this.workers ?? [];
    this.workers = undefined;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(): Worker[] {
    if (this.workers) return this.workers;
    this.workers = Array.from({ length: this.size }, () => {
      const worker = new Worker(new URL("./seal-worker.js", import.meta.url));
      worker.unref();
      worker.on("message", (response: SealResponse) => this.answer(response));
      worker.on("error", (error) => this.failAll(error));
      return worker;
    });
    return this.workers;
  }

  private answer(response: SealResponse): void {
    const waiting = this.waiting.get(response.id);
    this.waiting.delete(response.id);
    if (this.waiting.size === 0) for (const worker of this.workers ?? []) worker.unref();
    if (!waiting) return;
    if ("error" in response) waiting.reject(new Error(`sealing an index file: ${response.error}`));
    else {
      const blob = Buffer.from(response.blob.buffer, response.blob.byteOffset, response.blob.byteLength);
      waiting.resolve({ blob, crc32: response.crc32 });
    }
  }

  /** A worker failed: every waiting seal is refused, and the pool starts afresh on the next one. */
  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    // The others would keep the process alive, and close() no longer sees them.
    for (const worker of this.workers ?? []) void worker.terminate();
    this.workers = undefined;
  }
}
