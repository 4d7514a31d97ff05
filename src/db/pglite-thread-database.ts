import { Worker } from "node:worker_threads";
import type { Database, Queryable, Row, Subscriber } from "./database.js";
import type { CopyValue } from "./copy-binary.js";
import type { CopyColumn } from "./copy-binary.js";

/** What the main thread asks of the database thread (pglite-worker.ts). */
export type WorkerRequest = { id: number } & (
  | { op: "query"; sql: string; params: readonly unknown[]; tx?: number }
  | { op: "script"; sql: string; tx?: number }
  | {
      op: "copy";
      table: string;
      columns: readonly CopyColumn[];
      rows: readonly (readonly CopyValue[])[];
      tx?: number;
    }
  | { op: "job"; name: string; bytes: Uint8Array; args: readonly unknown[]; tx?: undefined }
  | { op: "begin"; tx?: undefined }
  | { op: "commit" | "rollback"; tx: number }
  | { op: "listen"; channel: string; tx?: undefined }
  | { op: "unlisten"; subscription: number; tx?: undefined }
  | { op: "close"; tx?: undefined }
);

type ErrorShape = { message: string; code?: string; name?: string };

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ErrorShape }
  | { event: number; payload: string }
  | { ready: true }
  | { ready: false; error: ErrorShape };

/** A DistributiveOmit: `id` is added by `call`. */
type Request = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

function revive(shape: ErrorShape): Error {
  return Object.assign(new Error(shape.message), shape);
}

/**
 * The embedded PGlite database, run on a thread of its own (pglite-worker.ts) and reached by
 * messages. PGlite executes PostgreSQL as WebAssembly and writes through synchronous file calls:
 * on the thread that answers requests, every request-log flush and usage apply would stall all
 * answers for milliseconds. Here the service's thread only posts and receives messages.
 */
export class PgliteThreadDatabase implements Database {
  readonly kind = "pglite";
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly subscribers = new Map<number, Subscriber>();
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: WorkerReply) => this.receive(message));
    worker.on("error", (error) => this.failAll(error));
    worker.on("exit", () => this.failAll(new Error("the embedded database thread stopped")));
  }

  /**
   * Starts the thread and opens (creating if needed) the database in `dataDir`; a new database
   * starts from `template` when given (see PgliteDatabase.open).
   */
  static async open(dataDir: string, template?: Blob, jobs?: URL): Promise<PgliteThreadDatabase> {
    const templateBytes = template ? new Uint8Array(await template.arrayBuffer()) : undefined;
    const worker = new Worker(new URL("./pglite-worker.js", import.meta.url), {
      workerData: { dataDir, templateBytes, jobs: jobs?.href },
    });
    await new Promise<void>((resolve, reject) => {
      const first = (message: WorkerReply) => {
        if (!("ready" in message)) return;
        worker.off("message", first);
        if (message.ready) resolve();
        else reject(revive(message.error));
      };
      worker.on("message", first);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the embedded database thread exited with ${code}`)));
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return new PgliteThreadDatabase(worker);
  }

  private receive(message: WorkerReply): void {
    if ("ready" in message) return;
    if ("event" in message) {
      this.subscribers.get(message.event)?.onMessage(message.payload);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(revive(message.error));
  }

  private failAll(error: Error): void {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  /**
   * Sends `request` under `id` (a transaction or subscription is named by its request's id),
   * moving the buffers in `transfer` to the thread instead of copying them.
   */
  private call<T>(request: Request, id = this.nextId++, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the embedded database is closed"));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  private queryable(tx?: number): Queryable {
    const on = tx === undefined ? {} : { tx };
    return {
      query: <T extends Row = Row>(sql: string, params: readonly unknown[] = []) =>
        this.call<T[]>({ op: "query", sql, params, ...on }),
      script: (sql: string) => this.call<void>({ op: "script", sql, ...on }),
      copyRows: (table, columns, rows) => this.call<void>({ op: "copy", table, columns, rows, ...on }),
    };
  }

  query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.queryable().query<T>(sql, params);
  }

  script(sql: string): Promise<void> {
    return this.queryable().script(sql);
  }

  copyRows(
    table: string,
    columns: readonly CopyColumn[],
    rows: readonly (readonly CopyValue[])[],
  ): Promise<void> {
    return this.queryable().copyRows(table, columns, rows);
  }

  /**
   * Runs the function `name` of the jobs module the database was opened with (`jobs`) on the
   * database's thread, with the database, `bytes` and `args`: so that work on a large payload (the
   * usage ledger's journal) costs the thread that answers requests nothing, while the driver knows
   * nothing of it. The bytes' buffer is moved to that thread: the caller must own all of it and
   * not use it again.
   */
  runJob<T>(name: string, bytes: Uint8Array, args: readonly unknown[]): Promise<T> {
    // Only a view of a whole buffer is moved: a small Buffer is a slice of Node's shared pool,
    // which must not be detached (Node 21+ refuses to move it; 20 copies it), so it is copied.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return this.call<T>(
      { op: "job", name, bytes, args },
      undefined,
      whole ? [bytes.buffer as ArrayBuffer] : [],
    );
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = this.nextId++;
    await this.call<void>({ op: "begin" }, tx);
    let result: T;
    try {
      result = await work(this.queryable(tx));
    } catch (error) {
      await this.call<void>({ op: "rollback", tx }).catch(() => {});
      throw error;
    }
    await this.call<void>({ op: "commit", tx });
    return result;
  }

  async listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>> {
    const subscription = this.nextId++;
    this.subscribers.set(subscription, subscriber);
    await this.call<void>({ op: "listen", channel }, subscription);
    subscriber.onLive(true);
    return async () => {
      this.subscribers.delete(subscription);
      await this.call<void>({ op: "unlisten", subscription });
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call<void>({ op: "close" });
    this.closed = true;
    await this.worker.terminate();
  }
}
