import { once } from "node:events";
import type { Writable } from "node:stream";

/**
 * Batches writes to a stream (stdout or a file) and waits for it to drain, so bulk runs keep
 * memory flat and pay for one write call per 64 KiB rather than one per answer.
 */
export class BufferedOutput {
  private buffer = "";

  constructor(private readonly out: Writable = process.stdout) {}

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length > 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === "") return;
    const ok = this.out.write(this.buffer);
    this.buffer = "";
    if (!ok) await once(this.out, "drain");
  }

  /** Flushes, and ends the stream unless it is stdout (which stays open for the process). */
  async close(): Promise<void> {
    await this.flush();
    if (this.out === process.stdout) return;
    await new Promise<void>((resolve, reject) => {
      this.out.once("error", reject);
      this.out.end(() => resolve());
    });
  }
}
