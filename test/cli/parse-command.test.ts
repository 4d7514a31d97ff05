import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { csvRows } from "./csv-output.js";

function situs(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [projectPath("bin", "situs"), ...args], {
    input,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("situs parse LINE prints the answer JSON", () => {
  const result = situs(["parse", "PO Box 0012, Anytown CA 90210"]);
  assert.equal(result.status, 0);
  const answer = JSON.parse(result.stdout);
  assert.equal(answer.type, "po_box");
  assert.deepEqual(answer.lines, ["PO BOX 12", "ANYTOWN CA  90210"]);
});

test("situs parse --input - writes one numbered JSON answer per line, blank lines too; over 256 characters refused", () => {
  const result = situs(
    ["parse", "--input", "-"],
    `123 Main St Springfield IL\n\nRR 2 Box 3\n${"9".repeat(300)}\n`,
  );
  assert.equal(result.status, 0);
  const answers = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    answers.map((answer) => [answer.row, answer.type ?? answer.error]),
    [
      [1, "street"],
      [2, "ambiguous"],
      [3, "rural_route"],
      [4, "line_too_long"],
    ],
  );
  assert.deepEqual(
    answers[1].warnings.map((warning: { code: string }) => warning.code),
    ["empty_input"],
  );
  assert.match(
    result.stderr,
    /situs parse: 4 rows \(street 1, ambiguous 1, rural_route 1, line_too_long 1\)/,
  );
});

test("situs parse --csv --column reads and writes CSV, quoted fields included", () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-csv-"));
  try {
    const file = join(dir, "in.csv");
    writeFileSync(file, 'id,address\n1,"123 Main St, Apt 4, Springfield IL 62701"\n2,General Delivery\n');
    const result = situs(["parse", "--input", file, "--csv", "--column", "address"]);
    assert.equal(result.status, 0);
    const [header, first, second] = result.stdout.trim().split("\n");
    assert.ok(header!.startsWith("id,address,row,type,addressNumber,"));
    assert.ok(first!.startsWith('1,"123 Main St, Apt 4, Springfield IL 62701",1,street,123,'));
    assert.ok(first!.includes("123 MAIN ST APT 4 | SPRINGFIELD IL  62701"));
    assert.ok(second!.startsWith("2,General Delivery,2,general_delivery,"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("situs parse --csv: one row per record after the header, blank and unreadable ones too", async () => {
  const input = [
    "\uFEFFid,address,note",
    '1,"10 Main St\nBerkeley, CA 94704",kept', // a quoted line break
    "",
    '2,"PO Box 12, Berkeley CA 94704"', // short
    '3,"12 Oak Ave, Berkeley CA 94704",x,y', // long
    `4,${"9".repeat(300)},long`,
    '4b,12 "B" St Berkeley CA 94704,inch', // quotes inside an unquoted field, taken as written
    '5,"99 Main St, Berkeley', // a quote never closed
  ].join("\r\n");
  const result = situs(["parse", "--input", "-", "--csv", "--column", "ADDRESS"], input);
  assert.equal(result.status, 1, result.stderr);
  assert.match(
    result.stderr,
    /3 records could not be read \(first: line 5 has 2 fields where the header has 3\)/,
  );
  const [header, ...rows] = csvRows(result.stdout);
  const column = (row: string[] | undefined, name: string) => row?.[header!.indexOf(name)];
  assert.deepEqual(header?.slice(0, 5), ["id", "address", "note", "row", "type"]);
  assert.deepEqual(
    rows.map((row) => [
      ...row.slice(0, 4),
      column(row, "type"),
      column(row, "warnings"),
      column(row, "error"),
    ]),
    [
      ["1", "10 Main St\nBerkeley, CA 94704", "kept", "1", "street", "", ""],
      ["", "", "", "2", "ambiguous", "empty_input", ""],
      ["", "", "", "3", "", "invalid_csv", "line 5 has 2 fields where the header has 3"],
      ["", "", "", "4", "", "invalid_csv", "line 6 has 4 fields where the header has 3"],
      ["4", "9".repeat(300), "long", "5", "", "line_too_long", ""],
      ["4b", '12 "B" St Berkeley CA 94704', "inch", "6", "street", "", ""],
      ["", "", "", "7", "", "invalid_csv", "the record starting on line 9 has a quote that is never closed"],
    ],
  );
  assert.ok(rows.every((row) => row.length === header!.length));
  const skipped = situs(["parse", "--input", "-", "--csv", "--column", "address", "--skip-bad-rows"], input);
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.equal(skipped.stdout, result.stdout);
});

test("situs parse refuses a .csv file given without --csv, naming what to add", () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-csv-"));
  try {
    const file = join(dir, "addresses.csv");
    writeFileSync(file, "id,address\n1,123 Main St\n");
    const result = situs(["parse", "--input", file]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /addresses\.csv looks like CSV: add --csv --column NAME/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("situs parse --csv refuses a header it cannot use and exits 2", () => {
  const missing = situs(["parse", "--input", "-", "--csv", "--column", "street"], "id,address\n1,x\n");
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no column "street" in the CSV header; its columns: id, address/);
  const open = situs(["parse", "--input", "-", "--csv", "--column", "id"], '"id,address\n1,x\n');
  assert.equal(open.status, 2);
  assert.match(open.stderr, /the CSV header has a quote that is never closed/);
});

test("situs parse with bad options explains itself and exits 2", () => {
  const result = situs(["parse", "--csv", "--input", "-"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--csv needs --input FILE and --column NAME/);
  const unknown = situs(["parse", "--colum", "address", "12 Main St"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown option '--colum'/);
  const flagWithoutValue = situs(["parse", "--input"]);
  assert.equal(flagWithoutValue.status, 2);
  assert.match(flagWithoutValue.stderr, /--input <value>' argument missing/);
});

test("situs parse --csv --delimiter reads another separator; --output writes a file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "situs-csv-"));
  try {
    const output = join(dir, "out.csv");
    const input = 'id;address\n1;"12 Elm St; rear, Boston MA 02108"\n2;PO Box 5 Boston MA 02108\n';
    const result = situs(
      ["parse", "--input", "-", "--csv", "--column", "address", "--delimiter", ";", "--output", output],
      input,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, "");
    const [header, ...rows] = csvRows(readFileSync(output, "utf8"));
    assert.deepEqual(header!.slice(0, 4), ["id", "address", "row", "type"]);
    assert.deepEqual(
      rows.map((row) => row.slice(0, 4)),
      [
        ["1", "12 Elm St; rear, Boston MA 02108", "1", "street"],
        ["2", "PO Box 5 Boston MA 02108", "2", "po_box"],
      ],
    );
    const bad = situs(["parse", "--input", "-", "--csv", "--column", "address", "--delimiter", ";;"], input);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--delimiter is one character/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
