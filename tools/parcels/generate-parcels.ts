import { parseArgs } from "node:util";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { nationalPlan, writeNationalCsv } from "../../src/parcels/demo/synthetic-national.js";

/**
 * `node dist/tools/parcels/generate-parcels.js --parcels 10000000 --zips 5000 --out parcels.csv`:
 * a deterministic synthetic national parcel file in the canonical layout, for `situs ingest`.
 */
const { values } = parseArgs({
  options: {
    parcels: { type: "string", default: "10000000" },
    zips: { type: "string", default: "5000" },
    out: { type: "string", default: "var/synthetic-parcels.csv" },
  },
});
const started = Date.now();
const plan = nationalPlan(nationalGazetteer(), Number(values.parcels), Number(values.zips));
const rows = await writeNationalCsv(values.out ?? "", plan);
process.stdout.write(
  `${rows} parcels in ${plan.length} ZIPs written to ${values.out} in ${(Date.now() - started) / 1000} s\n`,
);
