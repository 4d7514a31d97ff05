import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { IdCollectorOptions } from "../../src/parcels/format/id-directory.js";
import type { Manifest } from "../../src/parcels/format/manifest.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { BuildWriter, publishBuild } from "../../src/parcels/store/index-writer.js";
import type { Place } from "../../src/places/gazetteer.js";
import type { NationalWorkerSetup, NationalZipResult, NationalZipTask } from "./national-build-worker.js";

/** ZIPs a worker holds queued: enough to keep it busy while the main thread takes results in order. */
const QUEUED_PER_WORKER = 6;

export interface ParallelBuildOptions {
  realistic: boolean;
  sampleEvery: number;
  workers?: number;
  idOptions?: IdCollectorOptions;
  /** Every ZIP's result, in key order. */
  onZip?: (place: Place, result: NationalZipResult) => void;
}

/**
 * Builds and publishes the index of a plan into a directory with worker threads, one per core:
 * each generates a ZIP's parcels, assigns identities, encodes, seals and stores its chunk; the main
 * thread takes the chunks in key order (manifest, dictionaries, ID directory) and writes the rest.
 * The national benchmark's build: a single thread cannot build the country in ten minutes.
 */
export async function buildNationalInParallel(
  indexDir: string,
  plan: Array<[Place, number]>,
  options: ParallelBuildOptions,
): Promise<Manifest> {
  const store = new LocalBlobStore(indexDir);
  const writer = new BuildWriter(store, null, Date.now(), undefined, options.idOptions);
  const setup: NationalWorkerSetup = {
    indexDir,
    buildId: writer.buildId,
    realistic: options.realistic,
    sampleEvery: options.sampleEvery,
  };
  const count = options.workers ?? Math.max(1, availableParallelism());
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL("./national-build-worker.js", import.meta.url), { workerData: setup }),
  );
  const tasks: NationalZipTask[] = [];
  let offset = 0;
  for (const [place, parcels] of plan) {
    if (parcels === 0) continue;
    tasks.push({ seq: tasks.length, place, count: parcels, offset });
    offset += parcels;
  }
  const results = new Map<number, NationalZipResult>();
  /** ZIPs sent to each worker and not yet answered: the next goes to the least busy. */
  const busy = new Array<number>(count).fill(0);
  let failure: Error | undefined;
  let wake: () => void = () => {};
  workers.forEach((worker, index) => {
    worker.on("message", (result: NationalZipResult) => {
      busy[index]!--;
      results.set(result.seq, result);
      wake();
    });
    worker.on("error", (error) => {
      failure ??= error;
      wake();
    });
  });
  let sent = 0;
  const send = (): void => {
    while (sent < tasks.length && sent - taken < QUEUED_PER_WORKER * count) {
      const task = tasks[sent]!;
      const idle = busy.indexOf(Math.min(...busy));
      busy[idle]!++;
      workers[idle]!.postMessage(task);
      sent++;
    }
  };
  let taken = 0;
  try {
    send();
    while (taken < tasks.length) {
      const result = results.get(taken);
      if (failure) throw failure;
      if (!result) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      results.delete(taken);
      const task = tasks[taken]!;
      for (const { chunk, ...stored } of result.chunks) writer.addStoredChunk(chunk, stored);
      options.onZip?.(task.place, result);
      taken++;
      send();
    }
    const manifest = await writer.finish();
    await publishBuild(store, manifest);
    return manifest;
  } finally {
    writer.discard();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
