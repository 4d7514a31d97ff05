import type { Database } from "../db/database.js";
import type { Config } from "../config.js";
import type { PortalServices } from "../portal/portal-plugin.js";
import { SqlTeamAccounts } from "../accounts/sql/sql-team-accounts.js";
import { SqlPortalStore } from "../portal/store/sql-portal-store.js";

/** The portal's services from the configuration, over the accounts database. */
export function portalServices(db: Database, config: Config): PortalServices {
  return {
    store: new SqlPortalStore(db),
    accounts: new SqlTeamAccounts(db),
    currency: config.CURRENCY,
    prices: {
      parse: config.PRICE_PARSE_MICROS,
      lookup: config.PRICE_LOOKUP_MICROS,
      lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
    },
    sessionIdleMinutes: config.PORTAL_SESSION_IDLE_MINUTES,
    sessionMaxHours: config.PORTAL_SESSION_MAX_HOURS,
    signInLimit: {
      perEmail: config.PORTAL_SIGN_IN_LIMIT,
      perClient: config.PORTAL_SIGN_IN_CLIENT_LIMIT,
      windowMinutes: config.PORTAL_SIGN_IN_WINDOW_MINUTES,
    },
  };
}
