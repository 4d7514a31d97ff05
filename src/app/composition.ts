import { mkdirSync } from "node:fs";
import type { Logger } from "pino";
import { openAccountServices } from "./account-services.js";
import type { Config } from "../config.js";
import { openConfiguredIndex } from "./configured-index.js";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../parse/model/model-parser.js";
import { RuleParser } from "../parse/rule-parser.js";
import type { Parser } from "../parse/parser.js";
import { portalServices } from "./portal-services.js";
import type { Services } from "../http/services.js";

export { DEMO_TEAM_ID } from "./demo-team.js";

/** The parser the service answers with: the trained model, the rule-based parser as fallback. */
export function openParser(
  config: Pick<Config, "PARSER_MODEL_FILE">,
  warn: (message: string) => void,
): Parser {
  const parser = new ModelParser(
    new RuleParser({ preloadGazetteer: true }),
    loadModelFile(config.PARSER_MODEL_FILE ?? DEFAULT_MODEL_FILE),
  );
  if (parser.unavailableReason !== undefined) {
    warn(`parser model unavailable (${parser.unavailableReason}): the rule-based parser answers`);
  }
  return parser;
}

/** Builds the services of the running service from its configuration. */
export async function buildServices(config: Config, log: Logger): Promise<Services> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const parser = openParser(config, (message) => log.warn(message));
  const accounts = await openAccountServices(config, log);
  const parcels = await openConfiguredIndex(config, log);
  return {
    parser,
    parcels,
    accounts: accounts.accounts,
    usage: accounts.usage,
    requestLog: accounts.requestLog,
    keyGuesses: accounts.keyGuesses,
    leases: accounts.leases,
    prices: {
      parse: config.PRICE_PARSE_MICROS,
      lookup: config.PRICE_LOOKUP_MICROS,
      lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
    },
    keyCheckTimeoutMs: config.KEY_CHECK_TIMEOUT_MS,
    // The portal reads the accounts database directly: served where this process holds it.
    ...(accounts.db ? { portal: portalServices(accounts.db, config) } : {}),
    async close() {
      parcels.close();
      await accounts.close();
    },
  };
}
