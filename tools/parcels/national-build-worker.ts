import { parentPort, workerData } from "node:worker_threads";
import { crc32 } from "node:zlib";
import { encodeUlid, UlidGenerator } from "../../src/parcels/format/binary-ulid.js";
import { sealBlob } from "../../src/parcels/format/blob-envelope.js";
import { ByteWriter } from "../../src/parcels/format/byte-writer.js";
import { ChunkColumns } from "../../src/parcels/format/chunk-columns.js";
import { buildPrefix } from "../../src/parcels/format/manifest.js";
import { assignIdentities, emptyPreviousState } from "../../src/parcels/ingest/identity.js";
import { ParcelGroups } from "../../src/parcels/ingest/parcel-groups.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { encodeChunk } from "../../src/parcels/store/index-writer.js";
import type { EncodedChunk } from "../../src/parcels/store/index-writer.js";
import { chunkParts } from "../../src/parcels/format/chunk-parts.js";
import { generateZip } from "../../src/parcels/demo/synthetic.js";
import type { Place } from "../../src/places/gazetteer.js";
import { toRow } from "./synthetic-index.js";

/** What a national build worker is started with. */
export interface NationalWorkerSetup {
  indexDir: string;
  buildId: string;
  realistic: boolean;
  /** One parcel in this many (counted across the country) is sampled as a query. */
  sampleEvery: number;
}

/** One ZIP to build: `offset` is the count of parcels of the ZIPs before it. */
export interface NationalZipTask {
  seq: number;
  place: Place;
  count: number;
  offset: number;
}

export interface NationalZipResult {
  seq: number;
  /** The ZIP's chunks (one, or its parts), each stored: its manifest entry's size and CRC-32. */
  chunks: Array<{ chunk: Omit<EncodedChunk, "payload">; bytes: number; crc32: number }>;
  /** Sampled active parcels with a situs: the lookup request and the parcel's service ID. */
  samples: Array<{ request: Record<string, string>; id: string }>;
  /** The service ID of the ZIP's 11th generated parcel (the one version 2 splits), if any. */
  splitId: string | undefined;
}

const setup = workerData as NationalWorkerSetup;
const store = new LocalBlobStore(setup.indexDir);
const ids = new UlidGenerator();
const columns = new ChunkColumns();
const out = new ByteWriter();

/** Generates, identifies, encodes, seals and stores one ZIP's chunk (the worker's whole job). */
async function buildZip(task: NationalZipTask): Promise<NationalZipResult> {
  const generated = generateZip(task.place, task.count, 1, setup.realistic);
  const groups = new ParcelGroups();
  for (const parcel of generated) groups.add(toRow(parcel));
  const { entries } = assignIdentities(groups, emptyPreviousState(), ids);
  const samples: NationalZipResult["samples"] = [];
  // Parcels whose position in the country is a multiple of sampleEvery.
  const start = (setup.sampleEvery - (task.offset % setup.sampleEvery)) % setup.sampleEvery;
  for (let i = start; i < entries.length; i += setup.sampleEvery) {
    const entry = entries[i]!;
    if (entry.status !== "active" || entry.addressNumber === "" || entry.alias) continue;
    const request: Record<string, string> = { streetName: entry.streetName, zip5: entry.zip5 };
    if (entry.addressNumber) request.addressNumber = entry.addressNumber;
    if (entry.addressNumberSuffix) request.addressNumberSuffix = entry.addressNumberSuffix;
    if (entry.predirectional) request.predirectional = entry.predirectional;
    if (entry.streetSuffix) request.streetSuffix = entry.streetSuffix;
    if (entry.occupancyId) request.occupancyId = entry.occupancyId;
    samples.push({ request, id: `adr_${encodeUlid(entry.id)}` });
  }
  const split = generated[10] && entries.find((entry) => entry.apn === generated[10]!.apn && !entry.alias);
  const splitId = split ? `adr_${encodeUlid(split.id)}` : undefined;
  const chunks: NationalZipResult["chunks"] = [];
  for (const part of chunkParts(task.place.zip5, entries)) {
    const { payload, ...chunk } = encodeChunk(part.key, part.entries, columns, out);
    const blob = sealBlob("chunk", payload);
    await store.put(`${buildPrefix(setup.buildId)}/chunks/${part.key}.bin`, blob);
    chunks.push({ chunk, bytes: blob.length, crc32: crc32(blob) });
  }
  return { seq: task.seq, chunks, samples, splitId };
}

let queue = Promise.resolve();
parentPort?.on("message", (task: NationalZipTask) => {
  queue = queue.then(async () => {
    const result = await buildZip(task);
    parentPort?.postMessage(
      result,
      result.chunks.map(({ chunk }) => chunk.idRecords.buffer as ArrayBuffer),
    );
  });
  queue.catch((error: unknown) => {
    throw error;
  });
});
