import { ACCOUNT_MIGRATIONS } from "../accounts/sql/account-migrations.js";
import type { Migration } from "../db/migrate.js";
import { PORTAL_MIGRATIONS } from "../portal/store/portal-migrations.js";

/**
 * The service's schema: the accounts' tables (versions 1–19) and the portal's (20 and up), handed
 * to the migrator (db/migrate.ts) here, so that no feature imports another's tables.
 */
export const SERVICE_MIGRATIONS: readonly Migration[] = [...ACCOUNT_MIGRATIONS, ...PORTAL_MIGRATIONS];
