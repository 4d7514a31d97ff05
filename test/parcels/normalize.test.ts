import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { lotDesignator } from "../../src/parcels/county-spellings.js";
import {
  cleanText,
  normalizeDirectional,
  normalizeState,
  normalizeStreetName,
  normalizeSuffix,
  normalizeUnitId,
  normalizeUnitType,
  normalizeZip,
  splitNumber,
  splitNumberSuffix,
  splitStreet,
  unitOf,
} from "../../src/parcels/normalize.js";
import { GENERATED_PARCEL_PATH, renderTables } from "../../tools/usps/generate-tables.js";

test("text is uppercased, punctuation dropped, fractions and hyphenated numbers kept", () => {
  const cases: Array<[string, string]> = [
    ["  Martin Luther King Jr. ", "MARTIN LUTHER KING JR"],
    ["O'Brien", "OBRIEN"],
    ["St. John's", "ST JOHNS"],
    ["112-10", "112-10"],
    ["1/2", "1/2"],
    ["Main,Street", "MAIN STREET"],
    ["- dash -", "DASH"],
    ["", ""],
  ];
  for (const [raw, clean] of cases) assert.equal(cleanText(raw), clean, raw);
});

test("Publication 28 standard forms for suffixes, directionals, designators and states", () => {
  assert.equal(normalizeSuffix("Avenue"), "AVE");
  assert.equal(normalizeSuffix("av"), "AVE");
  assert.equal(normalizeSuffix("Boulevard."), "BLVD");
  assert.equal(normalizeSuffix("Xyz"), "XYZ", "a word that is no suffix is kept as written");
  assert.equal(normalizeDirectional("North West"), "NW");
  assert.equal(normalizeDirectional("s"), "S");
  assert.equal(normalizeUnitType("Apartment"), "APT");
  assert.equal(normalizeUnitType("suite"), "STE");
  assert.equal(normalizeUnitId("# 4b"), "4B");
  assert.equal(normalizeState("California"), "CA");
  assert.equal(normalizeState("calif"), "CA");
});

test("ZIPs: ZIP+4 split, lost leading zeros restored, anything else invalid", () => {
  assert.deepEqual(normalizeZip("94103-1234"), { zip5: "94103", zip4: "1234" });
  assert.deepEqual(normalizeZip("941031234"), { zip5: "94103", zip4: "1234" });
  assert.deepEqual(normalizeZip("2134"), { zip5: "02134", zip4: "" });
  assert.deepEqual(normalizeZip(""), { zip5: "", zip4: "" });
  assert.equal(normalizeZip("9410A"), undefined);
  assert.equal(normalizeZip("12"), undefined);
});

test("a whole street splits into directionals, name and suffix, keeping names that are type words", () => {
  const cases: Array<[string, string, string, string, string]> = [
    ["East Rezanof Drive", "E", "REZANOF", "DR", ""],
    ["Main St N", "", "MAIN", "ST", "N"],
    ["North St", "", "NORTH", "ST", ""],
    ["Avenue B", "", "AVENUE B", "", ""],
    ["Mill Bay Road", "", "MILL BAY", "RD", ""],
    ["Park Place Dr", "", "PARK PLACE", "DR", ""],
    ["Broadway", "", "BROADWAY", "", ""],
  ];
  for (const [raw, pre, name, suffix, post] of cases) {
    assert.deepEqual(
      splitStreet(raw),
      { predirectional: pre, streetName: name, streetSuffix: suffix, postdirectional: post },
      raw,
    );
  }
});

test("house numbers: fractions and one letter go to the suffix, hyphenated and grid numbers stay whole", () => {
  const cases: Array<[string, string, string, string]> = [
    ["123 1/2", "123", "1/2", ""],
    ["3742-1/2", "3742", "1/2", ""],
    ["112-10", "112-10", "", ""],
    ["N6W23001", "N6W23001", "", ""],
    ["R13800", "R13800", "", ""],
    ["0", "0", "", ""],
    // Kodiak's address points (1820D), Yuba's HNUM column (3742-A, 4433 B, 689C).
    ["17417B", "17417", "B", ""],
    ["1820d", "1820", "D", ""],
    ["3742-A", "3742", "A", ""],
    ["4433 B", "4433", "B", ""],
    // Yuba writes units with the number (2649#C) and fractions after a # (8732#1/2).
    ["2649#C", "2649", "", "C"],
    ["14437 #37", "14437", "", "37"],
    ["8732#1/2", "8732", "1/2", ""],
  ];
  for (const [raw, addressNumber, addressNumberSuffix, occupancyId] of cases)
    assert.deepEqual(splitNumber(raw), { addressNumber, addressNumberSuffix, occupancyId }, raw);
});

test("number suffixes: fraction spellings meet, a # value is a unit", () => {
  const cases: Array<[string, string, string]> = [
    ["1/2", "1/2", ""],
    ["_1/2", "1/2", ""],
    ["-1/2", "1/2", ""],
    ["#1/2", "1/2", ""],
    ["b", "B", ""],
    ["#1", "", "1"],
    ["#A", "", "A"],
    ["# 12", "", "12"],
  ];
  for (const [raw, addressNumberSuffix, occupancyId] of cases)
    assert.deepEqual(splitNumberSuffix(raw), { addressNumberSuffix, occupancyId }, raw);
});

test("units: lot words in any spelling are one unit value; a lone lot designator is the unit", () => {
  for (const raw of ["Rear", "REAR", "rr", "#Rear", "# rear", "Unit Rear", "Apt Rear", "back"])
    assert.equal(normalizeUnitId(raw), "REAR", raw);
  for (const [raw, lot] of [
    ["Front", "FRNT"],
    ["frnt", "FRNT"],
    ["Upper", "UPPR"],
    ["Lower", "LOWR"],
    ["Basement", "BSMT"],
    ["side", "SIDE"],
  ])
    assert.equal(normalizeUnitId(raw!), lot, raw);
  assert.equal(normalizeUnitId("A&B"), "AB");
  assert.equal(normalizeUnitId("A & B"), "AB");
  assert.equal(normalizeUnitId("4B"), "4B");
  assert.equal(normalizeUnitId("COM"), "COM", "a unit word that is no lot stays");
  assert.equal(normalizeUnitId("LOWER COML"), "LOWERCOML", "a lot word among others is no lot");
  assert.equal(lotDesignator("PH"), undefined, "penthouse is a designator, not a part of the lot");
  for (const raw of ["Rear", "RR", "Unit Rear"]) assert.equal(normalizeUnitType(raw), "REAR", raw);

  const unit = (type: string, id: string, numberSuffix = "") =>
    unitOf(normalizeUnitType(type), normalizeUnitId(id), splitNumber("18"), splitNumberSuffix(numberSuffix));
  assert.equal(unit("Rear", ""), "REAR", "18 Elm St Rear");
  assert.equal(unit("REAR", "#"), "REAR", "18 Elm St #Rear as the parser reads it");
  assert.equal(unit("Unit Rear", ""), "REAR");
  assert.equal(unit("UPPR", ""), "UPPR");
  assert.equal(unit("APT", ""), "", "a designator that needs a number names no unit alone");
  assert.equal(unit("Rear", "2"), "2", "a unit number wins");
  assert.equal(unit("", "", "#3"), "3", "a unit written in the number suffix");
  assert.equal(unit("", "5", "#3"), "5", "the unit column wins");
});

test("county spellings of street types: normalized on both sides, split off a whole street", () => {
  assert.equal(normalizeSuffix("Crt"), "CT");
  assert.equal(normalizeSuffix("CI"), "CIR");
  assert.equal(normalizeSuffix("pz"), "PLZ");
  assert.equal(normalizeSuffix("PKY"), "PKWY");
  assert.equal(normalizeSuffix("BL"), "BLVD");
  assert.equal(normalizeSuffix("TURN"), "TURN", "a type no table standardizes is kept");
  assert.deepEqual(splitStreet("Oak Crt"), {
    predirectional: "",
    streetName: "OAK",
    streetSuffix: "CT",
    postdirectional: "",
  });
  assert.deepEqual(splitStreet("Fox Run Turn"), {
    predirectional: "",
    streetName: "FOX RUN TURN",
    streetSuffix: "",
    postdirectional: "",
  });
});

test("the generated county tables are up to date with data/parcels (run npm run generate:tables)", () => {
  const normalize = (text: string) => text.replace(/\s+/g, "").replace(/,([\]}])/g, "$1");
  assert.ok(normalize(readFileSync(GENERATED_PARCEL_PATH, "utf8")) === normalize(renderTables("parcels")));
});

test("street names: Appendix F highway forms and the older ordinals meet the parser's spelling", () => {
  const cases: Array<[string, string]> = [
    ["US 89", "US HIGHWAY 89"],
    ["Hwy 65", "HIGHWAY 65"],
    ["CR 1185", "COUNTY ROAD 1185"],
    ["22D", "22ND"],
    ["3D", "3RD"],
    ["E 2D", "E 2ND"],
    ["12D", "12D"],
    ["22ND", "22ND"],
    ["MAIN", "MAIN"],
  ];
  for (const [raw, name] of cases) assert.equal(normalizeStreetName(raw), name, raw);
  assert.equal(splitStreet("Hwy 65").streetName, "HIGHWAY 65");
});
