import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { BlobStore } from "./blob-store.js";

export interface S3Settings {
  bucket: string;
  /** Key prefix without leading or trailing `/`; "" for the bucket root. */
  prefix: string;
  /** Endpoint of an S3-compatible service (R2, MinIO); AWS when undefined. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and most test servers need. */
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * An S3-compatible bucket through the AWS SDK v3. A PutObject is atomic (readers see the old or
 * the new object), which is what publishing the `CURRENT` pointer relies on. Checksums are sent
 * only when an operation requires them: S3-compatible services (R2, MinIO, test servers) do not
 * all accept the SDK's default flexible checksums, and the index carries its own CRC-32s.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 2,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
    });
  }

  get url(): string {
    return `s3://${this.settings.bucket}/${this.settings.prefix}`;
  }

  private key(key: string): string {
    return this.settings.prefix === "" ? key : `${this.settings.prefix}/${key}`;
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }),
      );
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return undefined;
      throw error;
    }
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(key),
        Body: data,
        ContentLength: data.length,
      }),
    );
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const strip = this.settings.prefix === "" ? 0 : this.settings.prefix.length + 1;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.key(prefix),
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(strip));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((key) => ({ Key: this.key(key) }));
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: batch, Quiet: true } }),
      );
    }
  }

  destroy(): void {
    this.client.destroy();
  }
}
