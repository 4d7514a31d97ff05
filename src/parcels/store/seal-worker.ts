import { parentPort } from "node:worker_threads";
import { crc32 } from "node:zlib";
import type { BlobKind } from "../format/blob-envelope.js";
import { sealBlob } from "../format/blob-envelope.js";

/** A SealPool worker: seals each payload it is sent and answers the blob with its CRC-32. */
export interface SealRequest {
  id: number;
  kind: BlobKind;
  payload: Uint8Array;
}

export type SealResponse = { id: number; blob: Uint8Array; crc32: number } | { id: number; error: string };

parentPort?.on("message", ({ id, kind, payload }: SealRequest) => {
  try {
    const blob = sealBlob(kind, payload);
    parentPort?.postMessage({ id, blob, crc32: crc32(blob) } satisfies SealResponse);
  } catch (error) {
    parentPort?.postMessage({ id, error: String(error) } satisfies SealResponse);
  }
});
