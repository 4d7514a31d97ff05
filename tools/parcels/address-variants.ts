/**
 * Address lines as people write them, made from a parcel's recorded address: the variants of
 * `npm run eval:parcels`. Each variant is a function of the record (and a seeded random source for
 * typos) that answers the lines to try, or none when the record has nothing to vary.
 */
import { B_DIRECTIONALS, B_STATES, C2_UNIT_DESIGNATORS } from "../../src/usps/generated-tables.js";
import { suffixName } from "../../src/usps/usps.js";
import type { SeededRandom } from "../seeded-random.js";

export interface RecordAddress {
  addressNumber: string;
  addressNumberSuffix: string;
  predirectional: string;
  streetName: string;
  streetSuffix: string;
  postdirectional: string;
  occupancyType: string;
  occupancyId: string;
  city: string;
  state: string;
  zip5: string;
}

export const VARIANTS = ["clean", "spelled", "no_zip", "typo", "unit", "letter", "direction_word"] as const;
export type Variant = (typeof VARIANTS)[number];

/** Variants held to the 99% target; the others may miss only honestly. */
export const STRICT_VARIANTS: ReadonlySet<Variant> = new Set(["clean", "spelled", "no_zip"]);

/** Lot designators (Pub 28 C2 words that need no number) and how people write them. */
const LOT_SPELLINGS: Record<string, string[]> = {
  REAR: ["Rear", "RR", "#Rear", "Unit Rear"],
  FRNT: ["Front", "Frnt", "Unit Front"],
  UPPR: ["Upper", "Uppr"],
  LOWR: ["Lower", "Lowr"],
  BSMT: ["Basement", "Bsmt"],
  SIDE: ["Side", "Unit Side"],
};
const DIRECTION_WORDS = new Map(B_DIRECTIONALS.map(([word = "", abbreviation = ""]) => [abbreviation, word]));
const UNIT_NAMES = new Map(C2_UNIT_DESIGNATORS.map(([name = "", abbreviation = ""]) => [abbreviation, name]));
const STATE_NAMES = new Map(B_STATES.map(([name = "", code = ""]) => [code, name]));

interface Spelling {
  long: boolean;
  zip: boolean;
  number?: string;
  street?: string;
  unit?: string;
}

function unitOf(record: RecordAddress, long: boolean): string {
  const id = record.occupancyId;
  if (id === "") return record.occupancyType;
  if (LOT_SPELLINGS[id]) return long ? (UNIT_NAMES.get(id) ?? id) : id;
  const type = record.occupancyType;
  if (type === "" || type === "#") return `#${id}`;
  return `${long ? (UNIT_NAMES.get(type) ?? type) : type} ${id}`;
}

function numberOf(record: RecordAddress): string {
  const suffix = record.addressNumberSuffix;
  if (suffix === "") return record.addressNumber;
  return /^[A-Z]$/.test(suffix) ? `${record.addressNumber}${suffix}` : `${record.addressNumber} ${suffix}`;
}

function streetOf(record: RecordAddress, long: boolean): string {
  const direction = (value: string): string => (long ? (DIRECTION_WORDS.get(value) ?? value) : value);
  const suffix = long ? (suffixName(record.streetSuffix) ?? record.streetSuffix) : record.streetSuffix;
  return [direction(record.predirectional), record.streetName, suffix, direction(record.postdirectional)]
    .filter((part) => part !== "")
    .join(" ");
}

function line(record: RecordAddress, spelling: Spelling): string {
  const delivery = [
    spelling.number ?? numberOf(record),
    spelling.street ?? streetOf(record, spelling.long),
    spelling.unit ?? unitOf(record, spelling.long),
  ]
    .filter((part) => part !== "")
    .join(" ");
  const state = spelling.long ? (STATE_NAMES.get(record.state) ?? record.state) : record.state;
  const last = [state, spelling.zip ? record.zip5 : ""].filter((part) => part !== "").join(" ");
  const text = [delivery, record.city, last].filter((part) => part !== "").join(", ");
  return spelling.long ? text.toLowerCase() : text;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** One edit of a street name (substitution, insertion, deletion or swap), as typos are. */
function typo(name: string, random: SeededRandom): string {
  const i = Math.floor(random.next() * name.length);
  const letter = LETTERS[Math.floor(random.next() * LETTERS.length)] ?? "A";
  switch (Math.floor(random.next() * 4)) {
    case 0:
      return name.slice(0, i) + letter + name.slice(i + 1);
    case 1:
      return name.slice(0, i) + letter + name.slice(i);
    case 2:
      return name.slice(0, i) + name.slice(i + 1);
    default:
      return i + 1 < name.length
        ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)
        : name + letter;
  }
}

/** The lines of one variant for a record; `streets` are the street names of its ZIP. */
export function variantLines(
  variant: Variant,
  record: RecordAddress,
  random: SeededRandom,
  streets: ReadonlySet<string>,
): string[] {
  const clean: Spelling = { long: false, zip: true };
  switch (variant) {
    case "clean":
      return [line(record, clean)];
    case "spelled":
      return [line(record, { long: true, zip: true })];
    case "no_zip":
      return record.city === "" ? [] : [line(record, { long: false, zip: false })];
    case "typo": {
      if (!/^[A-Z]{5,}$/.test(record.streetName)) return [];
      const name = typo(record.streetName, random);
      if (streets.has(name)) return [];
      return [line(record, { ...clean, street: streetOf({ ...record, streetName: name }, false) })];
    }
    case "unit": {
      const id = record.occupancyId;
      if (id === "") return [];
      const spellings = LOT_SPELLINGS[id] ?? [`#${id}`, `# ${id}`, `Unit ${id}`, `Apt ${id}`];
      return spellings.map((unit) => line(record, { ...clean, unit }));
    }
    case "letter": {
      const suffix = record.addressNumberSuffix;
      if (!/^[A-Z]$/.test(suffix)) return [];
      return [`${record.addressNumber}${suffix}`, `${record.addressNumber} ${suffix}`].map((number) =>
        line(record, { ...clean, number }),
      );
    }
    case "direction_word": {
      const [first = "", ...rest] = record.streetName.split(" ");
      const abbreviation = [...DIRECTION_WORDS].find(([, word]) => word === first)?.[0];
      if (!abbreviation || rest.length === 0 || record.predirectional !== "") return [];
      const word = first[0] + first.slice(1).toLowerCase();
      return [`${word} ${rest.join(" ")}`, `${abbreviation} ${rest.join(" ")}`].map((name) =>
        line(record, { ...clean, street: streetOf({ ...record, streetName: name }, false) }),
      );
    }
  }
}
