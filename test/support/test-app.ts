import { pino } from "pino";
import type { FastifyInstance } from "fastify";
import {
  MemoryAccountStore,
  MemoryKeyGuessLimiter,
  MemoryRequestLog,
  MemoryUsageLedger,
} from "../../src/accounts/memory-accounts.js";
import { buildApp } from "../../src/http/app.js";
import { EmptyParcelIndex } from "../../src/parcels/empty-parcel-index.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import type { Services } from "../../src/http/services.js";

export const TEST_KEY = "sk_test_0123456789abcdefghijklmnopqrstuv";
export const TEST_TEAM = "team_test";

export interface TestServices extends Services {
  accounts: MemoryAccountStore;
  usage: MemoryUsageLedger;
  requestLog: MemoryRequestLog;
}

/** Services with in-memory accounts, one active team holding TEST_KEY; any part can be replaced. */
export function testServices(overrides: Partial<Services> = {}): TestServices {
  const accounts = new MemoryAccountStore();
  accounts.addTeam({ teamId: TEST_TEAM });
  accounts.addKey(TEST_TEAM, TEST_KEY, "key_test");
  const services: TestServices = {
    parser: new RuleParser(),
    parcels: new EmptyParcelIndex(),
    accounts,
    usage: new MemoryUsageLedger(),
    requestLog: new MemoryRequestLog(),
    keyGuesses: new MemoryKeyGuessLimiter(5),
    prices: { parse: 1000, lookup: 5000, lookup_by_id: 2000 },
    keyCheckTimeoutMs: 200,
    async close() {},
  };
  return Object.assign(services, overrides) as TestServices;
}

export function testApp(services: Services = testServices(), bodyLimit = 65536): FastifyInstance {
  return buildApp(services, { logger: pino({ level: "silent" }), bodyLimit, trustProxy: false });
}

export const auth = { authorization: `Bearer ${TEST_KEY}` } as const;
