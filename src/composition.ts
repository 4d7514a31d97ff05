import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { generateApiKey } from "./accounts/api-keys.js";
import {
  MemoryAccountStore,
  MemoryKeyGuessLimiter,
  MemoryRequestLog,
  MemoryUsageLedger,
} from "./accounts/memory-accounts.js";
import type { Config } from "./config.js";
import { EmptyParcelIndex } from "./parcels/empty-parcel-index.js";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "./parse/model-parser.js";
import { RuleParser } from "./parse/rule-parser.js";
import type { Services } from "./services.js";

export const DEMO_TEAM_ID = "team_demo";

/** Builds the services of the running service from its configuration. */
export async function buildServices(config: Config, log: Logger): Promise<Services> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const accounts = new MemoryAccountStore();
  accounts.addTeam({ teamId: DEMO_TEAM_ID });
  accounts.addKey(DEMO_TEAM_ID, demoApiKey(config, log), "key_demo");
  const usage = new MemoryUsageLedger();
  const requestLog = new MemoryRequestLog();
  const keyGuesses = new MemoryKeyGuessLimiter(config.UNKNOWN_KEY_LIMIT);
  const parser = new ModelParser(
    new RuleParser({ preloadGazetteer: true }),
    loadModelFile(config.PARSER_MODEL_FILE ?? DEFAULT_MODEL_FILE),
  );
  if (parser.unavailableReason !== undefined) {
    log.warn({ reason: parser.unavailableReason }, "parser model unavailable: the rule-based parser answers");
  }
  return {
    parser,
    parcels: new EmptyParcelIndex(),
    accounts,
    usage,
    requestLog,
    keyGuesses,
    prices: {
      parse: config.PRICE_PARSE_MICROS,
      lookup: config.PRICE_LOOKUP_MICROS,
      lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
    },
    keyCheckTimeoutMs: config.KEY_CHECK_TIMEOUT_MS,
    async close() {
      await Promise.all([accounts.close(), usage.close(), requestLog.close(), keyGuesses.close()]);
    },
  };
}

/**
 * The demo team's key: DEMO_API_KEY when set, else the one created on first start in DATA_DIR.
 * It is printed when created so a fresh checkout can call the API at once.
 */
function demoApiKey(config: Config, log: Logger): string {
  if (config.DEMO_API_KEY !== undefined) return config.DEMO_API_KEY;
  const file = join(config.DATA_DIR, "demo-api-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const key = generateApiKey().secret;
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  log.info({ keyFile: file }, "created the demo team and its API key");
  process.stderr.write(`\nDemo API key (created now, kept in ${file}):\n  ${key}\n\n`);
  return key;
}
