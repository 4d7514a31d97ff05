import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import type { FastifyInstance } from "fastify";
import { openAccounts } from "../../src/app/accounts-backend.js";
import type { AccountsBackend, AccountsConfig } from "../../src/app/accounts-backend.js";
import type { Database } from "../../src/db/database.js";
import { buildApp } from "../../src/http/app.js";
import type { AppOptions } from "../../src/http/app.js";
import { EmptyParcelIndex } from "../../src/parcels/empty-parcel-index.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import type { Services } from "../../src/http/services.js";

export const PRICES = { parse: 1000, lookup: 5000, lookup_by_id: 2000 } as const;

export const TEST_ACCOUNTS_CONFIG: AccountsConfig = {
  DATA_DIR: "/nonexistent",
  REDIS_PREFIX: "situs-test:",
  REDIS_TIMEOUT_MS: 500,
  DATABASE_TIMEOUT_MS: 2000,
  UNKNOWN_KEY_LIMIT: 5,
  KEY_CACHE_TTL_MS: 30_000,
  TEAM_REFRESH_MS: 1000,
  USAGE_COMMIT_WINDOW_MS: 2,
  REQUEST_LOG_RETENTION_DAYS: 30,
};

export interface AccountsApp {
  app: FastifyInstance;
  backend: AccountsBackend;
  services: Services;
  close(): Promise<void>;
}

/** The real HTTP edge over real accounts on `db` (the database itself stays open). */
export async function accountsApp(
  db: Database,
  config: Partial<AccountsConfig> = {},
  logStream?: NodeJS.WritableStream,
  appOptions: Partial<AppOptions> = {},
): Promise<AccountsApp> {
  const logger = logStream ? pino({ level: "info" }, logStream) : pino({ level: "silent" });
  const dataDir = mkdtempSync(join(tmpdir(), "situs-accounts-"));
  const backend = await openAccounts({ ...TEST_ACCOUNTS_CONFIG, DATA_DIR: dataDir, ...config }, logger, db);
  const services: Services = {
    parser: new RuleParser(),
    parcels: new EmptyParcelIndex(),
    accounts: backend.accounts,
    usage: backend.usage,
    requestLog: backend.requestLog,
    keyGuesses: backend.keyGuesses,
    prices: { ...PRICES },
    keyCheckTimeoutMs: 500,
    async close() {},
  };
  const app = buildApp(services, { logger, bodyLimit: 65536, trustProxy: false, ...appOptions });
  return {
    app,
    backend,
    services,
    async close() {
      await app.close();
      await backend.usage.close();
      await backend.requestLog.close();
      await backend.accounts.close();
      await backend.keyGuesses.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function bearer(secret: string): { authorization: string } {
  return { authorization: `Bearer ${secret}` };
}
