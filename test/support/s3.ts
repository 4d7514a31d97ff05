import { createRequire } from "node:module";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface LocalS3 {
  endpoint: string;
  /** What the service and the blob store read to reach it. */
  env: Record<string, string>;
  createBucket(name: string): Promise<void>;
  close(): Promise<void>;
}

/** s3rver (an S3-compatible server in Node) on an ephemeral port of 127.0.0.1, data in `dir`. */
export async function startS3(dir: string): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let open = true;
  return {
    endpoint,
    env: { S3_ENDPOINT: endpoint, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" },
    async createBucket(name: string) {
      const client = new S3Client({
        endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      });
      await client.send(new CreateBucketCommand({ Bucket: name }));
      client.destroy();
    },
    async close() {
      if (open) await server.close();
      open = false;
    },
  };
}
