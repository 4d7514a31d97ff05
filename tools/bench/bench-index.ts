import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { encodeUlid } from "../../src/parcels/format/binary-ulid.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { idShardRefs } from "../../src/parcels/format/manifest.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { nationalPlan, writeNationalCsv } from "../../src/parcels/demo/synthetic-national.js";
import { buildSyntheticIndex } from "../parcels/synthetic-index.js";

/**
 * Parcel index benchmarks (the targets of README "Parcel index and lookup"), printing figures:
 *   node dist/tools/bench/bench-index.js --parcels 10000000 --zips 5000 --ingest-parcels 1000000
 * 1. national build straight from the generator (identities, buildings, chunks, ID directory);
 * 2. bytes per parcel on disk, and decoded in memory for the largest chunk;
 * 3. cold read of the largest chunk (store read, checksums, inflate, decode) with an empty cache;
 * 4. lookup by ID, warm: p50/p99 over random IDs of the whole index;
 * 5. `situs ingest` end to end on a generated canonical CSV (read, normalize, identities, write, publish).
 */
const { values } = parseArgs({
  options: {
    parcels: { type: "string", default: "1000000" },
    zips: { type: "string", default: "1000" },
    "ingest-parcels": { type: "string", default: "200000" },
    dir: { type: "string", default: "/tmp/situs-bench" },
  },
});
const dir = values.dir ?? "/tmp/situs-bench";
rmSync(dir, { recursive: true, force: true });
const print = (line: string): boolean => process.stdout.write(`${line}\n`);
const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;

/**
 * Seconds the main thread has spent runnable but waiting for a CPU (Linux schedstat, field 2 of
 * /proc/thread-self/schedstat): on a shared machine, the part of the wall time that went to other
 * processes. Undefined where schedstat is unavailable.
 */
function runQueueSeconds(): number | undefined {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[1]) / 1e9;
  } catch {
    return undefined;
  }
}

function waitedSince(start: number | undefined): string {
  const now = runQueueSeconds();
  return now === undefined || start === undefined
    ? ""
    : `, main thread waiting for a CPU ${(now - start).toFixed(1)} s`;
}

/** CPU seconds (user + system) of this process since `start`: the machine is shared, wall time is not ours. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function nationalBuild(store: LocalBlobStore): Promise<string[]> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const waited = runQueueSeconds();
  const sample: string[] = [];
  const manifest = await buildSyntheticIndex(
    store,
    Number(values.parcels),
    Number(values.zips),
    (entry, i) => {
      if (i % 211 === 0) sample.push(`adr_${encodeUlid(entry.id)}`);
    },
  );
  const elapsed = seconds(started);
  const bytes =
    manifest.chunks.reduce((s, c) => s + c.bytes, 0) +
    idShardRefs(manifest).reduce((s, c) => s + c.bytes, 0) +
    manifest.streets.bytes;
  const parcels = manifest.counts.parcels;
  print(
    `national build: ${parcels} parcels, ${manifest.chunks.length} chunks, ${idShardRefs(manifest).length} ID shards, ${manifest.counts.buildings} buildings`,
  );
  print(
    `  wall ${elapsed.toFixed(1)} s (${Math.round(parcels / elapsed)} parcels/s), CPU ${cpuSince(cpu).toFixed(1)} s${waitedSince(waited)}`,
  );
  print(`  on disk: ${bytes} bytes = ${(bytes / parcels).toFixed(1)} bytes/parcel`);
  return sample;
}

async function coldRead(store: LocalBlobStore): Promise<void> {
  const probe = (await IndexBuild.openCurrent(store, new ByteLru(1 << 30)))!;
  const largest = probe.manifest.chunks.reduce((best, c, i, all) => (c.rows > all[best]!.rows ? i : best), 0);
  const times: number[] = [];
  let decodedBytes = 0;
  for (let run = 0; run < 15; run++) {
    const build = (await IndexBuild.openCurrent(store, new ByteLru(1 << 30)))!;
    const started = process.hrtime.bigint();
    const chunk = await build.chunk(largest);
    chunk.streets();
    times.push(seconds(started) * 1000);
    decodedBytes = chunk.bytes / chunk.rows;
  }
  times.sort((a, b) => a - b);
  const ref = probe.manifest.chunks[largest]!;
  print(
    `largest chunk ${ref.key}: ${ref.rows} rows, ${ref.bytes} bytes on disk, ${decodedBytes.toFixed(1)} bytes/parcel decoded`,
  );
  print(
    `  cold read (fetch + CRC + inflate + decode), 15 runs: median ${times[7]!.toFixed(2)} ms, max ${times[14]!.toFixed(2)} ms`,
  );
}

async function lookupById(store: LocalBlobStore, sample: string[]): Promise<void> {
  const index = await StoredParcelIndex.open(store, { cacheBytes: 8 * 2 ** 30, refreshMs: 0 });
  let started = process.hrtime.bigint();
  for (const id of sample) if (!(await index.findById(id)).result) throw new Error(`${id} not found`);
  print(
    `lookup by ID: warmed ${sample.length} IDs in ${seconds(started).toFixed(1)} s; cache ${(index.cache.usedBytes / 2 ** 20).toFixed(0)} MiB`,
  );
  const latencies = new Float64Array(100_000);
  for (let i = 0; i < latencies.length; i++) {
    const id = sample[(i * 7919) % sample.length]!;
    started = process.hrtime.bigint();
    await index.findById(id);
    latencies[i] = seconds(started) * 1e6;
  }
  latencies.sort();
  const at = (q: number): string => latencies[Math.floor(q * (latencies.length - 1))]!.toFixed(1);
  print(`  warm, ${latencies.length} lookups: p50 ${at(0.5)} µs, p99 ${at(0.99)} µs, max ${at(1)} µs`);
  index.close();
}

async function ingestEndToEnd(): Promise<void> {
  const count = Number(values["ingest-parcels"]);
  const file = join(dir, "ingest.csv");
  await writeNationalCsv(
    file,
    nationalPlan(nationalGazetteer(), count, Math.max(1, Math.round(count / 2000))),
  );
  const cpu = process.cpuUsage();
  const waited = runQueueSeconds();
  const report = await ingest({
    store: new LocalBlobStore(join(dir, "ingested")),
    inputs: [{ file, mapping: CANONICAL_MAPPING }],
    // The target is throughput on one core: everything on the main thread.
    sealWorkers: 0,
  });
  print(
    `ingest end to end (one thread): ${report.rows} rows, ${report.rejected} rejected, ${report.chunks} chunks`,
  );
  const cpuSeconds = cpuSince(cpu);
  print(
    `  wall ${report.seconds.toFixed(2)} s = ${Math.round(report.rows / report.seconds)} parcels/s${waitedSince(waited)}`,
  );
  print(
    `  phases (CPU s): ${JSON.stringify(report.phases, (_k, v: unknown) => (typeof v === "number" ? Number(v.toFixed(2)) : v))}`,
  );
  print(`  CPU ${cpuSeconds.toFixed(2)} s = ${Math.round(report.rows / cpuSeconds)} parcels per CPU-second`);
}

const store = new LocalBlobStore(join(dir, "national"));
const sample = await nationalBuild(store);
await coldRead(store);
await lookupById(store, sample);
await ingestEndToEnd();
