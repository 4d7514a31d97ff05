import { parseArgs } from "node:util";
import { removeCounties } from "../parcels/ingest/ingest.js";
import { openBlobStore } from "../parcels/store/open-blob-store.js";
import { describeBuild, readCounties } from "./ingest-command.js";
import { s3Environment } from "./index-location.js";

export const USAGE = `Usage: situs remove --index DIR|file:///DIR|s3://BUCKET/PREFIX --fips F[,F...]

Publishes a new build without the parcels of these counties (active, superseded and retired: their
IDs no longer answer). Every other county is kept as it was; only chunks holding a removed county
are rewritten.
`;

/** `situs remove`: drops counties from an index. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      index: { type: "string" },
      fips: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.index || !values.fips) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  const counties = readCounties(values.fips);
  if (typeof counties === "string") {
    process.stderr.write(`situs remove: ${counties}\n`);
    return 2;
  }
  const report = await removeCounties({ store: openBlobStore(values.index, s3Environment()), counties });
  process.stdout.write(
    `${[
      ...describeBuild(report),
      `build: ${report.counts.parcels} parcels (${report.counts.active} active), ${report.chunks} chunks`,
    ].join("\n")}\n`,
  );
  return 0;
}
