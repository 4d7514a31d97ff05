import assert from "node:assert/strict";
import { test } from "node:test";
import {
  cleanText,
  normalizeDirectional,
  normalizeState,
  normalizeSuffix,
  normalizeUnitId,
  normalizeUnitType,
  normalizeZip,
  splitNumber,
  splitStreet,
} from "../../src/parcels/normalize.js";

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

test("house numbers: fractions go to the suffix, hyphenated and alphanumeric numbers stay whole", () => {
  assert.deepEqual(splitNumber("123 1/2"), { addressNumber: "123", addressNumberSuffix: "1/2" });
  assert.deepEqual(splitNumber("112-10"), { addressNumber: "112-10", addressNumberSuffix: "" });
  assert.deepEqual(splitNumber("N6W23001"), { addressNumber: "N6W23001", addressNumberSuffix: "" });
});
