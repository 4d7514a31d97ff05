import assert from "node:assert/strict";
import { test } from "node:test";
import { Gazetteer } from "../../src/places/gazetteer.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { documentedOnly } from "../support/documented-answers.js";
import { auth, testApp, testServices } from "../support/test-app.js";
import { FaultyStore } from "./faulty-store.js";
import { lookupFixture } from "./index-fixtures.js";

const GAZETTEER = new Gazetteer([
  { zip5: "94704", city: "BERKELEY", state: "CA", lat: 37.87, lon: -122.26 },
  { zip5: "94709", city: "BERKELEY", state: "CA", lat: 37.88, lon: -122.27 },
  { zip5: "62701", city: "SPRINGFIELD", state: "IL", lat: 39.8, lon: -89.65 },
  { zip5: "01101", city: "SPRINGFIELD", state: "MA", lat: 42.1, lon: -72.59 },
]);

const row = (
  apn: string,
  addressNumber: string,
  streetName: string,
  streetSuffix: string,
  more: Record<string, string> = {},
) => ({
  apn,
  fips: "06001",
  addressNumber,
  streetName,
  streetSuffix,
  city: "BERKELEY",
  state: "CA",
  zip5: "94704",
  lat: "37.87",
  lon: "-122.26",
  ...more,
});
const unit = (id: string) => ({ occupancyType: "UNIT", occupancyId: id });

const ROWS = [
  row("A1", "10", "MAIN", "ST"),
  row("A2", "10", "MAIN", "AVE"),
  row("B0", "20", "OAK", "ST"),
  row("B1", "20", "OAK", "ST", unit("1")),
  row("B2", "20", "OAK", "ST", unit("2")),
  row("C1", "30", "OAK", "ST", unit("A")),
  row("C2", "30", "OAK", "ST", unit("B")),
  row("D1", "40", "PINE", "ST"),
  row("D1", "40", "PINE", "ST", unit("1")),
  row("D1", "40", "PINE", "ST", unit("2")),
  row("E1", "", "ELM", "ST"),
  row("M1", "50", "MAPLE", "ST", { predirectional: "N" }),
  row("M2", "50", "MAPLE", "ST", { predirectional: "S" }),
  row("H1", "60", "HAMILTON", "ST"),
  row("H2", "60", "HAMILTONE", "ST"),
  row("W1", "70", "WASHINGTON", "ST", { zip5: "94709" }),
  row("F1", "80", "CEDAR", "ST"),
  row("F2", "80", "CEDAR", "ST"),
  row("N1", "90", "1ST", "ST"),
  row("N2", "90", "12TH", "ST"),
  row("N3", "95", "12TH", "ST"),
  row("S2", "75", "SECOND", "ST", { zip5: "94709" }),
];

const fixture = (t: { after(fn: () => void): void }) => lookupFixture(t, ROWS, { gazetteer: GAZETTEER });

interface Case {
  name: string;
  request: Partial<LookupRequest>;
  status: LookupAnswer["status"];
  apn?: string | null;
  confidence?: number;
  candidates?: string[];
  extra?: Partial<LookupAnswer>;
}

const CASES: Case[] = [
  {
    name: "exact",
    request: { addressNumber: "10", streetName: "Main", streetSuffix: "Street" },
    status: "matched",
    apn: "A1",
    confidence: 1,
  },
  {
    name: "two suffixes, none given",
    request: { addressNumber: "10", streetName: "MAIN" },
    status: "ambiguous",
    apn: null,
    confidence: 0,
    candidates: ["A1", "A2"],
  },
  {
    name: "omitted suffix filled in",
    request: { addressNumber: "40", streetName: "PINE" },
    status: "matched",
    apn: "D1",
    confidence: 0.95,
  },
  {
    name: "wrong suffix corrected",
    request: { addressNumber: "40", streetName: "PINE", streetSuffix: "AVE" },
    status: "matched",
    apn: "D1",
    confidence: 0.8,
  },
  {
    name: "wrong suffix, two fits",
    request: { addressNumber: "10", streetName: "MAIN", streetSuffix: "BLVD" },
    status: "ambiguous",
    candidates: ["A1", "A2"],
  },
  {
    name: "building with its own parcel, no unit",
    request: { addressNumber: "20", streetName: "OAK", streetSuffix: "ST" },
    status: "matched",
    apn: "B0",
    candidates: ["B1", "B2"],
    extra: { unit_required: true, unit_count: 2 },
  },
  {
    name: "existing unit",
    request: {
      addressNumber: "20",
      streetName: "OAK",
      streetSuffix: "ST",
      occupancyType: "APT",
      occupancyId: "#2",
    },
    status: "matched",
    apn: "B2",
    confidence: 1,
  },
  {
    name: "unit with no parcel of its own",
    request: { addressNumber: "20", streetName: "OAK", streetSuffix: "ST", occupancyId: "9" },
    status: "matched_building",
    apn: "B0",
    extra: { unit_required: true, unit_count: 2 },
  },
  {
    name: "unit-only building, no unit",
    request: { addressNumber: "30", streetName: "OAK", streetSuffix: "ST" },
    status: "matched_building",
    apn: null,
    confidence: 0,
    candidates: ["C1", "C2"],
    extra: { unit_required: true, unit_count: 2 },
  },
  {
    name: "apartment address of a single parcel",
    request: { addressNumber: "40", streetName: "PINE", streetSuffix: "ST", occupancyId: "2" },
    status: "matched",
    apn: "D1",
    confidence: 1,
  },
  {
    name: "number not on a street with one unnumbered parcel",
    request: { addressNumber: "5", streetName: "ELM", streetSuffix: "ST" },
    status: "no_situs_parcel",
    apn: "E1",
    confidence: 0.3,
  },
  {
    name: "no house number",
    request: { streetName: "ELM" },
    status: "no_situs_parcel",
    apn: "E1",
    confidence: 0.3,
  },
  {
    name: "no house number, several parcels: the first, weakly, with the street's parcels",
    request: { streetName: "MAIN" },
    status: "no_situs_parcel",
    apn: "A2",
    confidence: 0.1,
    candidates: ["A1", "A2"],
  },
  {
    name: "directional missing, two fit",
    request: { addressNumber: "50", streetName: "MAPLE" },
    status: "ambiguous",
    candidates: ["M1", "M2"],
  },
  {
    name: "directional given",
    request: { addressNumber: "50", streetName: "MAPLE", predirectional: "North" },
    status: "matched",
    apn: "M1",
  },
  {
    name: "one address on two APNs",
    request: { addressNumber: "80", streetName: "CEDAR", streetSuffix: "ST" },
    status: "ambiguous",
    candidates: ["F1", "F2"],
  },
  {
    name: "number not on the street",
    request: { addressNumber: "99", streetName: "MAIN", streetSuffix: "ST" },
    status: "not_found",
    extra: { readPath: "chunk", searched: ["zip:94704"] },
  },
  {
    name: "typo in the street (fuzzy)",
    request: { addressNumber: "10", streetName: "MIAN", streetSuffix: "ST" },
    status: "matched",
    apn: "A1",
    confidence: 0.7,
    extra: { fuzzy: true, readPath: "fuzzy_chunk" },
  },
  {
    name: "near miss two streets explain",
    request: { addressNumber: "60", streetName: "HAMILTONN", streetSuffix: "ST" },
    status: "ambiguous",
    candidates: ["H1", "H2"],
    extra: { fuzzy: true },
  },
  {
    name: "numbered street, ordinal suffix doubled (fuzzy)",
    request: { addressNumber: "95", streetName: "12tth", streetSuffix: "ST" },
    status: "matched",
    apn: "N3",
    confidence: 0.7,
    extra: { fuzzy: true },
  },
  {
    name: "numbered street, its digit typed as a letter: the only street that fits",
    request: { addressNumber: "90", streetName: "IST", streetSuffix: "ST" },
    status: "matched",
    apn: "N1",
    confidence: 0.6,
    extra: { fuzzy: true },
  },
  {
    name: "numbered street, digit doubled into no street number",
    request: { addressNumber: "90", streetName: "11ST", streetSuffix: "ST" },
    status: "matched",
    apn: "N1",
    confidence: 0.6,
  },
  {
    name: "another street number is never a typo",
    request: { addressNumber: "95", streetName: "13TH" },
    status: "not_found",
    extra: { readPath: "fuzzy_chunk" },
  },
  {
    name: "1ST or 12TH with its 2 lost",
    request: { addressNumber: "90", streetName: "1TS" },
    status: "ambiguous",
    candidates: ["N1", "N2"],
    extra: { fuzzy: true },
  },
  {
    name: "unknown ZIP",
    request: { addressNumber: "10", streetName: "MAIN", zip5: "99999" },
    status: "not_found",
    extra: { readPath: "none", searched: [] },
  },
  {
    name: "city and state",
    request: {
      addressNumber: "70",
      streetName: "WASHINGTON",
      zip5: undefined,
      city: "Berkeley",
      state: "California",
    },
    status: "matched",
    apn: "W1",
    extra: { readPath: "whole", searched: ["zip:94709"] },
  },
  {
    name: "city alone, one state",
    request: { addressNumber: "70", streetName: "WASHINGTN", zip5: undefined, city: "BERKELEY" },
    status: "matched",
    apn: "W1",
    extra: { readPath: "fuzzy", state_inferred: "CA", fuzzy: true, searched: ["zip:94709"] },
  },
  {
    name: "a numbered street spelled out in the index, across the city",
    request: { addressNumber: "75", streetName: "2nd", zip5: undefined, city: "BERKELEY", state: "CA" },
    status: "matched",
    apn: "S2",
    extra: { readPath: "fuzzy", fuzzy: true, searched: ["zip:94709"] },
  },
  {
    name: "a street no ZIP of the city has: only the street dictionary is read",
    request: {
      addressNumber: "1",
      streetName: "NOSUCHSTREET",
      zip5: undefined,
      city: "BERKELEY",
      state: "CA",
    },
    status: "not_found",
    extra: { readPath: "fuzzy", searched: [] },
  },
  {
    name: "unknown city",
    request: { addressNumber: "1", streetName: "MAIN", zip5: undefined, city: "NOWHERE", state: "CA" },
    status: "not_found",
    extra: { readPath: "none" },
  },
];

test("lookup outcomes, table-driven", async (t) => {
  const { ids, lookup } = await fixture(t);
  const apnOf = new Map([...ids].map(([apn, id]) => [id, apn]));
  for (const c of CASES) {
    const answer = await lookup(c.request);
    assert.equal(answer.status, c.status, c.name);
    if (c.apn !== undefined) assert.equal(answer.apn, c.apn, c.name);
    if (c.apn) assert.equal(answer.service_id, ids.get(c.apn), c.name);
    if (c.confidence !== undefined)
      assert.ok(
        Math.abs(answer.matchConfidence - c.confidence) < 1e-9,
        `${c.name}: ${answer.matchConfidence}`,
      );
    if (c.candidates)
      assert.deepEqual(
        answer.candidates.map((x) => apnOf.get(x.service_id ?? "")).sort(),
        c.candidates,
        c.name,
      );
    else if (c.status === "matched" && !c.extra?.unit_required)
      assert.deepEqual(answer.candidates, [], c.name);
    for (const [key, value] of Object.entries(c.extra ?? {}))
      assert.deepEqual(answer[key as keyof LookupAnswer], value, `${c.name}: ${key}`);
    if (c.status === "ambiguous" || c.status === "not_found") assert.equal(answer.matchConfidence, 0, c.name);
  }
});

test("a city in several states without a state is refused with the count; fuzzy ranks below exact", async (t) => {
  const { lookup } = await fixture(t);
  assert.deepEqual(await lookup({ streetName: "MAIN", zip5: undefined, city: "Springfield" }), {
    error: "location_required",
    states: 2,
  });
  const fuzzy = await lookup({
    addressNumber: "20",
    streetName: "OKA",
    streetSuffix: "ST",
    occupancyId: "1",
  });
  assert.equal(fuzzy.fuzzy, true);
  assert.ok(fuzzy.matchConfidence < 0.8, "below every exact answer");
  const ambiguous = await lookup({ addressNumber: "60", streetName: "HAMILTONN" });
  assert.ok(ambiguous.candidates.every((c) => c.fuzzy === true));
});

test("the lookup route answers 200 with Server-Timing, and 503 when the index cannot be read", async (t) => {
  const { store } = await fixture(t);
  const faulty = new FaultyStore(store);
  const parcels = await StoredParcelIndex.open(faulty, {
    cacheBytes: 1 << 20,
    refreshMs: 0,
    gazetteer: GAZETTEER,
  });
  const app = testApp(testServices({ parcels }));
  t.after(() => void app.close());
  const post = (payload: unknown) =>
    app.inject({ method: "POST", url: "/v1/verify/lookup", headers: auth, payload: payload as object });
  const ok = await post({
    type: "street",
    components: { addressNumber: 10, streetName: "main", streetSuffix: "st", zip5: "94704" },
  });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().apn, "A1");
  assert.match(String(ok.headers["server-timing"]), /r2fetch;dur=[\d.]+, match;dur=[\d.]+, total;dur=/);
  const refused = await post({ streetName: "MAIN", city: "SPRINGFIELD" });
  assert.deepEqual(
    [refused.statusCode, refused.json().error, refused.json().states],
    [400, "location_required", 2],
  );
  faulty.down = true;
  const down = await post({ addressNumber: "20", streetName: "OAK", zip5: "94709" });
  assert.deepEqual([down.statusCode, down.json().error], [503, "matchkey_unavailable"]);
});

test("lookup and by-ID answers have exactly the fields docs/openapi.json documents", async (t) => {
  const { ids, index, lookup } = await fixture(t);
  const lookupDocumented = documentedOnly("LookupAnswer");
  const statuses = new Set<string>();
  for (const c of CASES) {
    const answer = await lookup(c.request);
    lookupDocumented(answer);
    statuses.add(answer.status);
  }
  assert.ok(statuses.size >= 4, `answers of several kinds checked: ${[...statuses].join(", ")}`);
  const recordDocumented = documentedOnly("ParcelRecord");
  for (const serviceId of ids.values()) {
    const record = (await index.findById(serviceId)).result;
    assert.ok(record !== undefined);
    recordDocumented(record);
  }
});

test("a house number is found by its value, then its text, on a street of many", async (t) => {
  // Nine digits are read from the chunk's bytes, ten by parseInt; values past 32 bits tie in the
  // search's number column (clamped): the text then decides.
  const numbers = [
    ...Array.from({ length: 70 }, (_, i) => String(i * 3 + 1)),
    "0",
    "123456789",
    "1234567890",
    "2147483646",
    "2147483647",
    "2147483648",
    "99999999999",
  ];
  const { lookup } = await lookupFixture(
    t,
    numbers.map((number) => row(`L${number}`, number, "LONG", "ST")),
    { gazetteer: GAZETTEER },
  );
  for (const number of numbers) {
    const answer = await lookup({ addressNumber: number, streetName: "LONG", streetSuffix: "ST" });
    assert.deepEqual([answer.status, answer.apn], ["matched", `L${number}`], number);
  }
  for (const number of ["2", "3", "212", "2147483649", "100000000000"]) {
    const answer = await lookup({ addressNumber: number, streetName: "LONG", streetSuffix: "ST" });
    assert.equal(answer.status, "not_found", number);
  }
});
