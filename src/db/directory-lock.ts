import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { dirname, join, basename } from "node:path";

/**
 * PGlite keeps no lock of its own: two processes opening one data directory would corrupt it
 * (for example a second service on the same DATA_DIR). On Linux the lock is a Unix socket in the
 * abstract namespace named after the directory: only one process can listen on it, and the
 * kernel releases it when that process ends, however it ends (killed, or a zombie not yet reaped),
 * so a restart after a crash always finds it free and no reused process ID can hold it. A file
 * beside the directory (`<dir>.lock`) names the holder's PID for the message. Elsewhere the file is
 * the lock: created atomically, taken over when the process it names is gone.
 */
export class DirectoryLock {
  private constructor(
    private readonly file: string,
    private readonly server: Server | null,
  ) {}

  static async acquire(dir: string): Promise<DirectoryLock> {
    const file = `${dir.replace(/\/+$/, "")}.lock`;
    if (process.platform !== "linux") return DirectoryLock.acquireFile(dir, file);
    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketName(dir), () => resolve());
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      throw openElsewhere(dir, ownerOf(file));
    }
    server.unref(); // the lock lasts as long as the process, and never keeps it alive
    writeOwner(file, "w");
    return new DirectoryLock(file, server);
  }

  /** The lock file alone (not Linux): refused while the process it names is alive. */
  private static acquireFile(dir: string, file: string): DirectoryLock {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeOwner(file, "wx");
        return new DirectoryLock(file, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const owner = ownerOf(file);
        if (owner !== undefined && alive(owner)) throw openElsewhere(dir, owner);
        rmSync(file, { force: true });
      }
    }
    throw new Error(`could not lock ${dir}`);
  }

  release(): void {
    this.server?.close();
    rmSync(this.file, { force: true });
  }
}

/** The abstract socket of a directory: its real path, hashed (the name is at most 107 bytes). */
function socketName(dir: string): string {
  const real = join(realpathSync(dirname(dir)), basename(dir));
  return `\0situs-lock-${createHash("sha256").update(real).digest("hex").slice(0, 40)}`;
}

function openElsewhere(dir: string, owner: number | undefined): Error {
  const who = owner === undefined ? "another process" : `process ${owner}`;
  return new Error(
    `the accounts database in ${dir} is open in ${who}; stop it first, or share PostgreSQL through DATABASE_URL`,
  );
}

function writeOwner(file: string, flags: "w" | "wx"): void {
  const fd = openSync(file, flags);
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
