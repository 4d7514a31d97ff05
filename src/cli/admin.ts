import { loadConfig } from "../config.js";
import { applyLeftoverUsage, openDatabase } from "../app/accounts-backend.js";
import type { AdminResult } from "../accounts/sql/admin-commands.js";
import { HELP, isAdminCommand, runAdminCommand } from "../accounts/sql/admin-commands.js";
import { adminSocketPath, sendAdminCommand } from "../accounts/sql/admin-socket.js";

export { HELP };

/**
 * `situs admin`: the operator's command line over the accounts database named by the environment.
 * On PostgreSQL (DATABASE_URL) it opens the database. On the embedded database (DATA_DIR), which
 * one process can open, it sends the command to the running service's admin socket, or opens the
 * database itself when no service runs; either way the same commands give the same output.
 */

/** Where the command writes: the process's streams, or a test's. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const STANDARD: Output = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

export async function run(argv: string[], io: Output = STANDARD): Promise<number> {
  const result = await execute(argv);
  if (result.out !== "") io.out(result.out);
  if (result.err !== "") io.err(result.err);
  return result.code;
}

async function execute(argv: string[]): Promise<AdminResult> {
  if (argv.length === 0 || argv[0] === "--help") return { code: 0, out: "", err: HELP };
  if (!isAdminCommand(argv)) return { code: 2, out: "", err: HELP };
  const config = loadConfig();
  const password = process.env.SITUS_PASSWORD;
  const context = password === undefined ? {} : { password };
  if (config.DATABASE_URL === undefined) {
    const served = await sendAdminCommand(adminSocketPath(config.DATA_DIR), { argv, ...context });
    if (served) return served;
  }
  const db = await openDatabase(config);
  try {
    await applyLeftoverUsage(db, config);
    return await runAdminCommand(db, argv, context);
  } finally {
    await db.close();
  }
}
