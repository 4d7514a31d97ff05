import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { LocalBlobStore } from "../parcels/store/blob-store.js";
import { buildDemoIndex } from "../parcels/demo/demo-index.js";
import { openBlobStore } from "../parcels/store/open-blob-store.js";
import { StoredParcelIndex } from "../parcels/stored-parcel-index.js";

/**
 * The parcel index of the running service: the store INDEX names, or the demo index under
 * DATA_DIR (built on first start, about a second), polled for newly published builds.
 */
export async function openConfiguredIndex(config: Config, log: Logger): Promise<StoredParcelIndex> {
  const store =
    config.INDEX !== undefined
      ? openBlobStore(config.INDEX, s3Settings(config))
      : await demoStore(config, log);
  const index = await StoredParcelIndex.open(store, {
    cacheBytes: config.CHUNK_CACHE_BYTES,
    refreshMs: config.INDEX_REFRESH_MS,
    onSwitch: (from, to) => log.info({ from, to, store: store.url }, "parcel index build switched"),
    onRefreshError: (error) =>
      log.warn({ err: error, store: store.url }, "parcel index could not be refreshed"),
  });
  if (index.buildId === null) log.warn({ store: store.url }, "no readable parcel index: lookups answer 503");
  return index;
}

function s3Settings(config: Config): Parameters<typeof openBlobStore>[1] {
  const env = process.env;
  return {
    S3_REGION: config.S3_REGION,
    ...(config.S3_ENDPOINT !== undefined ? { S3_ENDPOINT: config.S3_ENDPOINT } : {}),
    ...(config.S3_FORCE_PATH_STYLE !== undefined ? { S3_FORCE_PATH_STYLE: config.S3_FORCE_PATH_STYLE } : {}),
    ...(env.AWS_ACCESS_KEY_ID ? { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID } : {}),
    ...(env.AWS_SECRET_ACCESS_KEY ? { AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY } : {}),
  };
}

async function demoStore(config: Config, log: Logger): Promise<LocalBlobStore> {
  const store = new LocalBlobStore(join(config.DATA_DIR, "index"));
  if (!existsSync(join(store.root, "CURRENT"))) {
    const report = await buildDemoIndex(store);
    log.info(
      { store: store.url, parcels: report.counts.parcels, seconds: report.seconds },
      "built the demo parcel index",
    );
  }
  return store;
}
