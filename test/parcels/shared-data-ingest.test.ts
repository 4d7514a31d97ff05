import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { OPENADDRESSES_MAPPING, parseMapping } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { COUNTY_MAPPING, exportedRows, SHARED_PARCELS, temporaryDir } from "./index-fixtures.js";

const skip = existsSync(SHARED_PARCELS) ? false : "needs ../shared/data (absent)";
const COUNTY_FILES = [
  "alameda_county_spad_situs.csv",
  "berkeley_parcels.csv",
  "oakland_parcels_2013_centroids.csv",
  "utah_sevier_address_points.csv",
];

test("every shared parcel file ingests: counts, rejects and records", { skip }, async (t) => {
  const store = new LocalBlobStore(temporaryDir(t));
  const mapping = parseMapping(JSON.parse(readFileSync(COUNTY_MAPPING, "utf8")));
  const report = await ingest({
    store,
    inputs: [
      ...COUNTY_FILES.map((name) => ({ file: join(SHARED_PARCELS, name), mapping })),
      // Kodiak Island Borough, AK (FIPS 02150) has no FIPS, city or ZIP columns.
      {
        file: join(SHARED_PARCELS, "kodiak_island_borough.csv"),
        mapping: { ...OPENADDRESSES_MAPPING, constants: { fips: "02150", state: "AK" } },
      },
    ],
  });
  const byName = Object.fromEntries(report.files.map((f) => [f.file.split("/").pop() ?? "", f] as const));
  assert.deepEqual(
    Object.fromEntries(Object.entries(byName).map(([name, f]) => [name, [f.rows, f.accepted, f.rejected]])),
    {
      "alameda_county_spad_situs.csv": [2849, 2806, 43],
      "berkeley_parcels.csv": [746, 746, 0],
      "oakland_parcels_2013_centroids.csv": [2241, 2238, 3],
      "utah_sevier_address_points.csv": [91, 91, 0],
      "kodiak_island_borough.csv": [4473, 4337, 136],
    },
  );
  assert.equal(report.rejected, report.rejects.length);
  for (const reject of report.rejects)
    assert.ok(reject.file && reject.line > 1 && reject.reason, JSON.stringify(reject));
  // Oakland's rows of APN 2-102-23 (three) and 2-97-33 (two) are one parcel each; the repeats are
  // reported, not dropped silently.
  const oakland = report.rejects.filter((r) => r.file.endsWith("oakland_parcels_2013_centroids.csv"));
  assert.deepEqual(oakland.map((r) => r.line).sort(), [1958, 924, 974]);
  assert.match(oakland[0]!.reason, /duplicate of line 838/);
  // Kodiak: 21 rows have no street (and no APN); 115 repeat an address at another point.
  const kodiak = report.rejects.filter((r) => r.file.endsWith("kodiak_island_borough.csv"));
  assert.equal(kodiak.filter((r) => r.reason === "no APN and no street address").length, 21);
  assert.equal(kodiak.filter((r) => r.reason.startsWith("same address as line")).length, 115);

  const rows = await exportedRows(store);
  assert.equal(rows.length, report.rows - report.rejected);
  const parcelIds = new Set(rows.map((r) => r.service_id));
  assert.equal(parcelIds.size, report.parcels);

  // Alameda: one APN with its apartments as further addresses is one parcel, not a building.
  const bellevue = rows.filter((r) => r.apn === "10-767-167");
  assert.ok(bellevue.length > 100);
  assert.equal(new Set(bellevue.map((r) => r.service_id)).size, 1);
  assert.ok(bellevue.every((r) => r.building_id === "" && r.streetSuffix === "AVE"));
  // Berkeley: condo unit parcels at 1849 Shattuck form a building with the unitless parcel as its own.
  const shattuck = rows.filter((r) => r.addressNumber === "1849" && r.streetName === "SHATTUCK");
  assert.ok(shattuck.length > 10);
  assert.equal(new Set(shattuck.map((r) => r.building_id)).size, 1);
  assert.match(shattuck[0]!.building_id, /^bld_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.equal(new Set(shattuck.map((r) => r.service_id)).size, shattuck.length);
  // Utah address points have no APN: identified by address, answered with apn null.
  const utah = rows.filter((r) => r.fips === "49041");
  assert.equal(utah.length, 91);
  assert.ok(utah.every((r) => r.apn === "" && r.zip5 === "84766" && r.city === "SEVIER"));
  // Kodiak: full street words split per Pub 28, ZIP from the nearest ZIP centroid, city from the ZIP.
  const rezanof = rows.find(
    (r) => r.fips === "02150" && r.addressNumber === "3629" && r.streetName === "REZANOF",
  );
  assert.equal(rezanof?.predirectional, "E");
  assert.equal(rezanof?.streetSuffix, "DR");
  assert.equal(rezanof?.state, "AK");
  assert.match(rezanof?.zip5 ?? "", /^996\d\d$/);
  assert.equal(rezanof?.city, "KODIAK");

  // Oakland parcels without an address answer lookup by ID with their record.
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 24, refreshMs: 0 });
  const noAddress = rows.find((r) => r.apn === "3-55-18")!;
  const record = (await index.findById(noAddress.service_id)).result;
  assert.equal(record?.status, "active");
  assert.equal(record?.streetName, null);
  assert.equal(record?.city, "OAKLAND");
  assert.equal(record?.lat, 37.8091855);
  for (const row of rows.filter((r, i) => i % 97 === 0)) {
    const found = (await index.findById(row.service_id)).result;
    assert.equal(found?.service_id, row.service_id);
    assert.equal(found?.fips, row.fips);
  }
});
