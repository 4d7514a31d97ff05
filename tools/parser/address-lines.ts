/**
 * Deterministic generators of varied address lines for the parser benchmark and property tests:
 * every address type, suffix and designator spellings from the Publication 28 tables, commas or
 * none, mixed case, firms, highways, intersections and some noise.
 */
import {
  C1_STREET_SUFFIXES,
  C2_UNIT_VARIANTS,
  B_STATES,
  F_HIGHWAY_EXAMPLES,
} from "../../src/usps/generated-tables.js";
import { SeededRandom } from "../seeded-random.js";

/** Uniform numbers in [0, 1) from `seed`, the same sequence every time. */
function random(seed: number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.next();
}

const NAMES = [
  "MAIN",
  "OAK",
  "PARK",
  "LAKE SHORE",
  "MARTIN LUTHER KING JR",
  "5TH",
  "22ND",
  "ELM",
  "WASHINGTON",
  "CEDAR",
  "PINE",
  "MAPLE",
  "SUNSET",
  "HIGHLAND",
  "N",
  "NORTH",
  "CHURCH",
  "MILL",
  "RIVER",
  "SPRING",
  "VALLEY VIEW",
  "EL CAMINO",
  "SANTA ROSA",
  "OLD MILL",
  "BROADWAY",
  "MARKET",
  "FOREST HILL",
];
const CITIES = [
  "SPRINGFIELD",
  "NORTH LITTLE ROCK",
  "SAN FRANCISCO",
  "CEDAR RAPIDS",
  "LAKE FOREST",
  "AUSTIN",
  "NEW YORK",
  "SALT LAKE CITY",
  "PARK CITY",
  "WEST PALM BEACH",
  "CHICAGO",
  "FORT WORTH",
  "MIAMI",
  "BOISE",
  "ANYTOWN",
  "SAINT PAUL",
  "ST LOUIS",
  "COLORADO SPRINGS",
  "OAK PARK",
  "EAST LANSING",
];
const DIRECTIONS = ["N", "S", "E", "W", "NE", "NW", "SE", "SW", "NORTH", "SOUTH", "EAST", "WEST"];
const FIRMS = ["ACME CORP", "SMITH & SONS INC", "ATTN BILLING", "C/O JANE DOE", "FIRST NATIONAL BANK"];

type Pick = <T>(items: readonly T[]) => T;

function street(pick: Pick, chance: (p: number) => boolean, rnd: () => number): string {
  const parts: string[] = [String(1 + Math.floor(rnd() * 99999))];
  if (chance(0.05)) parts.push("1/2");
  if (chance(0.3)) parts.push(pick(DIRECTIONS));
  if (chance(0.06)) {
    parts.push(pick(F_HIGHWAY_EXAMPLES)[0]!);
  } else {
    parts.push(pick(NAMES));
    if (chance(0.9)) parts.push(pick(C1_STREET_SUFFIXES)[0]!);
  }
  if (chance(0.1)) parts.push(pick(DIRECTIONS.slice(0, 8)));
  if (chance(0.25))
    parts.push(`${pick(C2_UNIT_VARIANTS)[0]!} ${Math.floor(rnd() * 999)}${chance(0.3) ? "B" : ""}`);
  return parts.join(" ");
}

function delivery(pick: Pick, chance: (p: number) => boolean, rnd: () => number): string {
  const kind = rnd();
  const n = () => String(1 + Math.floor(rnd() * 9999));
  if (kind < 0.08) return `${pick(["PO BOX", "P.O. Box", "POB", "Post Office Box", "BOX"])} ${n()}`;
  if (kind < 0.12) return `${pick(["RR", "Rural Route", "HC", "RFD"])} ${n()} Box ${n()}`;
  if (kind < 0.14) return `PSC ${n()} Box ${n()}`;
  if (kind < 0.15) return "General Delivery";
  if (kind < 0.17) return `${pick(NAMES)} St & ${pick(NAMES)} Ave`;
  if (kind < 0.19) return `${street(pick, chance, rnd)} PO Box ${n()}`;
  const line = street(pick, chance, rnd);
  return chance(0.05) ? `${pick(FIRMS)}, ${line}` : line;
}

/** `count` varied lines from `seed`; the same arguments give the same lines. */
export function generateLines(count: number, seed = 28): string[] {
  const rnd = random(seed);
  const pick: Pick = (items) => items[Math.floor(rnd() * items.length)]!;
  const chance = (p: number) => rnd() < p;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const comma = chance(0.5) ? ", " : " ";
    const parts = [delivery(pick, chance, rnd)];
    if (chance(0.85)) parts.push(pick(CITIES));
    const state = pick(B_STATES);
    if (chance(0.85)) parts.push(chance(0.8) ? state[1]! : state[0]!);
    let line = parts.join(comma);
    if (chance(0.8))
      line += ` ${String(Math.floor(rnd() * 99999)).padStart(5, "0")}${chance(0.2) ? "-1234" : ""}`;
    if (chance(0.3)) line = line.toLowerCase();
    if (chance(0.02)) line = `${line} ${String.fromCharCode(33 + Math.floor(rnd() * 90))}??`;
    lines.push(line);
  }
  return lines;
}

/** Lines of exactly 256 characters built to stress the rules: repetition, digits, suffix runs. */
export function worstCaseLines(): string[] {
  const fill = (unit: string) => unit.repeat(Math.ceil(256 / unit.length)).slice(0, 256);
  const rnd = random(7);
  const noise = Array.from({ length: 256 }, () => String.fromCharCode(32 + Math.floor(rnd() * 95))).join("");
  return [
    fill("ST "),
    fill("123 "),
    fill("APT 1 "),
    fill("# "),
    fill("N "),
    fill("HWY 6 "),
    fill("PO BOX 1 "),
    fill("RR 2 BOX 3 "),
    fill("MAIN ST & "),
    fill("A, "),
    fill("NEW YORK "),
    fill("12345 "),
    fill("PARK PLACE DR "),
    fill("1/2 "),
    fill("I-10 "),
    fill("X"),
    fill("9"),
    fill(","),
    fill("ñ"),
    // Shapes that make the rules look back or ahead: directionals, bare numbers, county roads,
    // military names, Spanish articles, grid parts, recipients.
    fill("N 1 "),
    fill("ST 1 "),
    fill("N ST "),
    fill("COUNTY RD 1 "),
    fill("ARMED FORCES "),
    fill("SE CEDAR "),
    fill("NEW YORK NY "),
    fill("RR 1 BOX 2 A "),
    fill("ST LOUIS "),
    fill("CALLE DE LA "),
    fill("W1 N1 "),
    fill("ATTN "),
    noise,
    `123 ${fill("MAIN ").slice(0, 230)} ST SPRINGFIELD IL 62701`.slice(0, 256),
  ];
}
