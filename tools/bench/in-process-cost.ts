import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { openParser } from "../../src/composition.js";
import { readLookupRequest } from "../../src/http/routes/lookup.js";
import { openConfiguredIndex } from "../../src/parcels/configured-index.js";
import { ServerTiming } from "../../src/timing.js";
import type { Scenario } from "./scenarios.js";

/**
 * What each scenario's work costs without HTTP, accounts or billing: the same parser and index
 * the service opens (same configuration, same data directory), fed the same requests, timed in
 * CPU microseconds per request on this thread.
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
      for (let i = 0; i < 2000; i++) await work(i);
      const started = process.cpuUsage();
      for (let i = 0; i < requests; i++) await work(i);
      const used = process.cpuUsage(started);
      costs.set(scenario.name, (used.user + used.system) / requests);
    }
  } finally {
    await index.close();
  }
  return costs;
}

type Work = (i: number) => Promise<unknown> | unknown;

function operation(
  scenario: Scenario,
  parser: ReturnType<typeof openParser>,
  index: Awaited<ReturnType<typeof openConfiguredIndex>>,
): Work {
  if (scenario.method === "GET") {
    const ids = scenario.paths.map((path) => path.slice(path.lastIndexOf("/") + 1));
    return (i) => index.findById(ids[i % ids.length]!, new ServerTiming());
  }
  const bodies = scenario.bodies.map((body) => JSON.parse(body ?? "null") as unknown);
  if (scenario.paths[0] === "/v1/verify/parse") {
    const lines = bodies.map((body) => (body as { line: string }).line);
    return (i) => parser.parse(lines[i % lines.length]!);
  }
  const lookups = scenario.bodies.map((body) => readLookupRequest(Buffer.from(body ?? "")));
  return (i) => index.lookup(lookups[i % lookups.length]!, new ServerTiming());
}
