import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Gazetteer } from "../../src/places/gazetteer.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import type { CanonicalRow } from "./index-fixtures.js";
import { lookupFixture } from "./index-fixtures.js";

/**
 * How a county wrote an address and how a caller writes it meet (docs/lookup.md "Readings"):
 * letters of house numbers, direction words in street names, street types inside or outside the
 * name, lot designators as units. Each pattern both ways: the data split and the query joined,
 * and the reverse.
 */
const GAZETTEER = new Gazetteer([{ zip5: "94704", city: "BERKELEY", state: "CA", lat: 37.87, lon: -122.26 }]);

const row = (
  apn: string,
  addressNumber: string,
  streetName: string,
  more: CanonicalRow = {},
): CanonicalRow => ({
  apn,
  fips: "06001",
  addressNumber,
  streetName,
  city: "BERKELEY",
  state: "CA",
  zip5: "94704",
  ...more,
});
const rd = { streetSuffix: "RD" };
const st = { streetSuffix: "ST" };

const ROWS: CanonicalRow[] = [
  // Marysville's half streets beside the whole ones, Yuba County's old ordinals, a state route.
  row("H5", "800", "5TH"),
  row("H5H", "800", "5TH 1/2"),
  row("HC", "802", "C"),
  row("HCH", "802", "C 1/2"),
  row("O22", "1170", "22D", { predirectional: "E" }),
  row("HW", "1973", "HWY 65"),
  row("LB", "3742", "BEALE", { ...rd, addressNumberSuffix: "A", predirectional: "N" }),
  row("G500", "1589", "500", { predirectional: "S", postdirectional: "E" }),
  // House numbers with a letter: a suffix column, glued, hyphenated, spaced.
  row("N0", "17417", "MAIN", rd),
  row("NB", "17417", "MAIN", { ...rd, addressNumberSuffix: "B" }),
  row("NG", "17419B", "MAIN", rd),
  row("NH", "3742-A", "MAIN", rd),
  row("NS", "3744 A", "MAIN", rd),
  // Yuba County writes units in the number suffix column, and fractions as _1/2 and -1/2.
  row("Y1", "14437", "MAIN", { ...rd, addressNumberSuffix: "#1" }),
  row("Y2", "14437", "MAIN", { ...rd, addressNumberSuffix: "#2" }),
  row("H1", "500", "MAIN", { ...rd, addressNumberSuffix: "_1/2" }),
  row("H2", "502", "MAIN", { ...rd, addressNumberSuffix: "-1/2" }),
  // Direction words: a predirectional, the word in the name, the letter in the name.
  row("R1", "12", "RIDGE", { ...rd, predirectional: "N" }),
  row("R2", "12", "NORTH RIDGE", rd),
  row("R3", "14", "NORTH RIDGE", rd),
  row("R4", "16", "RIDGE", { ...rd, predirectional: "N" }),
  row("R5", "18", "N RIDGE", rd),
  row("R6", "20", "NORTH RIDGE", { ...rd, predirectional: "S" }),
  // Street types: TURN in the suffix column next to FOX RUN CIR; in the name (whole-street file).
  row("T1", "12", "FOX RUN", { streetSuffix: "TURN" }),
  row("T2", "12", "FOX RUN", { streetSuffix: "CIR" }),
  row("T3", "14", "FOX RUN", { streetSuffix: "CIR" }),
  row("G1", "5", "GRAY OWL", { streetSuffix: "GRTH" }),
  row("V1", "30", "OAK", { streetSuffix: "CRT" }),
  row("J1", "40", "BIRCH CT"),
  row("J2", "42", "ASPEN", { streetSuffix: "CT" }),
  row("P1", "12", "PARK", st),
  row("PV", "12", "PARKVIEW", { streetSuffix: "DR" }),
  // Lot designators, as the county spells them.
  row("K0", "18", "ELM", st),
  row("KR", "18", "ELM", { ...st, occupancyId: "Rear" }),
  row("KF0", "24", "ELM", st),
  row("KF1", "24", "ELM", { ...st, occupancyId: "RR" }),
  row("K26", "26", "ELM", st),
  row("K26R", "26", "ELM", { ...st, occupancyType: "REAR" }),
  row("K28", "28", "ELM", st),
  row("K28R", "28", "ELM", { ...st, occupancyId: "#Rear" }),
  row("K32F", "32", "ELM", { ...st, occupancyId: "FRONT" }),
  row("K32U", "32", "ELM", { ...st, occupancyType: "UNIT", occupancyId: "Upper" }),
  row("K32L", "32", "ELM", { ...st, occupancyId: "LOWR" }),
  row("K34", "34", "ELM", { ...st, occupancyId: "A&B" }),
  row("K36", "36", "ELM", st),
  // A unit-only building; a long street with one unnumbered parcel.
  row("U1", "50", "ELM", { ...st, occupancyId: "1" }),
  row("U2", "50", "ELM", { ...st, occupancyId: "2" }),
  ...Array.from({ length: 12 }, (_, i) => row(`L${i}`, String(100 + i), "LONG", st)),
  row("LU", "", "LONG", st),
];

/** A county file with the whole street in one column (split per Pub 28 at ingest). */
function wholeStreetFile(dir: string) {
  const file = join(dir, "streets.csv");
  const lines = ["APN,NUM,STREET", "W1,22,North Ridge Road", "W2,14,Fox Run Turn", "W3,60,Park Ci"];
  writeFileSync(file, `${lines.join("\n")}\n`);
  const mapping = {
    columns: { apn: "APN", addressNumber: "NUM", street: "STREET" },
    constants: { fips: "06001", state: "CA", city: "BERKELEY", zip5: "94704" },
  };
  return [{ file, mapping }];
}

interface Case {
  request: Partial<LookupRequest>;
  status: LookupAnswer["status"];
  apn?: string | null;
  confidence?: number;
  candidates?: string[];
  readPath?: LookupAnswer["readPath"];
}

const main = (addressNumber: string, more: Partial<LookupRequest> = {}): Partial<LookupRequest> => ({
  addressNumber,
  streetName: "Main",
  streetSuffix: "Rd",
  ...more,
});
const exact = (apn: string) => ({ status: "matched" as const, apn, confidence: 1 });

const NUMBER_LETTERS: Array<[string, Case]> = [
  ["glued letter, data with a suffix column", { request: main("17417B"), ...exact("NB") }],
  ["spaced letter", { request: main("17417 B"), ...exact("NB") }],
  ["hyphenated letter", { request: main("17417-b"), ...exact("NB") }],
  ["letter as the number suffix", { request: main("17417", { addressNumberSuffix: "B" }), ...exact("NB") }],
  [
    "the letter the parser put in the street name is the number suffix (never a fuzzy MAIN)",
    { request: main("17417", { streetName: "B Main" }), ...exact("NB") },
  ],
  ["data glued, query as suffix", { request: main("17419", { addressNumberSuffix: "b" }), ...exact("NG") }],
  ["data glued, letter in the name", { request: main("17419", { streetName: "B MAIN" }), ...exact("NG") }],
  ["data hyphenated, query glued", { request: main("3742A"), ...exact("NH") }],
  ["data spaced, query hyphenated", { request: main("3744-A"), ...exact("NS") }],
  ["no suffix given: the number without one", { request: main("17417"), ...exact("N0") }],
  [
    "a suffix no parcel has: never a parcel at 0.9",
    { request: main("17417", { addressNumberSuffix: "C" }), status: "ambiguous", candidates: ["N0", "NB"] },
  ],
  [
    "a directional letter stays a directional (corrected, not the number suffix E)",
    { request: main("17417", { streetName: "E Main" }), status: "matched", apn: "N0", confidence: 0.8 },
  ],
  [
    "a unit written in the number suffix column",
    { request: main("14437", { occupancyId: "1" }), ...exact("Y1") },
  ],
  [
    "a unit in the query's number suffix",
    { request: main("14437", { addressNumberSuffix: "#2" }), ...exact("Y2") },
  ],
  ["a unit glued to the number", { request: main("14437#1"), ...exact("Y1") }],
  [
    "fraction written _1/2 in the data",
    { request: main("500", { addressNumberSuffix: "1/2" }), ...exact("H1") },
  ],
  ["fraction spaced", { request: main("500 1/2"), ...exact("H1") }],
  ["fraction hyphenated, data -1/2", { request: main("502-1/2"), ...exact("H2") }],
  ["fraction _1/2 in the query", { request: main("502", { addressNumberSuffix: "_1/2" }), ...exact("H2") }],
];

const ridge = (addressNumber: string, more: Partial<LookupRequest>): Partial<LookupRequest> => ({
  addressNumber,
  streetSuffix: "Road",
  ...more,
});
const DIRECTIONS: Array<[string, Case]> = [
  [
    "N RIDGE and NORTH RIDGE at one number: parsed North Ridge Rd is ambiguous",
    {
      request: ridge("12", { predirectional: "North", streetName: "Ridge" }),
      status: "ambiguous",
      candidates: ["R1", "R2"],
    },
  ],
  [
    "the same, the word kept in the name",
    { request: ridge("12", { streetName: "North Ridge" }), status: "ambiguous", candidates: ["R1", "R2"] },
  ],
  [
    "the same, the letter kept in the name",
    { request: ridge("12", { streetName: "N Ridge" }), status: "ambiguous", candidates: ["R1", "R2"] },
  ],
  [
    "data NORTH RIDGE, query N + RIDGE",
    { request: ridge("14", { predirectional: "N", streetName: "Ridge" }), ...exact("R3") },
  ],
  ["data NORTH RIDGE, query N RIDGE", { request: ridge("14", { streetName: "N Ridge" }), ...exact("R3") }],
  [
    "data N + RIDGE, query NORTH RIDGE",
    { request: ridge("16", { streetName: "North Ridge" }), ...exact("R4") },
  ],
  ["data N + RIDGE, query N RIDGE", { request: ridge("16", { streetName: "N Ridge" }), ...exact("R4") }],
  [
    "data N RIDGE, query N + RIDGE",
    { request: ridge("18", { predirectional: "N", streetName: "Ridge" }), ...exact("R5") },
  ],
  [
    "data N RIDGE, query NORTH RIDGE",
    { request: ridge("18", { streetName: "North Ridge" }), ...exact("R5") },
  ],
  [
    "whole-street column North Ridge Road (split at ingest), query keeps the word",
    { request: ridge("22", { streetName: "North Ridge" }), ...exact("W1") },
  ],
  [
    "a moved directional pins it: S NORTH RIDGE is a correction of N RIDGE",
    {
      request: ridge("20", { predirectional: "N", streetName: "Ridge" }),
      status: "matched",
      apn: "R6",
      confidence: 0.8,
    },
  ],
];

const fox = (addressNumber: string, streetName: string, streetSuffix?: string): Partial<LookupRequest> => ({
  addressNumber,
  streetName,
  ...(streetSuffix ? { streetSuffix } : {}),
});
const TYPES: Array<[string, Case]> = [
  ["TURN as the suffix on both sides", { request: fox("12", "Fox Run", "Turn"), ...exact("T1") }],
  ["data FOX RUN + TURN, query FOX RUN TURN", { request: fox("12", "Fox Run Turn"), ...exact("T1") }],
  [
    "data FOX RUN TURN (whole street) next to FOX RUN CIR, query FOX RUN + TURN: never the CIR",
    { request: fox("14", "Fox Run", "Turn"), ...exact("W2") },
  ],
  ["data FOX RUN TURN, query the same", { request: fox("14", "FOX RUN TURN"), ...exact("W2") }],
  [
    "TURN lost by the parser (FOX + RUN): TURN and CIR both fit, ambiguous",
    { request: fox("14", "Fox", "Run"), status: "ambiguous", candidates: ["T3", "W2"] },
  ],
  [
    "TURN lost, FOX RUN + TURN and FOX RUN CIR in the data: ambiguous",
    { request: fox("12", "Fox", "Run"), status: "ambiguous", candidates: ["T1", "T2"] },
  ],
  ["GRTH kept in the name by the query", { request: fox("5", "Gray Owl Grth"), ...exact("G1") }],
  ["GRTH as the suffix", { request: fox("5", "Gray Owl", "GRTH"), ...exact("G1") }],
  ["county spelling CRT, query Court", { request: fox("30", "Oak", "Court"), ...exact("V1") }],
  ["county spelling CRT, query CRT", { request: fox("30", "Oak", "Crt"), ...exact("V1") }],
  ["whole street Park Ci, query Circle", { request: fox("60", "Park", "Circle"), ...exact("W3") }],
  ["data BIRCH CT in the name, query BIRCH + CT", { request: fox("40", "Birch", "Ct"), ...exact("J1") }],
  [
    "data BIRCH CT in the name, query BIRCH + COURT",
    { request: fox("40", "Birch", "Court"), ...exact("J1") },
  ],
  ["data ASPEN + CT, query ASPEN COURT", { request: fox("42", "Aspen Court"), ...exact("J2") }],
  [
    "a type word taken from the name is a guess: PARK VIEW is no PARK ST at 0.8, its near miss answers",
    {
      request: fox("12", "Park View"),
      status: "matched",
      apn: "PV",
      confidence: 0.7 * 0.95, // a near miss, its suffix filled in
      readPath: "fuzzy_chunk",
    },
  ],
];

const elm = (addressNumber: string, unit: Partial<LookupRequest>): Partial<LookupRequest> => ({
  addressNumber,
  streetName: "Elm",
  streetSuffix: "St",
  ...unit,
});
const SPELLINGS: Array<[string, Case]> = [
  [
    "800 5th 1/2: the parser's unit is the half street",
    { request: { addressNumber: "800", streetName: "5TH", occupancyId: "1/2" }, ...exact("H5H") },
  ],
  ["800 5th: the whole street", { request: { addressNumber: "800", streetName: "5th" }, ...exact("H5") }],
  [
    "802 C 1/2: the parser's number letter opens the name",
    { request: { addressNumber: "802", addressNumberSuffix: "C", streetName: "1/2" }, ...exact("HCH") },
  ],
  ["802 C: the letter street", { request: { addressNumber: "802", streetName: "C" }, ...exact("HC") }],
  [
    "E 22nd meets the county's E 22D",
    { request: { addressNumber: "1170", predirectional: "E", streetName: "22nd" }, ...exact("O22") },
  ],
  [
    "E 22D as the county writes it",
    { request: { addressNumber: "1170", predirectional: "E", streetName: "22D" }, ...exact("O22") },
  ],
  [
    "Highway 65 meets HWY 65 (Appendix F)",
    { request: { addressNumber: "1973", streetName: "Highway 65" }, ...exact("HW") },
  ],
  ["Hwy 65 too", { request: { addressNumber: "1973", streetName: "Hwy 65" }, ...exact("HW") }],
  [
    "3742 A N Beale Rd: the letter, then the predirectional",
    { request: { addressNumber: "3742", streetName: "A N Beale", streetSuffix: "Rd" }, ...exact("LB") },
  ],
  [
    "1589 south 500 east: the direction word ending the name is the postdirectional",
    { request: { addressNumber: "1589", predirectional: "S", streetName: "500 East" }, ...exact("G500") },
  ],
];

const LOTS: Array<[string, Case]> = [
  ...[
    { occupancyType: "Rear" },
    { occupancyType: "REAR", occupancyId: "#" },
    { occupancyType: "Unit Rear" },
    { occupancyType: "RR" },
    { occupancyId: "Rear" },
    { occupancyId: "#Rear" },
    { occupancyId: "Unit Rear" },
    { occupancyId: "rr" },
    { occupancyId: "Back" },
    { occupancyType: "Unit", occupancyId: "Rear" },
  ].map((unit): [string, Case] => [
    `18 Elm St ${JSON.stringify(unit)}: the rear parcel`,
    { request: elm("18", unit), ...exact("KR") },
  ]),
  ["data RR, query Rear", { request: elm("24", { occupancyType: "Rear" }), ...exact("KF1") }],
  [
    "data a lone REAR designator, query #Rear",
    { request: elm("26", { occupancyId: "#Rear" }), ...exact("K26R") },
  ],
  ["data #Rear, query RR", { request: elm("28", { occupancyId: "RR" }), ...exact("K28R") }],
  ["front parcel without a lot", { request: elm("18", {}), status: "matched", apn: "K0", confidence: 1 }],
  ...[
    ["Front", "K32F"],
    ["FRNT", "K32F"],
    ["Upper", "K32U"],
    ["UPPR", "K32U"],
    ["Lower", "K32L"],
    ["LOWR", "K32L"],
  ].flatMap(([lot, apn]): Array<[string, Case]> => [
    [`32 Elm St ${lot} as the designator`, { request: elm("32", { occupancyType: lot }), ...exact(apn!) }],
    [`32 Elm St #${lot}`, { request: elm("32", { occupancyId: `#${lot}` }), ...exact(apn!) }],
  ]),
  ...["A&B", "A & B", "a-b", "#A&B"].map((id): [string, Case] => [
    `unit ${id}`,
    { request: elm("34", { occupancyId: id }), ...exact("K34") },
  ]),
  [
    "a rear the county does not record: the parcel, below 0.9",
    { request: elm("36", { occupancyType: "Rear" }), status: "matched", apn: "K36", confidence: 0.85 },
  ],
];

/** What is wrong with an answer to a case, or undefined. */
function mismatch(c: Case, answer: LookupAnswer, ids: Map<string, string>): string | undefined {
  const problems = [
    answer.status !== c.status && `status ${answer.status}`,
    c.apn !== undefined && answer.service_id !== (c.apn === null ? null : ids.get(c.apn)) && "parcel",
    c.confidence !== undefined && Math.abs(answer.matchConfidence - c.confidence) > 1e-9 && "confidence",
    c.candidates && answer.matchConfidence !== 0 && "confidence of an answer without a parcel",
    answer.readPath !== (c.readPath ?? "chunk") && `readPath ${answer.readPath}`,
  ].filter((problem) => problem !== false && problem !== undefined);
  return problems.length > 0 ? problems.join(", ") : undefined;
}

test("lookup readings: letters, directions, street types and lots, both ways", async (t) => {
  const { ids, apnOf, lookup } = await lookupFixture(t, ROWS, {
    gazetteer: GAZETTEER,
    more: wholeStreetFile,
  });
  const failures: string[] = [];
  for (const [name, c] of [...NUMBER_LETTERS, ...DIRECTIONS, ...TYPES, ...SPELLINGS, ...LOTS]) {
    const answer = await lookup(c.request);
    const candidates = answer.candidates.map((x) => apnOf.get(x.service_id ?? "")).sort();
    const wrong =
      mismatch(c, answer, ids) ??
      (c.candidates && JSON.stringify(candidates) !== JSON.stringify(c.candidates)
        ? "candidates"
        : undefined);
    const got = `${answer.status} ${apnOf.get(answer.service_id ?? "") ?? null} ${answer.matchConfidence} [${candidates}]`;
    if (wrong) failures.push(`${name}: ${wrong} (${got})`);
  }
  assert.deepEqual(failures, []);
});

test("SPEC points: building_id without a top-level parcel; no house number on a street of several; readings across a city", async (t) => {
  const { ids, apnOf, lookup } = await lookupFixture(t, ROWS, { gazetteer: GAZETTEER });
  const units = await lookup(elm("50", {}));
  assert.equal(units.status, "matched_building");
  assert.equal(units.service_id, null);
  assert.match(units.building_id ?? "", /^bld_/);
  assert.deepEqual(
    units.candidates.map((c) => [apnOf.get(c.service_id ?? ""), c.building_id]),
    [
      ["U1", units.building_id],
      ["U2", units.building_id],
    ],
  );
  const rear = await lookup(elm("18", { occupancyId: "Rear" }));
  assert.match(rear.building_id ?? "", /^bld_/, "the rear unit parcel and the front parcel are a building");

  const street = await lookup({ streetName: "Long", streetSuffix: "St" });
  assert.equal(street.status, "no_situs_parcel");
  assert.equal(street.service_id, ids.get("LU"), "its one parcel with no number recorded");
  assert.ok(street.matchConfidence < 0.3 && street.matchConfidence > 0);
  assert.equal(street.candidates.length, 10);
  assert.equal(street.candidates[0]!.service_id, street.service_id);
  const ranked = street.candidates.map((c) => c.matchConfidence);
  assert.deepEqual(
    ranked,
    [...ranked].sort((a, b) => b - a),
    "best first",
  );
  const acrossCity = await lookup({
    ...ridge("14", { predirectional: "N", streetName: "Ridge" }),
    zip5: undefined,
    city: "Berkeley",
    state: "CA",
  });
  assert.deepEqual([acrossCity.status, acrossCity.apn, acrossCity.readPath], ["matched", "R3", "whole"]);
  const only = await lookup({ streetName: "Aspen", streetSuffix: "Ct" });
  assert.deepEqual([only.status, only.apn, only.matchConfidence], ["no_situs_parcel", "J2", 0.3]);
  assert.deepEqual(only.candidates, [], "a street's only parcel");
});

test("PR 462 in a Texas county file is a private road, found as the parser writes it", async (t) => {
  const gazetteer = new Gazetteer([
    { zip5: "79556", city: "SWEETWATER", state: "TX", lat: 32.47, lon: -100.4 },
  ]);
  const place = { fips: "48353", city: "SWEETWATER", state: "TX", zip5: "79556" };
  const rows = [row("PR1", "4500", "PR 462", place), row("PR2", "4502", "PR 462", place)];
  const { ids, lookup } = await lookupFixture(t, rows, { gazetteer });
  // The parser's PRIVATE ROAD 462, and PR 462 as typed: both the county's private road.
  for (const [addressNumber, streetName, apn] of [
    ["4500", "PRIVATE ROAD 462", "PR1"],
    ["4502", "PR 462", "PR2"],
  ] as const) {
    const answer = await lookup({ addressNumber, streetName, ...place });
    assert.equal(answer.status, "matched", streetName);
    assert.equal(answer.service_id, ids.get(apn), streetName);
  }
});
