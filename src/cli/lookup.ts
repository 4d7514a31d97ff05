import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ApiError } from "../errors.js";
import { readLookupRequest } from "../http/routes/lookup.js";
import { splitCsvLine } from "../parcels/csv.js";
import { openBlobStore } from "../parcels/open-blob-store.js";
import { StoredParcelIndex } from "../parcels/stored-parcel-index.js";
import { ServerTiming } from "../timing.js";
import { s3Environment } from "./index-location.js";

const USAGE = `Usage: situs lookup --index DIR|s3://BUCKET/PREFIX --input FILE [--output FILE]

Looks up many addresses at once. FILE holds JSON lookup requests one a line (a parse answer or
bare components, as POST /v1/verify/lookup takes), or, when it ends in .csv, a header of component
names (addressNumber, streetName, streetSuffix, occupancyId, city, state, zip5 …) and one address
a line. Writes one JSON answer a line, in input order; a request the API would refuse gives
{"line": N, "error": code, "message": …}.
`;

/** `situs lookup`: the bulk form of POST /v1/verify/lookup over a local or S3 index. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      index: { type: "string" },
      input: { type: "string" },
      output: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.index || !values.input) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  const index = await StoredParcelIndex.open(openBlobStore(values.index, s3Environment()), {
    cacheBytes: 1 << 30,
    refreshMs: 0,
  });
  const out = values.output ? createWriteStream(values.output) : process.stdout;
  const tty = process.stderr.isTTY;
  let count = 0;
  for await (const [line, body] of requests(values.input)) {
    const answer = await answerOne(index, line, body);
    if (!out.write(`${JSON.stringify(answer)}\n`)) await once(out, "drain");
    if (tty && ++count % 10_000 === 0) process.stderr.write(`\r${count.toLocaleString("en-US")} lookups`);
  }
  if (tty) process.stderr.write(`\r${count.toLocaleString("en-US")} lookups\n`);
  index.close();
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(() => resolve()));
  return 0;
}

async function answerOne(index: StoredParcelIndex, line: number, body: unknown): Promise<unknown> {
  try {
    const result = await index.lookup(readLookupRequest(body), new ServerTiming());
    if ("error" in result) {
      return {
        line,
        error: "location_required",
        message: `The city exists in ${result.states} states.`,
        states: result.states,
      };
    }
    return result;
  } catch (error) {
    if (error instanceof ApiError) return { line, ...error.toBody() };
    throw error;
  }
}

/** The requests of a JSON-lines or CSV file, with their line numbers. */
async function* requests(file: string): AsyncGenerator<[number, unknown]> {
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  const csv = file.toLowerCase().endsWith(".csv");
  let header: string[] | undefined;
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === "") continue;
    if (!csv) {
      yield [number, Buffer.from(text)];
      continue;
    }
    const fields = splitCsvLine(text);
    if (!header) {
      header = fields.map((name) => name.trim());
      continue;
    }
    const components = Object.fromEntries(
      header.flatMap((name, i) => (fields[i] ? [[name, fields[i]]] : [])),
    );
    yield [number, Buffer.from(JSON.stringify(components))];
  }
}
