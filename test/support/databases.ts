import { JOURNAL_JOBS } from "../../src/accounts/ledger/journal-jobs.js";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { projectPath } from "../../src/paths.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { PgliteThreadDatabase } from "../../src/db/pglite-thread-database.js";
import { PostgresDatabase } from "../../src/db/postgres-database.js";

/**
 * The real servers the accounts tests use (CI starts both: .ci/run). Outside CI a test skips
 * with a clear message when its server is unreachable; in CI (CI=true) it fails instead.
 */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Whether a TCP connection to the server opens, tried three times: a test file whose event loop
 * is busy (a WebAssembly database compiling at load) can see its timer fire before the connect.
 */
async function reachable(url: string, defaultPort: number): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) if (await connects(url, defaultPort)) return true;
  return false;
}

function connects(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || defaultPort) });
    const end = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(5000);
    socket.once("connect", () => end(true));
    socket.once("error", () => end(false));
    socket.once("timeout", () => end(false));
  });
}

/** `false` to run, or the skip message; throws in CI so the tests cannot silently skip there. */
export async function serverSkip(name: "PostgreSQL" | "Redis"): Promise<false | string> {
  const [url, port] = name === "PostgreSQL" ? [POSTGRES_URL, 5432] : [REDIS_URL, 6379];
  if (await reachable(url, port)) return false;
  const message = `needs ${name} at ${url} (unreachable)`;
  if (process.env.CI === "true") throw new Error(`${message}, and CI=true: the tests must not skip`);
  return message;
}

/** A fresh, empty PostgreSQL database for one test run; `drop()` removes it. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `situs_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestDatabase<Db extends Database = Database> {
  db: Db;
  /** Opens a second connection to the same database (another replica); PGlite has none. */
  another?: () => Promise<Database>;
  cleanup(): Promise<void>;
}

export async function openPostgresForTest(timeoutMs = 2000): Promise<TestDatabase & { url: string }> {
  const fresh = await freshPostgres();
  const open = async () => new PostgresDatabase({ url: fresh.url, timeoutMs });
  const db = await open();
  await migrate(db, SERVICE_MIGRATIONS);
  const others: Database[] = [];
  return {
    db,
    url: fresh.url,
    another: async () => {
      const other = await open();
      others.push(other);
      return other;
    },
    async cleanup() {
      await Promise.all([db, ...others].map((d) => d.close().catch(() => {})));
      await fresh.drop();
    },
  };
}

/**
 * PGlite's initdb takes several seconds; a fresh database made once is kept as a tarball in the
 * temp directory (per PGlite version) and later databases start from it. Written to a temporary
 * name and renamed, so concurrent test processes never read half a file.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const version = (
    JSON.parse(
      readFileSync(projectPath("node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
    ) as { version: string }
  ).version;
  const file = join(tmpdir(), `situs-pglite-template-${version}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const fresh = await PgliteDatabase.open(undefined);
  const dump = await fresh.dump();
  await fresh.close();
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

/** The embedded database as the service runs it: PGlite on a thread of its own. */
export async function openPgliteForTest(): Promise<TestDatabase<PgliteThreadDatabase>> {
  const dir = mkdtempSync(join(tmpdir(), "situs-pglite-"));
  const db = await PgliteThreadDatabase.open(dir, await pgliteTemplate(), JOURNAL_JOBS);
  await migrate(db, SERVICE_MIGRATIONS);
  return {
    db,
    async cleanup() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
