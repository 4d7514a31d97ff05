import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { temporaryDir, writeCanonical } from "../parcels/index-fixtures.js";

const situs = (...args: string[]) =>
  spawnSync(process.execPath, [projectPath("bin", "situs"), ...args], { encoding: "utf8" });

test("situs ingest --replace-fips and situs remove --fips keep the other counties", (t) => {
  const dir = temporaryDir(t);
  const index = join(dir, "index");
  const county = (fips: string, zip5: string, apn: string) =>
    writeCanonical(join(dir, `${fips}.csv`), [
      { apn, fips, addressNumber: "1", streetName: "MAIN", streetSuffix: "ST", zip5 },
    ]);
  assert.equal(situs("ingest", "--index", index, county("06001", "94704", "A-1")).status, 0);
  const second = situs("ingest", "--index", index, county("06075", "94102", "B-1"));
  assert.match(second.stdout, /counties replaced: 06075; chunks: 1 written, 1 kept/);
  const refused = situs(
    "ingest",
    "--index",
    index,
    "--replace-fips",
    "6001",
    county("06075", "94102", "B-1"),
  );
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /"6001" is no 5-digit county FIPS code/);

  const removed = situs("remove", "--index", index, "--fips", "06001");
  assert.equal(removed.status, 0, removed.stderr);
  assert.match(removed.stdout, /counties replaced: 06001; chunks: 0 written, 1 kept/);
  const exported = join(dir, "export.csv");
  execFileSync(process.execPath, [
    projectPath("bin", "situs"),
    "export",
    "--index",
    index,
    "--output",
    exported,
  ]);
  const rows = readFileSync(exported, "utf8").trim().split("\n").slice(1);
  assert.deepEqual(
    rows.map((row) => row.split(",")[0]),
    ["B-1"],
  );
  const again = situs("remove", "--index", index, "--fips", "06001");
  assert.equal(again.status, 1);
  assert.match(again.stderr, /holds no parcels of county 06001/);
});
