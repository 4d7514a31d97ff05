import { createWriteStream, existsSync } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { openSource } from "../../src/parcels/sources/open-source.js";
import { SeededRandom } from "../seeded-random.js";

/**
 * The GeoJSON-lines reader alone, on a generated file of OpenAddresses-style lines (the format of
 * OpenAddresses' per-source output), printing lines per CPU-second:
 *   npm run bench:geojsonl -- [--lines 1000000] [--file /tmp/situs-oa.geojson]
 * The target is 1,000,000 lines per CPU-second on one core, so that the reader takes at most a
 * fifth of ingest's budget of 200,000 rows per CPU-second.
 */
const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "1000000" },
    file: { type: "string", default: "/tmp/situs-oa-bench.geojson" },
  },
});
const lines = Number(values.lines);
const file = values.file ?? "/tmp/situs-oa-bench.geojson";

const STREETS = ["MAIN ST", "OAK AVE", "WALNUT AVE E", "STATE RD", "N 800 EAST", "PARK PLACE DR", "ELM CT"];
const CITIES = ["BENSALEM", "LEVITTOWN", "DOYLESTOWN", "", "NEWTOWN"];

/** One OpenAddresses GeoJSON-lines feature, in their key order (id, unit, number, street, …, hash). */
function featureLine(random: SeededRandom, i: number): string {
  const unit = random.next() < 0.1 ? String(1 + Math.floor(random.next() * 40)) : "";
  const properties = {
    id: random.next() < 0.5 ? `${100 + (i % 900)}-${String(i).padStart(7, "0")}` : "",
    unit,
    number: String(1 + Math.floor(random.next() * 9999)),
    street: STREETS[Math.floor(random.next() * STREETS.length)],
    city: CITIES[Math.floor(random.next() * CITIES.length)],
    district: "",
    region: "PA",
    postcode: String(19000 + Math.floor(random.next() * 100)),
    hash: Math.floor(random.next() * 2 ** 52)
      .toString(16)
      .padStart(16, "0"),
  };
  const lon = -75.5 + random.next();
  const lat = 40 + random.next();
  const geometry = { type: "Point", coordinates: [Number(lon.toFixed(7)), Number(lat.toFixed(7))] };
  return JSON.stringify({ type: "Feature", properties, geometry });
}

async function generate(): Promise<void> {
  const random = new SeededRandom(42);
  const out = createWriteStream(file);
  const block: string[] = [];
  for (let i = 0; i < lines; i++) {
    block.push(featureLine(random, i));
    if (block.length === 10_000 || i === lines - 1) {
      if (!out.write(`${block.join("\n")}\n`)) await once(out, "drain");
      block.length = 0;
    }
  }
  out.end();
  await once(out, "finish");
}

if (!existsSync(file)) await generate();
const started = process.cpuUsage();
const wall = process.hrtime.bigint();
const source = await openSource(file);
let count = 0;
let withPoint = 0;
for await (const batch of source.batches()) {
  for (const record of batch) {
    count++;
    if (record.point) withPoint++;
  }
}
const cpu = process.cpuUsage(started);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const wallSeconds = Number(process.hrtime.bigint() - wall) / 1e9;
process.stdout.write(
  `${source.format} ${file}: ${count.toLocaleString("en-US")} lines (${withPoint.toLocaleString("en-US")} with a point), ` +
    `${cpuSeconds.toFixed(2)} CPU s, ${wallSeconds.toFixed(2)} s wall, ` +
    `${Math.round(count / cpuSeconds).toLocaleString("en-US")} lines per CPU-second\n`,
);
