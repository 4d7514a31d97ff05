import type { S3Environment } from "../parcels/store/open-blob-store.js";

/** S3 settings of the command line, from the same environment variables the service reads. */
export function s3Environment(env: NodeJS.ProcessEnv = process.env): S3Environment {
  const result: S3Environment = {};
  if (env.S3_ENDPOINT) result.S3_ENDPOINT = env.S3_ENDPOINT;
  if (env.S3_REGION) result.S3_REGION = env.S3_REGION;
  if (env.S3_FORCE_PATH_STYLE)
    result.S3_FORCE_PATH_STYLE = /^(1|true|yes|on)$/i.test(env.S3_FORCE_PATH_STYLE);
  if (env.AWS_ACCESS_KEY_ID) result.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
  if (env.AWS_SECRET_ACCESS_KEY) result.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
  return result;
}
