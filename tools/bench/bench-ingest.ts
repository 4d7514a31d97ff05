/**
 * `npm run bench:ingest`: `situs ingest` end to end on one core (read, normalize, identities,
 * write, publish; no compression threads) over the same synthetic parcels written as canonical
 * CSV and as OpenAddresses GeoJSON-lines, alternating rounds. Prints rows per CPU-second of the
 * process (best and median), against the target of 200,000.
 *
 *   node dist/tools/bench/bench-ingest.js [--parcels 1000000] [--rounds 3] [--dir DIR] [--keep]
 * (`--keep` leaves the generated files in DIR)
 */
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import type { ColumnMapping } from "../../src/parcels/ingest/column-mapping.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import {
  nationalParcels,
  nationalPlan,
  writeNationalCsv,
} from "../../src/parcels/demo/synthetic-national.js";
import type { SyntheticParcel } from "../../src/parcels/demo/synthetic.js";

const TARGET = 200_000;
const { values } = parseArgs({
  options: {
    parcels: { type: "string", default: "1000000" },
    rounds: { type: "string", default: "3" },
    dir: { type: "string", default: "/tmp/situs-bench-ingest" },
    keep: { type: "boolean", default: false },
  },
});
const dir = values.dir ?? "/tmp/situs-bench-ingest";
const parcels = Number(values.parcels);
const rounds = Number(values.rounds);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

/** One synthetic parcel as an OpenAddresses GeoJSON-lines feature (its current per-source format). */
function featureLine(p: SyntheticParcel): string {
  const street = [p.predirectional, p.streetName, p.streetSuffix].filter(Boolean).join(" ");
  const properties = {
    id: p.apn,
    unit: p.occupancyId,
    number: p.addressNumber,
    street,
    city: p.city,
    // The county, as a FIPS code: one OpenAddresses file is one source, here one nation.
    district: p.fips,
    region: p.state,
    postcode: p.zip5,
    hash: "",
  };
  const geometry = p.lat === null ? null : { type: "Point", coordinates: [p.lon, p.lat] };
  return JSON.stringify({ type: "Feature", properties, geometry });
}

async function writeGeojsonLines(file: string, plan: ReturnType<typeof nationalPlan>): Promise<void> {
  const out = createWriteStream(file);
  for (const [, generated] of nationalParcels(plan)) {
    if (!out.write(`${generated.map(featureLine).join("\n")}\n`)) await once(out, "drain");
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

const plan = nationalPlan(nationalGazetteer(), parcels, Math.max(1, Math.round(parcels / 2000)));
const csv = join(dir, "parcels.csv");
const geojsonl = join(dir, "parcels.geojsonl");
await writeNationalCsv(csv, plan);
await writeGeojsonLines(geojsonl, plan);
const OPENADDRESSES_GEOJSON: ColumnMapping = {
  columns: {
    apn: "id",
    addressNumber: "number",
    street: "street",
    occupancyId: "unit",
    city: "city",
    state: "region",
    zip5: "postcode",
    fips: "district",
  },
};

const inputs = {
  csv: { file: csv, mapping: CANONICAL_MAPPING },
  geojsonl: { file: geojsonl, mapping: OPENADDRESSES_GEOJSON },
} as const;
const kinds = (process.env.BENCH_INGEST_KINDS ?? "csv,geojsonl").split(",") as Array<keyof typeof inputs>;
const rates: Record<keyof typeof inputs, number[]> = { csv: [], geojsonl: [] };
for (let round = 0; round < rounds; round++) {
  for (const kind of kinds) {
    const store = new LocalBlobStore(join(dir, `index-${kind}-${round}`));
    const cpu = process.cpuUsage();
    const report = await ingest({ store, inputs: [inputs[kind]], sealWorkers: 0 });
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    rates[kind].push(report.rows / seconds);
    process.stdout.write(
      `round ${round + 1} ${kind.padEnd(8)} ${report.rows} rows (${report.rejected} rejected) in ${seconds.toFixed(2)} CPU s = ${Math.round(report.rows / seconds)} rows per CPU-second\n`,
    );
    rmSync(join(dir, `index-${kind}-${round}`), { recursive: true, force: true });
  }
}
for (const [kind, list] of Object.entries(rates).filter(([, list]) => list.length > 0)) {
  const sorted = [...list].sort((a, b) => b - a);
  const best = Math.round(sorted[0] ?? 0);
  const median = Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
  process.stdout.write(
    `${kind}: best ${best}, median ${median} rows per CPU-second on one thread (target ${TARGET}: ${median >= TARGET ? "met" : "missed"})\n`,
  );
}
if (!values.keep) rmSync(dir, { recursive: true, force: true });
