import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BlobStore } from "./blob-store.js";
import { LocalBlobStore } from "./blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";

/** S3 settings from the environment (the AWS SDK's own names, so standard tooling applies). */
export interface S3Environment {
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_FORCE_PATH_STYLE?: boolean;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}

/**
 * The store an `INDEX` setting names: `file:///abs/dir`, a plain path, or `s3://bucket/prefix`
 * (endpoint, region and credentials from S3_ENDPOINT, S3_REGION, AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, else the AWS SDK's default chain).
 */
export function openBlobStore(location: string, env: S3Environment = {}): BlobStore {
  if (location.startsWith("s3://")) {
    const url = new URL(location);
    if (url.hostname === "") throw new Error(`INDEX "${location}" names no bucket`);
    const credentials =
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
        : undefined;
    return new S3BlobStore({
      bucket: url.hostname,
      prefix: url.pathname.replace(/^\/+|\/+$/g, ""),
      region: env.S3_REGION ?? "us-east-1",
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      ...(credentials ? { credentials } : {}),
    });
  }
  if (location.startsWith("file://")) return new LocalBlobStore(fileURLToPath(location));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) throw new Error(`INDEX "${location}": unsupported scheme`);
  return new LocalBlobStore(resolve(location));
}
