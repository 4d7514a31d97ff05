import { parseArgs } from "node:util";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { damerauDistance } from "../../src/parcels/lookup/edit-distance.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { namesNumber } from "../../src/parcels/lookup/ordinal-name.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { sameDigits } from "../../src/parcels/lookup/street-matcher.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";
import { perturb } from "../../test/parcels/fuzzy-perturbation.js";

/**
 * Lookup benchmarks (README "Parcel index and lookup" targets) over a published index, e.g. the national one that
 * bench-index builds:  node dist/tools/bench/bench-lookup.js --index /tmp/situs-bench/national
 * 1. warm exact lookups: lookups per second on one core and p50/p99 latency;
 * 2. fuzzy quality on perturbed queries (one or two edits in the street name): right parcel,
 *    wrong `matched`, honest `ambiguous` / `not_found`, and the misses by kind of edit;
 * 3. warm fuzzy lookups per second.
 */
const { values } = parseArgs({
  options: {
    index: { type: "string", default: "/tmp/situs-bench/national" },
    queries: { type: "string", default: "20000" },
    perturbed: { type: "string", default: "10000" },
  },
});
const print = (line: string): boolean => process.stdout.write(`${line}\n`);
const index = await StoredParcelIndex.open(new LocalBlobStore(values.index ?? ""), {
  cacheBytes: 8 * 2 ** 30,
  refreshMs: 0,
});
const build = index.current();
const random = seededRandom(6);

interface Query {
  request: LookupRequest;
  zipStreets: Set<string>;
}

async function sampleQueries(count: number): Promise<Query[]> {
  const queries: Query[] = [];
  const chunks = build.manifest.chunks.length;
  while (queries.length < count) {
    const chunk = await build.chunk(Math.floor(random() * chunks));
    const zipStreets = new Set(chunk.streets().map((street) => street.name));
    for (let k = 0; k < 10; k++) {
      const row = Math.floor(random() * chunk.rows);
      if (chunk.status(row) !== "active" || chunk.text(row, "addressNumber") === "") continue;
      const request = {
        zip5: chunk.text(row, "zip5"),
        streetName: chunk.text(row, "streetName"),
      } as LookupRequest;
      for (const field of ["addressNumber", "streetSuffix", "predirectional", "occupancyId"] as const) {
        const value = chunk.text(row, field);
        if (value !== "") request[field] = value;
      }
      queries.push({ request, zipStreets });
    }
  }
  return queries.slice(0, count);
}

async function timed(
  requests: LookupRequest[],
): Promise<{ answers: LookupAnswer[]; perSecond: number; p50: number; p99: number }> {
  const answers: LookupAnswer[] = [];
  const latencies = new Float64Array(requests.length);
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests.length; i++) {
    const started = process.hrtime.bigint();
    answers.push((await index.lookup(requests[i]!)).result as LookupAnswer);
    latencies[i] = Number(process.hrtime.bigint() - started) / 1e3;
  }
  const used = process.cpuUsage(cpu);
  latencies.sort();
  const at = (q: number): number => latencies[Math.floor(q * (latencies.length - 1))] ?? 0;
  return {
    answers,
    perSecond: requests.length / ((used.user + used.system) / 1e6),
    p50: at(0.5),
    p99: at(0.99),
  };
}

const queries = await sampleQueries(Number(values.queries));
const requests = queries.map((q) => q.request);
print(
  `index ${build.buildId}: ${build.manifest.counts.parcels} parcels, ${build.manifest.chunks.length} chunks`,
);
const exact = await timed(requests); // first pass reads and decodes the chunks
const warm = await timed(requests);
const statuses = new Map<string, number>();
for (const answer of warm.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
print(
  `exact, warm: ${requests.length} lookups, ${Math.round(warm.perSecond)} per CPU-second, p50 ${warm.p50.toFixed(1)} µs, p99 ${warm.p99.toFixed(1)} µs`,
);
print(`  outcomes: ${JSON.stringify(Object.fromEntries(statuses))}`);

const perturbed: Array<{ request: LookupRequest; original: string; expected: string | null }> = [];
for (let i = 0; perturbed.length < Number(values.perturbed); i++) {
  const query = queries[i % queries.length]!;
  const expected = exact.answers[i % queries.length]!;
  const streetName = perturb(query.request.streetName, 1 + Math.floor(random() * 2), random);
  if (query.zipStreets.has(streetName)) continue; // another real street, not a typo
  perturbed.push({
    request: { ...query.request, streetName },
    original: query.request.streetName,
    expected: expected.status === "matched" ? expected.service_id : null,
  });
}
await timed(perturbed.map((p) => p.request)); // builds the per-chunk deletion indexes
const fuzzy = await timed(perturbed.map((p) => p.request));
/** What kind of edit a missed query carries: numbered or named street, its digits, edits and length. */
function missKind(original: string, typed: string): string {
  const edits = damerauDistance(original, typed);
  const size = `${edits} edit${edits > 1 ? "s" : ""} on ${original.length <= 3 ? "3 characters or fewer" : "4 or more"}`;
  if (!/\d/.test(original)) return `named street, ${size}`;
  const digits = sameDigits(original, typed)
    ? "digits kept"
    : namesNumber(typed)
      ? "spells another street number"
      : "a digit lost, replaced or doubled";
  return `numbered street, ${digits}, ${size}`;
}

let right = 0;
let wrong = 0;
let honest = 0;
const misses = new Map<string, { count: number; example: string }>();
fuzzy.answers.forEach((answer, i) => {
  const { request, original, expected } = perturbed[i]!;
  if (answer.status === "matched" && answer.service_id === expected) return right++;
  if (answer.status === "matched" || answer.status === "matched_building") wrong++;
  else honest++;
  const kind = `${missKind(original, request.streetName)}: ${answer.status}`;
  const known = misses.get(kind) ?? { count: 0, example: `${original} → ${request.streetName}` };
  misses.set(kind, { ...known, count: known.count + 1 });
});
const matchable = perturbed.filter((p) => p.expected !== null).length;
print(
  `fuzzy quality: ${perturbed.length} perturbed queries (${matchable} whose exact query matches one parcel)`,
);
print(
  `  right parcel ${right} (${((100 * right) / matchable).toFixed(1)}%), wrong matched ${wrong}, ambiguous or not_found ${honest}`,
);
print("  misses by kind of edit:");
for (const [kind, { count, example }] of [...misses].sort((a, b) => b[1].count - a[1].count))
  print(`    ${count} ${kind} (${example})`);
print(
  `fuzzy, warm: ${Math.round(fuzzy.perSecond)} per CPU-second, p50 ${fuzzy.p50.toFixed(1)} µs, p99 ${fuzzy.p99.toFixed(1)} µs`,
);
index.close();
