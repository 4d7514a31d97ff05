import { pino } from "pino";
import { openAccounts } from "../../src/app/accounts-backend.js";
import { describeKey } from "../../src/accounts/api-keys.js";
import { MemoryAccountStore, MemoryKeyGuessLimiter } from "../../src/accounts/memory-accounts.js";
import { ensureDemoTeam } from "../../src/app/demo-team.js";
import { loadConfig } from "../../src/config.js";
import { buildApp } from "../../src/http/app.js";
import { endOfTurn } from "../../src/http/turn/batched-sends.js";
import { EmptyParcelIndex } from "../../src/parcels/empty-parcel-index.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import type { Services } from "../../src/http/services.js";

/**
 * The HTTP service for benchmarks, with accounts and billing `on` (the real database named by
 * the environment, as `npm start` runs) or `off` (in-memory stand-ins: the key is checked
 * against a map and nothing is written). Both serve the same routes with the same parser.
 *   node dist/tools/bench/bench-server.js on|off   (PORT, DEMO_API_KEY, DATABASE_URL, …)
 */
const mode = process.argv[2] === "off" ? "off" : "on";
const config = loadConfig();
const key = config.DEMO_API_KEY ?? describeKey("sk_bench_key_0000000000000000").secret;
const prices = {
  parse: config.PRICE_PARSE_MICROS,
  lookup: config.PRICE_LOOKUP_MICROS,
  lookup_by_id: config.PRICE_LOOKUP_BY_ID_MICROS,
};

async function accountServices(): Promise<
  Omit<Services, "parser" | "parcels" | "prices" | "keyCheckTimeoutMs">
> {
  if (mode === "off") {
    const accounts = new MemoryAccountStore();
    accounts.addTeam({ teamId: "team_bench", creditMicros: 1e15 });
    accounts.addKey("team_bench", key);
    // Nothing is written or kept: a ledger that kept every record would slow "off" by its
    // garbage collection and flatter the ratio. Its records resolve together at the end of the
    // turn, as a real ledger's resolve together per write, so "off" answers leave in bursts too.
    return {
      accounts,
      usage: { record: () => endOfTurn(), close: async () => {} },
      requestLog: { append: () => {}, close: async () => {} },
      keyGuesses: new MemoryKeyGuessLimiter(config.UNKNOWN_KEY_LIMIT),
      close: async () => {},
    };
  }
  const backend = await openAccounts(config);
  await ensureDemoTeam(backend.db, key);
  await backend.admin.addCredit("team_demo", 1e15);
  return { ...backend, close: () => backend.close() };
}

const parts = await accountServices();
const services: Services = {
  ...parts,
  parser: new RuleParser(),
  parcels: new EmptyParcelIndex(),
  prices,
  keyCheckTimeoutMs: config.KEY_CHECK_TIMEOUT_MS,
};
const app = buildApp(services, { logger: pino({ level: "warn" }), bodyLimit: 65536, trustProxy: false });
app.addHook("onClose", async () => services.close());
await app.listen({ port: config.PORT, host: "127.0.0.1" });
process.stdout.write(`ready ${mode}\n`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
