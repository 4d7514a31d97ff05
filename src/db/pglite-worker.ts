import { parentPort, workerData } from "node:worker_threads";
import type { Queryable } from "./database.js";
import { PgliteDatabase } from "./pglite-database.js";
import type { WorkerReply, WorkerRequest } from "./pglite-thread-database.js";

/**
 * The embedded database's own thread: PGlite runs PostgreSQL in WebAssembly and writes its files
 * with synchronous calls, so here its work never holds up the thread that answers requests.
 * Requests come from PgliteThreadDatabase; replies carry the request's id.
 */
const port = parentPort!;
const { dataDir, templateBytes, jobs } = workerData as {
  dataDir: string;
  templateBytes?: Uint8Array;
  /** The module whose functions `job` requests run (PgliteThreadDatabase.runJob). */
  jobs?: string;
};
type Job = (db: PgliteDatabase, bytes: Uint8Array, ...args: unknown[]) => Promise<unknown>;
const jobModule = (jobs ? await import(jobs) : {}) as Record<string, Job | undefined>;

interface OpenTransaction {
  tx: Queryable;
  finish(commit: boolean): void;
  finished: Promise<void>;
}

const ROLLBACK = new Error("rollback");
const transactions = new Map<number, OpenTransaction>();
const subscriptions = new Map<number, () => Promise<void>>();

function reply(message: WorkerReply): void {
  port.postMessage(message);
}

function failure(error: unknown): { message: string; code?: string; name?: string } {
  const { message, code, name } = error as { message?: unknown; code?: unknown; name?: unknown };
  return {
    message: typeof message === "string" ? message : String(error),
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof name === "string" ? { name } : {}),
  };
}

async function begin(db: PgliteDatabase, id: number): Promise<void> {
  let finish!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (finish = resolve));
  await new Promise<void>((started, failed) => {
    const finished = db
      .transaction(async (tx) => {
        transactions.set(id, { tx, finish, finished });
        started();
        if (!(await decided)) throw ROLLBACK;
      })
      .catch((error: unknown) => {
        if (error !== ROLLBACK) throw error;
      })
      .finally(() => transactions.delete(id));
    finished.catch(failed);
  });
}

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  open.finish(commit);
  await open.finished;
}

async function handle(db: PgliteDatabase, request: WorkerRequest): Promise<unknown> {
  const on: Queryable | undefined = request.tx === undefined ? db : transactions.get(request.tx)?.tx;
  if (on === undefined) throw new Error(`no open transaction ${request.tx}`);
  switch (request.op) {
    case "query":
      return on.query(request.sql, request.params);
    case "script":
      return on.script(request.sql);
    case "copy":
      return on.copyRows(request.table, request.columns, request.rows);
    case "job": {
      const job = jobModule[request.name];
      if (typeof job !== "function")
        throw new Error(`no job "${request.name}" in ${jobs ?? "(no jobs module)"}`);
      return job(db, request.bytes, ...request.args);
    }
    case "begin":
      return begin(db, request.id);
    case "commit":
      return end(request.tx, true);
    case "rollback":
      return end(request.tx, false);
    case "listen": {
      const unlisten = await db.listen(request.channel, {
        onMessage: (payload) => reply({ event: request.id, payload }),
        onLive: () => {},
      });
      subscriptions.set(request.id, unlisten);
      return undefined;
    }
    case "unlisten":
      await subscriptions.get(request.subscription)?.();
      subscriptions.delete(request.subscription);
      return undefined;
    case "close":
      await db.close();
      return undefined;
  }
}

try {
  const db = await PgliteDatabase.open(dataDir, templateBytes ? new Blob([templateBytes]) : undefined);
  port.on("message", (request: WorkerRequest) => {
    handle(db, request).then(
      (result) => reply({ id: request.id, ok: true, result }),
      (error: unknown) => reply({ id: request.id, ok: false, error: failure(error) }),
    );
  });
  reply({ ready: true });
} catch (error) {
  reply({ ready: false, error: failure(error) });
}
