import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Gazetteer } from "../../src/places/gazetteer.js";
import type { LookupRequest } from "../../src/parcels/lookup-types.js";
import type { CanonicalRow } from "./index-fixtures.js";
import { lookupFixture } from "./index-fixtures.js";

/**
 * Property (docs/lookup.md "Contradictions"): no answer is `matched` or `matched_building` at 0.9
 * or more with a top-level parcel whose recorded number suffix, unit, street suffix or
 * predirectional contradicts one the query gave. Small random indexes hold the streets counties
 * write in several ways (N RIDGE, FOX RUN TURN next to FOX RUN CIR, FOX RUN as FOX + RUN), each
 * row spelled the way some county would; queries spell what they give the ways callers and the
 * parser do. The oracle compares meanings (what each side recorded or gave), not spellings.
 */
const GAZETTEER = new Gazetteer([{ zip5: "94704", city: "BERKELEY", state: "CA", lat: 37.87, lon: -122.26 }]);

/** A street as meant: predirectional, name words, suffix (Pub 28 standard, or a local type word). */
interface Street {
  pre: string;
  name: string;
  suffix: string;
}
const STREETS: Street[] = [
  { pre: "", name: "MAIN", suffix: "ST" },
  { pre: "", name: "MAIN", suffix: "AVE" },
  { pre: "N", name: "RIDGE", suffix: "RD" },
  { pre: "S", name: "RIDGE", suffix: "RD" },
  { pre: "", name: "RIDGE", suffix: "RD" },
  { pre: "", name: "FOX RUN", suffix: "TURN" },
  { pre: "", name: "FOX RUN", suffix: "CIR" },
  { pre: "", name: "FOX", suffix: "RUN" },
  { pre: "", name: "OAK", suffix: "CT" },
  { pre: "", name: "ELM", suffix: "" },
];
const NUMBERS = ["10", "12"];
const LETTERS = ["", "A", "B"];
const UNITS = ["", "1", "REAR", "FRNT"];
const DIRECTION_WORDS: Record<string, string> = { N: "NORTH", S: "SOUTH" };
const SUFFIX_SPELLINGS: Record<string, string[]> = {
  ST: ["ST", "Street"],
  AVE: ["AVE", "Av", "Avenue"],
  RD: ["RD", "Road"],
  CIR: ["CIR", "Circle", "CI"],
  CT: ["CT", "Court", "CRT"],
  RUN: ["RUN"],
  TURN: ["TURN", "Turn"],
};
const UNIT_SPELLINGS: Record<string, Array<Pick<CanonicalRow, "occupancyType" | "occupancyId">>> = {
  "1": [{ occupancyId: "1" }, { occupancyType: "APT", occupancyId: "#1" }],
  REAR: [
    { occupancyId: "Rear" },
    { occupancyId: "RR" },
    { occupancyId: "#Rear" },
    { occupancyId: "Unit Rear" },
    { occupancyType: "Rear" },
    { occupancyType: "REAR", occupancyId: "#" },
  ],
  FRNT: [
    { occupancyId: "Front" },
    { occupancyType: "FRNT" },
    { occupancyType: "Unit", occupancyId: "Front" },
  ],
};

/** A parcel or a query as meant, and how its text is spelled (`spelling` picks among the ways). */
interface Address {
  street: Street;
  number: string;
  letter: string;
  unit: string;
  spelling: number[];
}
const address = (letters: string[], numbers: string[]) =>
  fc.record({
    street: fc.constantFrom(...STREETS),
    number: fc.constantFrom(...numbers),
    letter: fc.constantFrom(...letters),
    unit: fc.constantFrom(...UNITS),
    spelling: fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }),
  });

const pick = <T>(options: T[], choice: number): T => options[choice % options.length]!;

/** A row as some county writes it. */
function spellRow(apn: string, a: Address): CanonicalRow {
  const [pre, suffix, letter, unit, suffixWord] = a.spelling as [number, number, number, number, number];
  const row: CanonicalRow = { apn, fips: "06001", city: "BERKELEY", state: "CA", zip5: "94704" };
  row.streetName = a.street.name;
  if (a.street.pre !== "" && pre % 3 === 0)
    row.streetName = `${DIRECTION_WORDS[a.street.pre]} ${a.street.name}`;
  else if (a.street.pre !== "" && pre % 3 === 1) row.streetName = `${a.street.pre} ${a.street.name}`;
  else row.predirectional = a.street.pre;
  const suffixSpelling = pick(SUFFIX_SPELLINGS[a.street.suffix] ?? [""], suffixWord);
  if (a.street.suffix !== "" && suffix % 3 === 0) row.streetName += ` ${a.street.suffix}`;
  else row.streetSuffix = suffixSpelling;
  row.addressNumber = a.number;
  if (a.letter !== "" && letter % 3 === 0) row.addressNumber = `${a.number}${a.letter}`;
  else if (a.letter !== "" && letter % 3 === 1) row.addressNumber = `${a.number}-${a.letter}`;
  else row.addressNumberSuffix = a.letter;
  if (a.unit === "1" && a.letter === "" && unit % 2 === 0)
    row.addressNumberSuffix = "#1"; // Yuba County
  else if (a.unit !== "") Object.assign(row, pick(UNIT_SPELLINGS[a.unit]!, unit));
  return row;
}

/** What a query gives, as meant: a component left out is undefined. */
interface Given {
  pre?: string;
  suffix?: string;
  letter?: string;
  unit?: string;
}

/** A query as a caller or the parser writes it, and what it gives. */
function spellQuery(a: Address, omit: number): { request: Partial<LookupRequest>; given: Given } {
  const [pre, suffix, letter, unit, suffixWord] = a.spelling as [number, number, number, number, number];
  const given: Given = {};
  const request: Partial<LookupRequest> = { streetName: a.street.name, addressNumber: a.number };
  if (a.street.pre !== "" && !(omit & 1)) {
    given.pre = a.street.pre;
    if (pre % 4 === 0) request.streetName = `${DIRECTION_WORDS[a.street.pre]} ${a.street.name}`;
    else if (pre % 4 === 1) request.streetName = `${a.street.pre} ${a.street.name}`;
    else request.predirectional = pick([a.street.pre, DIRECTION_WORDS[a.street.pre]!], pre);
  }
  if (a.street.suffix !== "" && !(omit & 2)) {
    // Joined into the name, the word is part of the name as far as the query says.
    if (suffix % 4 === 0) request.streetName += ` ${a.street.suffix}`;
    else {
      given.suffix = a.street.suffix;
      request.streetSuffix = pick(SUFFIX_SPELLINGS[a.street.suffix]!, suffixWord);
    }
  }
  if (a.letter !== "" && !(omit & 4)) {
    given.letter = a.letter;
    if (letter % 4 === 0) request.addressNumber = `${a.number}${a.letter}`;
    else if (letter % 4 === 1) request.addressNumber = `${a.number} ${a.letter}`;
    else if (letter % 4 === 2 && request.streetName === a.street.name)
      request.streetName = `${a.letter} ${a.street.name}`;
    else request.addressNumberSuffix = a.letter;
  }
  if (a.unit !== "" && !(omit & 8)) {
    given.unit = a.unit;
    Object.assign(request, pick(UNIT_SPELLINGS[a.unit]!, unit + 1));
  }
  if (omit & 16) delete request.addressNumber;
  return { request, given };
}

/** The components of `given` that the parcel `meant` records differently or not at all. */
function contradictions(meant: Address, given: Given): string[] {
  return [
    given.pre !== undefined && given.pre !== meant.street.pre && "predirectional",
    given.suffix !== undefined && given.suffix !== meant.street.suffix && "suffix",
    given.letter !== undefined && given.letter !== meant.letter && "number suffix",
    given.unit !== undefined && given.unit !== meant.unit && "unit",
  ].filter((field): field is string => typeof field === "string");
}

test("no matched answer at 0.9 or more contradicts a component the query gave", async (t) => {
  const scenario = fc.record({
    parcels: fc.array(address(LETTERS, NUMBERS), { minLength: 1, maxLength: 10 }),
    queries: fc.array(
      fc.record({
        of: fc.nat(),
        other: address(LETTERS, NUMBERS),
        keep: fc.oneof({ arbitrary: fc.constant(15), weight: 3 }, { arbitrary: fc.nat(15), weight: 2 }),
        omit: fc.oneof(
          { arbitrary: fc.constant(0), weight: 2 },
          { arbitrary: fc.nat(15), weight: 2 },
          fc.nat(31),
        ),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  });
  /** A query about one of the parcels, with the components not in `keep` taken from another address. */
  const aimed = (parcels: Address[], q: { of: number; other: Address; keep: number }): Address => {
    const parcel = parcels[q.of % parcels.length]!;
    return {
      street: q.keep & 1 ? parcel.street : q.other.street,
      number: q.keep & 2 ? parcel.number : q.other.number,
      letter: q.keep & 4 ? parcel.letter : q.other.letter,
      unit: q.keep & 8 ? parcel.unit : q.other.unit,
      spelling: q.other.spelling,
    };
  };
  let asked = 0;
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async ({ parcels, queries }) => {
      const rows = parcels.map((parcel, i) => spellRow(`P${i}`, parcel));
      const { apnOf, lookup } = await lookupFixture(t, rows, { gazetteer: GAZETTEER });
      for (const query of queries) {
        const { request, given } = spellQuery(aimed(parcels, query), query.omit);
        const answer = await lookup(request);
        asked++;
        if (answer.status !== "matched" && answer.status !== "matched_building") continue;
        if (answer.matchConfidence < 0.9 || answer.service_id === null) continue;
        checked++;
        const apn = apnOf.get(answer.service_id) ?? "";
        const meant = parcels[Number(apn.slice(1))]!;
        const wrong = contradictions(meant, given);
        assert.deepEqual(
          wrong,
          [],
          `${JSON.stringify(request)} → ${apn} ${JSON.stringify(rows[Number(apn.slice(1))])} at ${answer.matchConfidence}`,
        );
      }
    }),
    { seed: 20261128, numRuns: 150 },
  );
  assert.ok(checked > asked / 5, `${checked} of ${asked} answers matched a parcel at 0.9 or more`);
});
