import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ANSWER_COLUMNS } from "../../src/cli/lookup-formats.js";
import { PARSED_COLUMNS } from "../../src/cli/parsed-columns.js";
import { run } from "../../src/cli/lookup-command.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { projectPath } from "../../src/paths.js";
import { exportedRows, temporaryDir, writeCanonical } from "../parcels/index-fixtures.js";
import { csvRows } from "./csv-output.js";

/** A two-parcel index in Berkeley, and the service ID of each address. */
async function tinyIndex(dir: string): Promise<{ index: string; ids: Map<string, string> }> {
  const index = join(dir, "index");
  const place = { fips: "06001", city: "BERKELEY", state: "CA", zip5: "94704", lat: "37.8", lon: "-122.2" };
  const file = writeCanonical(join(dir, "parcels.csv"), [
    { ...place, apn: "1", addressNumber: "10", streetName: "MAIN", streetSuffix: "ST" },
    { ...place, apn: "2", addressNumber: "12", streetName: "OAK", streetSuffix: "AVE" },
  ]);
  const store = new LocalBlobStore(index);
  await ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }] });
  const rows = await exportedRows(store);
  return {
    index,
    ids: new Map(rows.map((row) => [`${row.addressNumber} ${row.streetName}`, row.service_id])),
  };
}

function situs(args: string[], input: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [projectPath("bin", "situs"), ...args], {
    input,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs the command in-process with its answers written to a file; the exit code and the file. */
async function lookup(dir: string, args: string[]): Promise<[number, string]> {
  const output = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const code = await run([...args, "--output", output]);
  return [code, existsSync(output) ? readFileSync(output, "utf8") : ""];
}

const LINES = [
  "10 Main St, Berkeley, CA 94704",
  "",
  "PO Box 12, Berkeley CA 94704",
  "12 oak avenue berkeley ca 94704",
  "101, Springfield, MA 01101",
  "   ",
  "99 Main St, Berkeley CA 94704",
  `${"9".repeat(250)} Main St, Berkeley CA 94704`,
];

test("situs lookup --lines: one answer per line in order, blank lines too, with what was read", async (t) => {
  const dir = temporaryDir(t);
  const { index, ids } = await tinyIndex(dir);
  const file = join(dir, "lines.txt");
  writeFileSync(file, `\uFEFF${LINES.join("\r\n")}`); // a BOM, CRLF, no final newline
  const [code, out] = await lookup(dir, ["--index", index, "--lines", file]);
  assert.equal(code, 0);
  const answers = jsonLines(out);
  assert.deepEqual(
    answers.map((answer) => [answer.row, answer.input, answer.status ?? answer.error]),
    [
      [1, LINES[0], "matched"],
      [2, "", "invalid_json"],
      [3, LINES[2], "unsupported_type"],
      [4, LINES[3], "matched"],
      [5, LINES[4], "street_required"],
      [6, "   ", "invalid_json"],
      [7, LINES[6], "not_found"],
      [8, LINES[7], "line_too_long"],
    ],
  );
  const [first, blank, poBox, oak] = answers;
  assert.equal(first?.service_id, ids.get("10 MAIN"));
  assert.equal(oak?.service_id, ids.get("12 OAK"));
  assert.deepEqual(first?.components, {
    addressNumber: "10",
    streetName: "MAIN",
    streetSuffix: "ST",
    city: "BERKELEY",
    state: "CA",
    zip5: "94704",
  });
  // The answers the API gives: an empty body, and a PO box parse answer sent to lookup.
  assert.deepEqual(blank, {
    row: 2,
    input: "",
    error: "invalid_json",
    message: "The request body must be JSON; it is empty.",
  });
  assert.equal(poBox?.type, "po_box");
  assert.equal(answers[7]?.max, 256);
  assert.equal((poBox?.components as Record<string, string>).poBoxId, "12");
});

const ADDRESS_CSV = [
  "\uFEFFid,address,note",
  '1,"10 Main St\nBerkeley, CA 94704",kept', // a quoted line break
  "",
  '2,"PO Box 12, Berkeley CA 94704"', // short
  '3,"12 Oak Ave, Berkeley CA 94704",x,y', // long
  '4,"12 Oak Ave, Berkeley CA 94704","say ""hi"""',
  "5,,empty address",
  '6,"99 Main St, Berkeley', // a quote never closed
].join("\r\n");

test("situs lookup --input CSV --column: CSV out with every input column, row numbers count records", async (t) => {
  const dir = temporaryDir(t);
  const { index, ids } = await tinyIndex(dir);
  const file = join(dir, "addresses.csv");
  writeFileSync(file, ADDRESS_CSV);
  const [code, out] = await lookup(dir, ["--index", index, "--input", file, "--column", "address"]);
  assert.equal(code, 1, "records that could not be read fail the run");
  const [skipped, same] = await lookup(dir, [
    "--index",
    index,
    "--input",
    file,
    "--column",
    "ADDRESS",
    "--skip-bad-rows",
  ]);
  assert.deepEqual([skipped, same], [0, out]);
  const [header, ...rows] = csvRows(out);
  assert.deepEqual(header, ["id", "address", "note", "row", ...PARSED_COLUMNS, ...ANSWER_COLUMNS]);
  const column = (row: string[] | undefined, name: string) => row?.[header!.indexOf(name)];
  assert.deepEqual(
    rows.map((row) => [...row.slice(0, 4), column(row, "status"), column(row, "error")]),
    [
      ["1", "10 Main St\nBerkeley, CA 94704", "kept", "1", "matched", ""],
      ["", "", "", "2", "", "invalid_json"],
      ["", "", "", "3", "", "invalid_csv"],
      ["", "", "", "4", "", "invalid_csv"],
      ["4", "12 Oak Ave, Berkeley CA 94704", 'say "hi"', "5", "matched", ""],
      ["5", "", "empty address", "6", "", "invalid_json"],
      ["", "", "", "7", "", "invalid_csv"],
    ],
  );
  assert.equal(column(rows[0], "service_id"), ids.get("10 MAIN"));
  assert.deepEqual(
    ["type", "addressNumber", "streetName", "city", "zip5", "matchConfidence", "candidates"].map((name) =>
      column(rows[0], name),
    ),
    ["street", "10", "MAIN", "BERKELEY", "94704", "1", "0"],
  );
  assert.deepEqual(
    [3, 4, 7].map((row) => column(rows[row - 1], "message")),
    [
      "Row 3: line 5 has 2 fields where the header has 3.",
      "Row 4: line 6 has 4 fields where the header has 3.",
      "Row 7: the record starting on line 9 has a quote that is never closed.",
    ],
  );

  const [, jsonl] = await lookup(dir, [
    "--index",
    index,
    "--input",
    file,
    "--column",
    "address",
    "--output-format",
    "jsonl",
  ]);
  const answers = jsonLines(jsonl);
  assert.deepEqual(
    answers.map((answer) => [answer.row, answer.status ?? answer.error]),
    [
      [1, "matched"],
      [2, "invalid_json"],
      [3, "invalid_csv"],
      [4, "invalid_csv"],
      [5, "matched"],
      [6, "invalid_json"],
      [7, "invalid_csv"],
    ],
  );
  assert.equal(answers[0]?.input, "10 Main St\nBerkeley, CA 94704");
  assert.equal((answers[0]?.components as Record<string, string>).streetName, "MAIN");
});

test("situs lookup --input CSV of components and JSON lines: one answer per row, blank lines too", async (t) => {
  const dir = temporaryDir(t);
  const { index, ids } = await tinyIndex(dir);
  const csv = join(dir, "components.csv");
  writeFileSync(csv, "ref,addressNumber,streetName,zip5\na,10,main,94704\n\nb,12,OAK,\nc,12,oak,94704\n");
  const [code, out] = await lookup(dir, ["--index", index, "--input", csv]);
  assert.equal(code, 0);
  const [header, ...rows] = csvRows(out);
  assert.deepEqual(header, ["ref", "addressNumber", "streetName", "zip5", "row", ...ANSWER_COLUMNS]);
  const at = (name: string) => header!.indexOf(name);
  assert.deepEqual(
    rows.map((row) => [row[0], row[at("row")], row[at("status")] || row[at("error")], row[at("service_id")]]),
    [
      ["a", "1", "matched", ids.get("10 MAIN")],
      ["", "2", "invalid_json", ""],
      ["b", "3", "location_required", ""],
      ["c", "4", "matched", ids.get("12 OAK")],
    ],
  );

  const jsonl = join(dir, "requests.jsonl");
  writeFileSync(jsonl, '{"addressNumber":"10","streetName":"main","zip5":"94704"}\n\n{"type":"po_box"}\n{\n');
  const [, answers] = await lookup(dir, ["--index", index, "--input", jsonl]);
  assert.deepEqual(
    jsonLines(answers).map((answer) => [answer.row, answer.status ?? answer.error]),
    [
      [1, "matched"],
      [2, "invalid_json"],
      [3, "unsupported_type"],
      [4, "invalid_json"],
    ],
  );
});

test("situs lookup reads stdin: --lines - and --input - --csv", async (t) => {
  const dir = temporaryDir(t);
  const { index, ids } = await tinyIndex(dir);
  const lines = situs(["lookup", "--index", index, "--lines", "-"], "12 Oak Ave Berkeley CA 94704\n\n");
  assert.equal(lines.status, 0, lines.stderr);
  assert.deepEqual(
    jsonLines(lines.stdout).map((answer) => [answer.row, answer.service_id ?? answer.error]),
    [
      [1, ids.get("12 OAK")],
      [2, "invalid_json"],
    ],
  );
  const csv = situs(
    ["lookup", "--index", index, "--input", "-", "--csv"],
    "streetName,zip5,addressNumber\nOAK,94704,12\n",
  );
  assert.equal(csv.status, 0, csv.stderr);
  const [header, first] = csvRows(csv.stdout);
  assert.deepEqual(header?.slice(0, 5), ["streetName", "zip5", "addressNumber", "row", "status"]);
  assert.deepEqual(first?.slice(0, 6), ["OAK", "94704", "12", "1", "matched", ids.get("12 OAK")]);
});

/** Runs the command in-process with what it writes to stderr captured. */
async function runCapturingStderr(args: string[]): Promise<[number, string]> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = "";
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    return [await run(args), stderr];
  } finally {
    process.stderr.write = write;
  }
}

test("situs lookup refuses bad arguments with exit 2, and names the columns when --column is missing", async (t) => {
  const dir = temporaryDir(t);
  const { index } = await tinyIndex(dir);
  const csv = join(dir, "a.csv");
  writeFileSync(csv, "id,street address\n1,10 Main St\n");
  const jsonl = join(dir, "a.jsonl");
  writeFileSync(jsonl, "{}\n");
  for (const args of [
    ["--lines", jsonl],
    ["--index", index],
    ["--index", index, "--lines", jsonl, "--input", jsonl],
    ["--index", index, "--input", jsonl, "--column", "address"],
    ["--index", index, "--lines", jsonl, "--csv"],
    ["--index", index, "--input", csv, "--output-format", "xml"],
    ["--index", index, "--input", join(dir, "missing.csv")],
    ["--index", index, "--input", csv, "--bogus"],
    ["--index", index, "--input", csv, "extra"],
  ]) {
    const [code, stderr] = await runCapturingStderr(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, /^situs lookup: .+\n\nUsage:/, args.join(" "));
  }
  const output = join(dir, "out.csv");
  const [code, stderr] = await runCapturingStderr([
    "--index",
    index,
    "--input",
    csv,
    "--column",
    "address",
    "--output",
    output,
  ]);
  assert.equal(code, 2);
  assert.equal(
    stderr,
    'situs lookup: no column "address" in the CSV header; its columns: id, street address\n',
  );
  assert.equal(existsSync(output), false, "no output is begun");
});
