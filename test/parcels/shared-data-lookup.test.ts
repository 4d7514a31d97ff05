import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { OPENADDRESSES_MAPPING, parseMapping } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { normalizeStreetName } from "../../src/parcels/normalize.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";
import { perturb } from "./fuzzy-perturbation.js";
import { COUNTY_MAPPING, exportedRows, SHARED_PARCELS, temporaryDir } from "./index-fixtures.js";

const skip = existsSync(SHARED_PARCELS) ? false : "needs ../shared/data (absent)";

async function sharedIndex(t: { after(fn: () => void): void }) {
  const store = new LocalBlobStore(temporaryDir(t));
  const mapping = parseMapping(JSON.parse(readFileSync(COUNTY_MAPPING, "utf8")));
  const files = [
    "alameda_county_spad_situs.csv",
    "berkeley_parcels.csv",
    "oakland_parcels_2013_centroids.csv",
  ];
  await ingest({ store, inputs: files.map((name) => ({ file: join(SHARED_PARCELS, name), mapping })) });
  const rows = await exportedRows(store);
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 26, refreshMs: 0 });
  const lookup = (request: Partial<LookupRequest>) =>
    index.lookup(request as LookupRequest).then((timed) => timed.result as LookupAnswer);
  return { rows, lookup };
}

test("real county data: condos, multi-APN addresses, apartment addresses", { skip }, async (t) => {
  const { rows, lookup } = await sharedIndex(t);
  // Berkeley 1849 Shattuck Ave: the building's own parcel plus condo units.
  const own = await lookup({
    addressNumber: "1849",
    streetName: "Shattuck",
    streetSuffix: "Avenue",
    zip5: "94709",
  });
  assert.equal(own.status, "matched");
  assert.equal(own.apn, "057 204903900");
  assert.equal(own.unit_required, true);
  assert.ok((own.unit_count ?? 0) > 10 && own.candidates.length === 10);
  const unit = await lookup({
    addressNumber: "1849",
    streetName: "SHATTUCK",
    streetSuffix: "AVE",
    occupancyId: "302",
    zip5: "94709",
  });
  assert.deepEqual([unit.status, unit.apn, unit.building_id], ["matched", "057 204901700", own.building_id]);
  // Alameda 565 Bellevue Ave #2202 is an address of the one parcel 10-767-167.
  const apartment = await lookup({
    addressNumber: "565",
    streetName: "BELLEVUE",
    streetSuffix: "AV",
    occupancyId: "2202",
    zip5: "94610",
  });
  assert.deepEqual([apartment.status, apartment.apn, apartment.building_id], ["matched", "10-767-167", null]);
  // An address on several APNs without units is ambiguous, with every APN a candidate.
  const bySitus = new Map<string, Set<string>>();
  for (const r of rows.filter(
    (r) => r.fips === "06001" && r.addressNumber && r.occupancyId === "" && r.building_id === "",
  )) {
    const key = [r.zip5, r.addressNumber, r.streetName, r.streetSuffix, r.predirectional].join("|");
    bySitus.set(key, (bySitus.get(key) ?? new Set()).add(r.service_id));
  }
  const shared = [...bySitus].find(([, ids]) => ids.size > 1)!;
  const [zip5, addressNumber, streetName, streetSuffix, predirectional] = shared[0].split("|");
  const multi = await lookup({
    zip5,
    addressNumber,
    streetName,
    streetSuffix,
    ...(predirectional ? { predirectional } : {}),
  });
  assert.equal(multi.status, "ambiguous");
  assert.deepEqual(new Set(multi.candidates.map((c) => c.service_id)), shared[1]);
});

test(
  "street names perturbed by one or two edits: the right parcel or an honest answer, never a wrong match",
  { skip },
  async (t) => {
    const { rows, lookup } = await sharedIndex(t);
    const streetsByZip = new Map<string, Set<string>>();
    for (const r of rows) streetsByZip.set(r.zip5, (streetsByZip.get(r.zip5) ?? new Set()).add(r.streetName));
    const random = seededRandom(20261120);
    const sample = rows.filter(
      (r) => r.addressNumber !== "" && r.streetName.length >= 4 && r.status === "active",
    );
    let right = 0;
    let tried = 0;
    for (let i = 0; i < 400; i++) {
      const r = sample[Math.floor(random() * sample.length)]!;
      const streetName = perturb(r.streetName, 1 + Math.floor(random() * 2), random);
      // became another real street, or another spelling of this one (`22D` is `22ND`): not a typo
      if (streetsByZip.get(r.zip5)?.has(normalizeStreetName(streetName))) continue;
      const request = {
        zip5: r.zip5,
        addressNumber: r.addressNumber,
        streetName,
        streetSuffix: r.streetSuffix,
        occupancyId: r.occupancyId,
        predirectional: r.predirectional,
      };
      const exact = await lookup({ ...request, streetName: r.streetName });
      const fuzzy = await lookup(request);
      tried++;
      if (fuzzy.status === "matched" || fuzzy.status === "matched_building") {
        assert.equal(fuzzy.fuzzy, true, streetName);
        assert.equal(
          fuzzy.service_id,
          exact.service_id,
          `${r.streetName} → ${streetName} matched another parcel`,
        );
        assert.equal(fuzzy.status, exact.status);
        right++;
      } else assert.ok(["ambiguous", "not_found"].includes(fuzzy.status), fuzzy.status);
    }
    assert.ok(right / tried > 0.6, `${right} of ${tried} perturbed lookups found the right parcel`);
  },
);

test(
  "Kodiak spells its numbered streets out: the numbered form and typos of the word find them",
  { skip },
  async (t) => {
    const store = new LocalBlobStore(temporaryDir(t));
    await ingest({
      store,
      inputs: [
        {
          file: join(SHARED_PARCELS, "kodiak_island_borough.csv"),
          mapping: { ...OPENADDRESSES_MAPPING, constants: { fips: "02150", state: "AK" } },
        },
      ],
    });
    const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 24, refreshMs: 0 });
    const lookup = (request: Partial<LookupRequest>) =>
      index.lookup(request as LookupRequest).then((timed) => timed.result as LookupAnswer);
    const spelled = (await exportedRows(store)).filter(
      (r) => ["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH"].includes(r.streetName) && r.addressNumber !== "",
    );
    assert.ok(spelled.length > 50, `${spelled.length} parcels on spelled-out numbered streets`);
    const variants: Record<string, string[]> = {
      FIRST: ["1st", "Frist"],
      SECOND: ["2nd", "Secnod"],
      THIRD: ["3rd", "Thrid"],
      FOURTH: ["4th", "Fourht"],
      FIFTH: ["5th", "Fiftth"],
    };
    let matched = 0;
    for (const r of spelled) {
      const request = { zip5: r.zip5, addressNumber: r.addressNumber, streetSuffix: r.streetSuffix };
      const exact = await lookup({ ...request, streetName: r.streetName });
      for (const streetName of variants[r.streetName] ?? []) {
        const answer = await lookup({ ...request, streetName });
        if (answer.status !== "matched") continue;
        assert.equal(answer.service_id, exact.service_id, `${r.addressNumber} ${streetName}`);
        assert.equal(answer.fuzzy, true);
        assert.ok(answer.matchConfidence < exact.matchConfidence);
        matched++;
      }
    }
    assert.ok(matched > spelled.length, `${matched} of ${2 * spelled.length} variant lookups matched`);
  },
);
