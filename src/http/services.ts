import type { AccountStore, KeyGuessLimiter, Prices, RequestLog, UsageLedger } from "../accounts/accounts.js";
import type { CreditLeases } from "../accounts/credit-leases.js";
import type { ParcelIndex } from "../parcels/parcel-index.js";
import type { Parser } from "../parse/parser.js";
import type { PortalServices } from "../portal/portal-plugin.js";

/** Everything a request handler may use, built once at start by the composition root. */
export interface Services {
  parser: Parser;
  parcels: ParcelIndex;
  accounts: AccountStore;
  usage: UsageLedger;
  requestLog: RequestLog;
  keyGuesses: KeyGuessLimiter;
  /** Credit leases: each billed request is answered within credit reserved for it; absent: not reserved. */
  leases?: CreditLeases;
  prices: Prices;
  /** Longest an API key check may take before the request gets 503 `unavailable`. */
  keyCheckTimeoutMs: number;
  /** The web portal (/portal); absent: not served. */
  portal?: PortalServices;
  close(): Promise<void>;
}
