import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { temporaryDir, writeCanonical } from "../parcels/index-fixtures.js";

const situs = (...args: string[]): string =>
  execFileSync(process.execPath, [projectPath("bin", "situs"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

test("situs ingest, export and lookup work end to end on the command line", (t) => {
  const dir = temporaryDir(t);
  const index = join(dir, "index");
  const input = writeCanonical(join(dir, "parcels.csv"), [
    {
      apn: "1",
      fips: "06001",
      addressNumber: "10",
      streetName: "Main",
      streetSuffix: "Street",
      zip5: "94704",
      lat: "37.8",
      lon: "-122.2",
    },
    {
      apn: "2",
      fips: "06001",
      addressNumber: "12",
      streetName: "MAIN",
      streetSuffix: "ST",
      zip5: "94704-1234",
      lat: "x",
      lon: "y",
    },
  ]);
  const rejects = join(dir, "rejects.csv");
  const ingesting = spawnSync(
    process.execPath,
    [projectPath("bin", "situs"), "ingest", "--index", index, "--rejects", rejects, input],
    { encoding: "utf8" },
  );
  assert.equal(ingesting.status, 0, ingesting.stderr);
  assert.match(ingesting.stdout, /rows 2, rejected 1, parcels 1/);
  assert.match(
    ingesting.stderr,
    /situs ingest: 2 rows \(read 2\) in [\d.]+ s/,
    "the summary on standard error",
  );
  assert.equal(
    readFileSync(rejects, "utf8"),
    `kind,file,line,reason\nrejected,${input},3,"invalid coordinates ""x"", ""y"""\n`,
  );

  const exported = join(dir, "export.csv");
  const exporting = spawnSync(
    process.execPath,
    [projectPath("bin", "situs"), "export", "--index", `file://${index}`, "--output", exported],
    { encoding: "utf8" },
  );
  assert.equal(exporting.status, 0, exporting.stderr);
  assert.match(exporting.stderr, /^situs export: 1 rows \(parcels 1\) in [\d.]+ s, [\d,]+ rows\/s\n$/);
  const [header, row] = readFileSync(exported, "utf8").trim().split("\n");
  assert.ok(header?.endsWith(",service_id,building_id,status,superseded_by"));
  assert.match(
    row ?? "",
    /^1,06001,10,,,MAIN,ST,,,,BERKELEY,CA,94704,,37.8,-122.2,,adr_[0-9A-Z]{26},,active,$/,
  );

  const requests = join(dir, "requests.jsonl");
  writeFileSync(
    requests,
    '{"addressNumber":"10","streetName":"main","zip5":"94704"}\n{"streetName":"MAIN"}\n',
  );
  const answers = situs("lookup", "--index", index, "--input", requests)
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual([answers[0].row, answers[0].status], [1, "matched"]);
  assert.equal(answers[0].service_id, row?.split(",")[17]);
  assert.deepEqual([answers[1].row, answers[1].error], [2, "location_required"]);
});
