import { openSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";

/**
 * PGlite keeps no lock of its own: two processes opening one data directory would corrupt it
 * (for example `situs admin` while the service runs). A lock file beside the directory
 * (`<dir>.lock`, outside the files PGlite manages) holding the owner's PID, created atomically,
 * refuses the second opener; a lock left by a dead process is taken over.
 */
export class DirectoryLock {
  private constructor(private readonly file: string) {}

  static acquire(dir: string): DirectoryLock {
    const file = `${dir.replace(/\/+$/, "")}.lock`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, "wx");
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new DirectoryLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const owner = Number(readFileSync(file, "utf8"));
        if (alive(owner)) {
          throw new Error(
            `the accounts database in ${dir} is open in process ${owner}; stop it first, or share PostgreSQL through DATABASE_URL`,
          );
        }
        rmSync(file, { force: true });
      }
    }
    throw new Error(`could not lock ${dir}`);
  }

  release(): void {
    rmSync(this.file, { force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
