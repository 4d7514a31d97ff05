import { mkdirSync } from "node:fs";
import type { Logger } from "pino";
import { openAccounts } from "./accounts/accounts-backend.js";
import { ensureDemoTeam } from "./accounts/sql/demo-team.js";
import type { Config } from "./config.js";
import { EmptyParcelIndex } from "./parcels/empty-parcel-index.js";
import { PlaceholderParser } from "./parse/placeholder-parser.js";
import { ensureDemoPortalUser } from "./portal/demo-portal-user.js";
import { portalServices } from "./portal/portal-services.js";
import type { Services } from "./services.js";

export { DEMO_TEAM_ID } from "./accounts/sql/demo-team.js";

/** Builds the services of the running service from its configuration. */
export async function buildServices(config: Config, log: Logger): Promise<Services> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const backend = await openAccounts(config, log);
  await announceDemoKey(await ensureDemoTeam(backend.db, config.DEMO_API_KEY), log);
  await ensureDemoPortalUser(backend.db, config, log);
  return {
    parser: new PlaceholderParser(),
    parcels: new EmptyParcelIndex(),
    accounts: backend.accounts,
    usage: backend.usage,
    requestLog: backend.requestLog,
    keyGuesses: backend.keyGuesses,
    prices: {
      parse: config.PRICE_PARSE_MICROS,
      lookup: config.PRICE_LOOKUP_MICROS,
      lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
    },
    keyCheckTimeoutMs: config.KEY_CHECK_TIMEOUT_MS,
    portal: portalServices(backend.db, config),
    close: () => backend.close(),
  };
}

/**
 * The demo key is printed once, when the demo team is created on an empty database; only its
 * hash is stored, so it cannot be shown again (create another with `situs admin key create`).
 */
async function announceDemoKey(secret: string | null, log: Logger): Promise<void> {
  if (secret === null) return;
  log.info("created the demo team and its API key (printed once on stderr)");
  process.stderr.write(`\nDemo API key (shown only now; only its hash is stored):\n  ${secret}\n\n`);
}
