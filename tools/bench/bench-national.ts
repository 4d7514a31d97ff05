import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CANONICAL_COLUMNS, CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { idShardRefs } from "../../src/parcels/format/manifest.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { generateZip, syntheticCsvLine, syntheticFips } from "../../src/parcels/demo/synthetic.js";
import { realisticNationalPlan } from "../../src/parcels/demo/synthetic-national.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import type { BlobStore } from "../../src/parcels/store/blob-store.js";
import { openBlobStore } from "../../src/parcels/store/open-blob-store.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { startS3 } from "../../test/support/s3.js";
import { buildNationalInParallel } from "../parcels/parallel-national-build.js";

/**
 * The whole country on one machine (README "Quality and speed", docs/scale-out.md):
 *   npm run bench:national -- [--parcels 155000000] [--dir /tmp/situs-national]
 *                             [--cache-bytes 2147483648] [--skip-build] [--no-s3] [--no-refresh]
 * 1. build: a synthetic United States (realisticNationalPlan: every ZIP with land parcels, sizes
 *    log-normal up to 64,000) straight from the generator into an index directory; wall, CPU,
 *    peak RSS, bytes on disk;
 * 2. serve from the directory, then from an S3-compatible store (s3rver), with a bounded chunk
 *    cache: RSS at rest and under load, cold and warm lookups (p50/p99), lookups per CPU-second;
 * 3. refresh one county of about 500,000 parcels (splits, merges, removals) into the national
 *    index with `ingest`, while a serving process picks the new build up without a restart.
 * Each phase runs in a process of its own, so each peak RSS is its own.
 */
const { values } = parseArgs({
  options: {
    phase: { type: "string", default: "" },
    parcels: { type: "string", default: "155000000" },
    dir: { type: "string", default: "/tmp/situs-national" },
    "cache-bytes": { type: "string", default: String(2 * 2 ** 30) },
    "skip-build": { type: "boolean", default: false },
    "no-s3": { type: "boolean", default: false },
    "no-refresh": { type: "boolean", default: false },
    "load-lookups": { type: "string", default: "20000" },
    location: { type: "string", default: "" },
    "refresh-county": { type: "string", default: "" },
    lookups: { type: "string", default: "300000" },
  },
});
const dir = values.dir ?? "/tmp/situs-national";
const indexDir = join(dir, "index");
const queryFile = join(dir, "queries.jsonl");
const print = (line: string): boolean => process.stdout.write(`${line}\n`);
const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const maxRss = (): number => process.resourceUsage().maxRSS * 1024;
const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const report = (result: object): boolean => print(`RESULT ${JSON.stringify(result)}`);

interface Query {
  request: LookupRequest;
  id: string;
}

/** One parcel in this many is sampled as a query (uniform over parcels: large ZIPs more often). */
const SAMPLE_EVERY = 2_503;

/** Phase 1, in its own process: generate and build; sample queries; note the refresh county. */
async function buildPhase(): Promise<void> {
  const parcels = Number(values.parcels);
  const plan = realisticNationalPlan(nationalGazetteer(), parcels);
  const county = refreshCounty(plan);
  rmSync(indexDir, { recursive: true, force: true });
  mkdirSync(join(dir, "spill"), { recursive: true });
  const queries = createWriteStream(queryFile);
  let splitId: string | undefined;
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const manifest = await buildNationalInParallel(indexDir, plan, {
    realistic: true,
    sampleEvery: SAMPLE_EVERY,
    idOptions: { spillDir: join(dir, "spill") },
    onZip: (place, result) => {
      for (const sample of result.samples) queries.write(`${JSON.stringify(sample)}\n`);
      // A parcel the refresh splits, to see the new build picked up.
      if (syntheticFips(place) === county.fips) splitId ??= result.splitId;
    },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  await new Promise<void>((resolve) => queries.end(() => resolve()));
  rmSync(join(dir, "spill"), { recursive: true, force: true });
  report({
    parcels: manifest.counts.parcels,
    chunks: manifest.chunks.length,
    shards: idShardRefs(manifest).length,
    buildings: manifest.counts.buildings,
    wall,
    cpu: cpuSeconds(cpu),
    maxRss: maxRss(),
    bytes: directoryBytes(indexDir),
    county: { ...county, splitId },
  });
}

/** The county of the plan whose parcels come nearest 500,000, and its ZIPs. */
function refreshCounty(plan: ReturnType<typeof realisticNationalPlan>): { fips: string; parcels: number } {
  const counties = new Map<string, number>();
  for (const [place, count] of plan) {
    const fips = syntheticFips(place);
    counties.set(fips, (counties.get(fips) ?? 0) + count);
  }
  let best = { fips: "", parcels: 0 };
  for (const [fips, parcels] of counties) {
    if (Math.abs(parcels - 500_000) < Math.abs(best.parcels - 500_000)) best = { fips, parcels };
  }
  return best;
}

function directoryBytes(root: string): number {
  let bytes = 0;
  for (const name of readdirSync(root, { recursive: true }) as string[]) {
    const stat = statSync(join(root, name));
    if (stat.isFile()) bytes += stat.size;
  }
  return bytes;
}

function readQueries(): Query[] {
  return readFileSync(queryFile, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Query);
}

function quantiles(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number): number => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

/** A deterministic reordering: every `stride`-th element, wrapping (a prime stride visits each once). */
function spread<T>(list: T[], stride = 7919): T[] {
  return list.map((_, i) => list[(i * stride) % list.length]!);
}

/** Phase 2, in its own process: serve the national index from `location` with a bounded cache. */
async function servePhase(): Promise<void> {
  const store = openBlobStore(values.location || indexDir, process.env);
  const cacheBytes = Number(values["cache-bytes"]);
  const queries = readQueries();
  const opened = process.hrtime.bigint();
  const index = await StoredParcelIndex.open(store, { cacheBytes, refreshMs: 0 });
  const build = index.current();
  await build.streets();
  await build.places();
  const openSeconds = Number(process.hrtime.bigint() - opened) / 1e9;
  global.gc?.();
  const restRss = process.memoryUsage.rss();
  const lookup = async (query: Query): Promise<LookupAnswer> =>
    (await index.lookup(query.request)).result as LookupAnswer;

  // Cold: the first lookup in a chunk reads, checks and decodes it (queries in distinct chunks),
  // in a process whose code is compiled as a serving one's is: 300 lookups in other chunks first.
  const byChunk = new Map<string, Query>();
  for (const query of spread(queries))
    if (!byChunk.has(query.request.zip5!)) byChunk.set(query.request.zip5!, query);
  const distinct = [...byChunk.values()];
  for (const query of distinct.slice(1200, 1500)) {
    await lookup(query);
    await index.findById(query.id);
  }
  const cold: number[] = [];
  let wrong = 0;
  for (const query of distinct.slice(0, 600)) {
    const started = process.hrtime.bigint();
    const answer = await lookup(query);
    cold.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (answer.service_id !== query.id) wrong++;
  }
  // Cold by ID: a new shard and chunk each.
  const coldById: number[] = [];
  for (const query of distinct.slice(600, 1200)) {
    const started = process.hrtime.bigint();
    await index.findById(query.id);
    coldById.push(Number(process.hrtime.bigint() - started) / 1e6);
  }

  // Warm: queries whose chunks fit in half the cache, read once, then asked again and again.
  const warmSet: Query[] = [];
  const warmChunks = new Set<string>();
  for (const query of queries) {
    if (warmChunks.size >= 3000 && !warmChunks.has(query.request.zip5!)) continue;
    warmChunks.add(query.request.zip5!);
    warmSet.push(query);
  }
  for (const query of warmSet) {
    await lookup(query);
    await index.findById(query.id);
  }
  const count = Number(values.lookups);
  const warm = new Float64Array(count);
  let cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const query = warmSet[(i * 7919) % warmSet.length]!;
    const started = process.hrtime.bigint();
    const answer = await lookup(query);
    warm[i] = Number(process.hrtime.bigint() - started) / 1e3;
    if (answer.service_id !== query.id) wrong++;
  }
  const warmCpu = cpuSeconds(cpu);
  const warmById = new Float64Array(count);
  cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const query = warmSet[(i * 7919) % warmSet.length]!;
    const started = process.hrtime.bigint();
    await index.findById(query.id);
    warmById[i] = Number(process.hrtime.bigint() - started) / 1e3;
  }
  const warmByIdCpu = cpuSeconds(cpu);

  // Under load: queries over the whole country, the cache full and evicting.
  const mixed: number[] = [];
  let peakRss = process.memoryUsage.rss();
  cpu = process.cpuUsage();
  const all = spread(queries, 104_729).slice(0, Number(values["load-lookups"]));
  for (let i = 0; i < all.length; i++) {
    const started = process.hrtime.bigint();
    await lookup(all[i]!);
    mixed.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (i % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  const mixedCpu = cpuSeconds(cpu);
  report({
    openSeconds,
    restRss,
    peakRss: Math.max(peakRss, process.memoryUsage.rss()),
    maxRss: maxRss(),
    cacheUsed: index.cache.usedBytes,
    cold: quantiles(cold),
    coldById: quantiles(coldById),
    warm: { ...quantiles([...warm]), perCpuSecond: count / warmCpu, chunks: warmChunks.size },
    warmById: { ...quantiles([...warmById]), perCpuSecond: count / warmByIdCpu },
    mixed: { ...quantiles(mixed), perCpuSecond: all.length / mixedCpu, lookups: all.length },
    wrong,
  });
  index.close();
}

/** A serving process that waits for the refreshed build and reports when it answers from it. */
async function watchPhase(splitId: string): Promise<void> {
  const index = await StoredParcelIndex.open(openBlobStore(indexDir), {
    cacheBytes: Number(values["cache-bytes"]),
    refreshMs: 250,
  });
  const first = index.buildId;
  print("READY");
  for (;;) {
    const record = (await index.findById(splitId)).result;
    if (record?.status === "superseded") {
      report({
        seenAt: Date.now(),
        from: first,
        to: index.buildId,
        supersededBy: record.superseded_by.length,
      });
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  index.close();
}

/** Phase 3, in its own process: `ingest` of the county's new file into the national index. */
async function refreshPhase(file: string): Promise<void> {
  const cpu = process.cpuUsage();
  const result = await ingest({
    store: new LocalBlobStore(indexDir),
    inputs: [{ file, mapping: CANONICAL_MAPPING }],
  });
  report({
    publishedAt: Date.now(),
    seconds: result.seconds,
    cpu: cpuSeconds(cpu),
    maxRss: maxRss(),
    rows: result.rows,
    writtenChunks: result.writtenChunks,
    keptChunks: result.keptChunks,
    bytesWritten: result.bytesWritten,
    bytes: result.bytes,
    counts: result.counts,
  });
}

/** Runs a phase of this script in its own process; answers its RESULT line. */
async function runPhase(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  onLine: (line: string) => void = () => {},
): Promise<Record<string, unknown>> {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      fileURLToPath(import.meta.url),
      "--dir",
      dir,
      "--parcels",
      values.parcels!,
      "--cache-bytes",
      values["cache-bytes"]!,
      "--lookups",
      values.lookups!,
      "--load-lookups",
      values["load-lookups"]!,
      ...args,
    ],
    { env, stdio: ["ignore", "pipe", "inherit"] },
  );
  let result: Record<string, unknown> | undefined;
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    if (line.startsWith("RESULT ")) result = JSON.parse(line.slice(7)) as Record<string, unknown>;
    else onLine(line);
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0 || !result) throw new Error(`phase ${args.join(" ")} failed (exit ${code})`);
  return result;
}

interface ServeResult {
  openSeconds: number;
  restRss: number;
  peakRss: number;
  maxRss: number;
  cacheUsed: number;
  cold: ReturnType<typeof quantiles>;
  coldById: ReturnType<typeof quantiles>;
  warm: ReturnType<typeof quantiles> & { perCpuSecond: number; chunks: number };
  warmById: ReturnType<typeof quantiles> & { perCpuSecond: number };
  mixed: ReturnType<typeof quantiles> & { perCpuSecond: number; lookups: number };
  wrong: number;
}

function printServe(label: string, r: ServeResult): void {
  const us = (v: number): string => `${v.toFixed(0)} µs`;
  const ms = (v: number): string => `${v.toFixed(2)} ms`;
  print(`serve from ${label} (CHUNK_CACHE_BYTES ${gib(Number(values["cache-bytes"]))}):`);
  print(
    `  opened in ${r.openSeconds.toFixed(2)} s; RSS at rest ${gib(r.restRss)}, under load ${gib(r.peakRss)} (peak ${gib(r.maxRss)}), cache ${gib(r.cacheUsed)}`,
  );
  print(
    `  cold lookup (chunk not cached): p50 ${ms(r.cold.p50)}, p99 ${ms(r.cold.p99)}, max ${ms(r.cold.max)}`,
  );
  print(
    `  cold lookup by ID (shard and chunk not cached): p50 ${ms(r.coldById.p50)}, p99 ${ms(r.coldById.p99)}`,
  );
  print(
    `  warm lookup over ${r.warm.chunks} chunks: ${Math.round(r.warm.perCpuSecond)} per CPU-second, p50 ${us(r.warm.p50)}, p99 ${us(r.warm.p99)}`,
  );
  print(
    `  warm lookup by ID: ${Math.round(r.warmById.perCpuSecond)} per CPU-second, p50 ${us(r.warmById.p50)}, p99 ${us(r.warmById.p99)}`,
  );
  print(
    `  under load (${r.mixed.lookups} lookups over the country, cache evicting): ${Math.round(r.mixed.perCpuSecond)} per CPU-second, p50 ${ms(r.mixed.p50)}, p99 ${ms(r.mixed.p99)}`,
  );
  print(`  answers other than the sampled parcel: ${r.wrong}`);
}

/** Writes the county's next file (generateZip version 2 of each of its ZIPs: splits, merges, removals). */
async function writeCountyFile(fips: string, file: string): Promise<number> {
  const out = createWriteStream(file);
  out.write(`${CANONICAL_COLUMNS.join(",")}\n`);
  let rows = 0;
  for (const [place, count] of realisticNationalPlan(nationalGazetteer(), Number(values.parcels))) {
    if (count === 0 || syntheticFips(place) !== fips) continue;
    const parcels = generateZip(place, count, 2, true);
    rows += parcels.length;
    if (!out.write(`${parcels.map(syntheticCsvLine).join("\n")}\n`)) await once(out, "drain");
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return rows;
}

async function uploadTo(store: BlobStore): Promise<{ files: number; bytes: number; seconds: number }> {
  const started = process.hrtime.bigint();
  const files = (readdirSync(indexDir, { recursive: true }) as string[])
    .filter((name) => statSync(join(indexDir, name)).isFile())
    .map((name) => relative(indexDir, join(indexDir, name)))
    // CURRENT last: the store is published once every file it names is there.
    .sort((a, b) => (a === "CURRENT" ? 1 : b === "CURRENT" ? -1 : 0));
  let bytes = 0;
  let next = 0;
  const current = files.pop();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < files.length) {
        const name = files[next++]!;
        const data = readFileSync(join(indexDir, name));
        bytes += data.length;
        await store.put(name, data);
      }
    }),
  );
  if (current) await store.put(current, readFileSync(join(indexDir, current)));
  return { files: files.length + 1, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function main(): Promise<void> {
  const parcels = Number(values.parcels);
  print(`national index: ${parcels} parcels over every ZIP with land parcels, in ${dir}`);
  let county: { fips: string; parcels: number; splitId?: string };
  const countyFile = join(dir, "county.json");
  if (!values["skip-build"]) {
    const b = await runPhase(["--phase", "build"]);
    const bytes = b.bytes as number;
    print(
      `build: ${b.parcels} parcels, ${b.chunks} chunks (large ZIPs in parts), ${b.shards} ID shards, ${b.buildings} buildings`,
    );
    print(
      `  wall ${(b.wall as number).toFixed(0)} s (${Math.round(parcels / (b.wall as number))} parcels/s), CPU ${(b.cpu as number).toFixed(0)} s, peak RSS ${gib(b.maxRss as number)}`,
    );
    print(`  on disk ${gib(bytes)} = ${(bytes / (b.parcels as number)).toFixed(1)} bytes per parcel`);
    county = b.county as typeof county;
    writeFileSync(countyFile, JSON.stringify(county));
  } else county = JSON.parse(readFileSync(countyFile, "utf8")) as typeof county;

  printServe("the directory", (await runPhase(["--phase", "serve"])) as unknown as ServeResult);

  if (!values["no-s3"]) {
    const s3dir = join(dir, "s3");
    rmSync(s3dir, { recursive: true, force: true });
    mkdirSync(s3dir, { recursive: true });
    const s3 = await startS3(s3dir);
    try {
      await s3.createBucket("situs-national");
      const location = "s3://situs-national/parcels";
      const upload = await uploadTo(openBlobStore(location, s3.env));
      print(
        `upload to s3rver: ${upload.files} files, ${gib(upload.bytes)} in ${upload.seconds.toFixed(0)} s`,
      );
      const served = await runPhase(["--phase", "serve", "--location", location], {
        ...process.env,
        ...s3.env,
      });
      printServe("S3 (s3rver on this machine)", served as unknown as ServeResult);
    } finally {
      await s3.close();
      rmSync(s3dir, { recursive: true, force: true });
    }
  }

  if (values["no-refresh"]) return;
  const file = join(dir, `county-${county.fips}.csv`);
  const rows = await writeCountyFile(county.fips, file);
  print(`county refresh: county ${county.fips}, ${county.parcels} parcels, its next file ${rows} rows`);
  let ready!: () => void;
  const watching = new Promise<void>((resolve) => (ready = resolve));
  const watcher = runPhase(
    ["--phase", "watch", "--refresh-county", county.splitId ?? ""],
    process.env,
    (line) => {
      if (line === "READY") ready();
    },
  );
  await watching;
  const r = await runPhase(["--phase", "refresh", "--refresh-county", file]);
  const seen = await watcher;
  print(
    `  ingest wall ${(r.seconds as number).toFixed(1)} s, CPU ${(r.cpu as number).toFixed(1)} s, peak RSS ${gib(r.maxRss as number)}`,
  );
  print(
    `  chunks written ${r.writtenChunks as number}, kept ${r.keptChunks as number}; bytes written ${((r.bytesWritten as number) / 2 ** 20).toFixed(1)} MiB of ${gib(r.bytes as number)}`,
  );
  print(
    `  a running index answered from the new build ${(((seen.seenAt as number) - (r.publishedAt as number)) / 1000).toFixed(2)} s after publishing (polling every 250 ms), without a restart`,
  );
}

switch (values.phase) {
  case "build":
    await buildPhase();
    break;
  case "serve":
    await servePhase();
    break;
  case "watch":
    await watchPhase(values["refresh-county"] ?? "");
    break;
  case "refresh":
    await refreshPhase(values["refresh-county"] ?? "");
    break;
  default:
    await main();
}
