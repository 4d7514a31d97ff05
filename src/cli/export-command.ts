import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { ByteLru } from "../parcels/store/chunk-cache.js";
import { exportLines } from "../parcels/ingest/export.js";
import { IndexBuild } from "../parcels/store/index-build.js";
import { openBlobStore } from "../parcels/store/open-blob-store.js";
import { s3Environment } from "./index-location.js";
import { BulkProgress } from "./progress.js";

export const USAGE = `Usage: situs export --index DIR|file:///DIR|s3://BUCKET/PREFIX [--output FILE|-]

Writes every parcel of the index's current build, with its IDs, as CSV (to FILE or standard output),
with progress and a summary on standard error.
`;

/** `situs export --index DIR [--output FILE]`: every parcel of the current build as CSV. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { index: { type: "string" }, output: { type: "string" } } });
  if (!values.index) {
    process.stderr.write(USAGE);
    return 2;
  }
  const build = await IndexBuild.openCurrent(
    openBlobStore(values.index, s3Environment()),
    new ByteLru(64 << 20),
  );
  if (!build) throw new Error(`no published build in ${values.index}`);
  const out = values.output && values.output !== "-" ? createWriteStream(values.output) : process.stdout;
  const progress = new BulkProgress("situs export", undefined);
  let header = true;
  for await (const line of exportLines(build)) {
    if (!out.write(`${line}\n`)) await once(out, "drain");
    if (header) header = false;
    else progress.row("parcels");
    progress.update();
  }
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(() => resolve()));
  progress.done();
  return 0;
}
