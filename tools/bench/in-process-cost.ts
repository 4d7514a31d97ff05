import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { openParser } from "../../src/app/composition.js";
import { readLookupRequest } from "../../src/http/routes/lookup.js";
import { openConfiguredIndex } from "../../src/app/configured-index.js";
import type { Scenario } from "./scenarios.js";

/**
 * What each scenario's work costs without HTTP, accounts or billing: the same parser and index
 * the service opens (same configuration, same data directory), fed the same requests, timed in
 * CPU microseconds per request on this thread: the median of ROUNDS rounds of `requests`, after
 * WARM_UP_ROUNDS unmeasured ones. A single round right after a short warm-up measured the
 * parser at twice its settled cost (its code still being compiled, its caches filling), which
 * made the 2× bound lenient.
 */
export async function inProcessCosts(
  env: NodeJS.ProcessEnv,
  scenarios: readonly Scenario[],
  requests = 20_000,
): Promise<Map<string, number>> {
  const config = loadConfig(env);
  const log = pino({ level: "silent" });
  const parser = openParser(config, () => {});
  const index = await openConfiguredIndex(config, log);
  const costs = new Map<string, number>();
  try {
    for (const scenario of scenarios) {
      const work = operation(scenario, parser, index);
      for (let round = 0; round < WARM_UP_ROUNDS; round++) for (let i = 0; i < requests; i++) await work(i);
      const perRequest: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = process.cpuUsage();
        for (let i = 0; i < requests; i++) await work(i);
        const used = process.cpuUsage(started);
        perRequest.push((used.user + used.system) / requests);
      }
      perRequest.sort((a, b) => a - b);
      costs.set(scenario.name, perRequest[ROUNDS >> 1]!);
    }
  } finally {
    await index.close();
  }
  return costs;
}

const WARM_UP_ROUNDS = 2;
const ROUNDS = 5;

type Work = (i: number) => Promise<unknown> | unknown;

function operation(
  scenario: Scenario,
  parser: ReturnType<typeof openParser>,
  index: Awaited<ReturnType<typeof openConfiguredIndex>>,
): Work {
  if (scenario.method === "GET") {
    const ids = scenario.paths.map((path) => path.slice(path.lastIndexOf("/") + 1));
    return (i) => index.findById(ids[i % ids.length]!);
  }
  const bodies = scenario.bodies.map((body) => JSON.parse(body ?? "null") as unknown);
  if (scenario.paths[0] === "/v1/verify/parse") {
    const lines = bodies.map((body) => (body as { line: string }).line);
    return (i) => parser.parse(lines[i % lines.length]!);
  }
  const lookups = scenario.bodies.map((body) => readLookupRequest(Buffer.from(body ?? "")));
  return (i) => index.lookup(lookups[i % lookups.length]!);
}
