import { chmodSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { createConnection, createServer } from "node:net";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import type { AdminResult } from "./admin-commands.js";
import { runAdminCommand } from "./admin-commands.js";

/**
 * The embedded database can be open in one process only, so `situs admin` cannot open it while
 * the service runs. The process that holds it listens on a Unix socket in DATA_DIR, readable and
 * writable by its owner only, and runs the commands a command line sends there: one request, a
 * line of JSON (`{"argv": [...], "password"?: "..."}`), one answer (`{"code", "out", "err"}`).
 */
export function adminSocketPath(dataDir: string): string {
  return join(dataDir, "admin.sock");
}

export interface AdminRequest {
  argv: string[];
  /** SITUS_PASSWORD of the command line, for `user create`. */
  password?: string;
}

/** The longest request read: an argv is a few short words. */
const MAX_REQUEST_BYTES = 64 * 1024;

function isAdminRequest(value: unknown): value is AdminRequest {
  const request = value as Partial<AdminRequest> | null;
  return (
    typeof request === "object" &&
    request !== null &&
    Array.isArray(request.argv) &&
    request.argv.every((arg) => typeof arg === "string") &&
    (request.password === undefined || typeof request.password === "string")
  );
}

/** The answer to one request line; a failure of the database is an error answer, not a crash. */
async function answer(db: Database, line: string, log?: Logger): Promise<AdminResult> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    request = undefined;
  }
  if (!isAdminRequest(request)) return { code: 2, out: "", err: "situs admin: a malformed request\n" };
  try {
    const context = request.password === undefined ? {} : { password: request.password };
    return await runAdminCommand(db, request.argv, context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log?.error({ err: error, argv: request.argv.slice(0, 2) }, "an admin command failed");
    return { code: 1, out: "", err: `situs admin: ${message}\n` };
  }
}

function serveConnection(socket: Socket, db: Database, log?: Logger): void {
  let text = "";
  socket.setEncoding("utf8");
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: string) => {
    text += chunk;
    const end = text.indexOf("\n");
    if (end === -1 && text.length <= MAX_REQUEST_BYTES) return;
    socket.removeAllListeners("data");
    const line = end === -1 ? "" : text.slice(0, end);
    void answer(db, line, log).then((result) => socket.end(`${JSON.stringify(result)}\n`));
  });
}

/**
 * Listens for admin commands on `path` for the process holding `db`. A socket file left by a
 * process that was killed is replaced (this process holds the database's lock, so no live
 * process serves it).
 */
export async function serveAdminSocket(
  path: string,
  db: Database,
  log?: Logger,
): Promise<{ close(): Promise<void> }> {
  rmSync(path, { force: true });
  const server = createServer((socket) => serveConnection(socket, db, log));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  server.unref(); // the socket serves while the process runs; it never keeps the process alive
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

/**
 * Sends one command to the service listening on `path`; undefined when none listens there (no
 * socket, or one a stopped process left), so the caller opens the database itself.
 */
export function sendAdminCommand(path: string, request: AdminRequest): Promise<AdminResult | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      try {
        resolve(JSON.parse(text) as AdminResult);
      } catch {
        reject(new Error(`the service at ${path} gave no answer`));
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else reject(error);
    });
  });
}
