import { nationalGazetteer } from "../../src/places/gazetteer.js";
import type { WordPlace } from "../../src/places/place-words.js";
import type { CorpusToken } from "../../src/parse/corpus/read-labelled-corpus.js";
import type { Label } from "../../src/parse/labels.js";
import {
  B_DIRECTIONALS,
  B_STATES,
  B_STATE_VARIANTS,
  C1_STREET_SUFFIXES,
  C2_UNIT_DESIGNATORS,
  C2_UNIT_VARIANTS,
  F_HIGHWAY_EXAMPLES,
  H_SPANISH_PREFIXES,
} from "../../src/usps/generated-tables.js";
import { designatorNeedsNumber, standardUnitDesignator } from "../../src/usps/usps.js";
import { labelBySpans, type LabelledLine } from "./labelled-corpus.js";
import { SeededRandom } from "../seeded-random.js";

/**
 * Synthetic labelled addresses for training (never for scoring): every address type of the
 * spec rendered from real places of the gazetteer, with the noise real lines have: case,
 * missing or extra commas and periods, abbreviation variants, ZIP+4, extra spaces.
 * Deterministic: the same count and seed give the same lines.
 */
type Part = [text: string, label: Label];
/** A field: parts written together; fields are separated by a space or a comma. */
type Field = Part[];

const STREET_WORDS = [
  "MAIN",
  "OAK",
  "PARK",
  "ELM",
  "MAPLE",
  "PINE",
  "CEDAR",
  "LAKE",
  "HILL",
  "WASHINGTON",
  "LINCOLN",
  "JEFFERSON",
  "MADISON",
  "CHURCH",
  "MILL",
  "SPRING",
  "RIVER",
  "HIGHLAND",
  "SUNSET",
  "MARTIN LUTHER KING JR",
  "BROADWAY",
  "MARKET",
  "WATER",
  "UNION",
  "CENTER",
  "COLLEGE",
  "FOREST",
  "GREEN",
  "VALLEY",
  "RIDGE",
  "MEADOW",
  "WILLOW",
  "JACKSON",
  "FRANKLIN",
  "CHESTNUT",
  "WALNUT",
  "DOGWOOD",
  "MAGNOLIA",
  "PEACHTREE",
  "OLD MILL",
  "COUNTRY CLUB",
  "SCHOOL",
  "STATE",
  "ST JAMES",
  "LA SALLE",
  "DE LA VINA",
];
const FIRM_TAILS = [
  "INC",
  "LLC",
  "CORP",
  "CO",
  "COMPANY",
  "BANK",
  "HOSPITAL",
  "SCHOOL",
  "ASSOCIATES",
  "GROUP",
  "SERVICES",
  "CENTER",
  "CLINIC",
  "LAW OFFICES",
  "PLAZA",
  "TOWER",
  "BUILDING",
  "MEDICAL CENTER",
  "UNIVERSITY",
  "CHURCH",
];
const HIGHWAYS = [
  "HWY #",
  "HIGHWAY #",
  "STATE HIGHWAY #",
  "COUNTY ROAD #",
  "CR #",
  "US HIGHWAY #",
  "US #",
  "I-#",
  "INTERSTATE #",
  "STATE ROUTE #",
  "SR #",
  "FM #",
  "FARM TO MARKET #",
  "ROUTE #",
  "COUNTY HWY #",
  "STATE RD #",
];
const PO_BOX_FORMS = [
  "PO BOX",
  "P.O. BOX",
  "P O BOX",
  "POB",
  "POST OFFICE BOX",
  "BOX",
  "PO BOX",
  "DRAWER",
  "CALLER",
  "LOCKBOX",
  "PO BOX",
  "P.O. Box",
  "BIN",
];
const ROUTE_FORMS = [
  "RR",
  "RR",
  "R.R.",
  "RURAL ROUTE",
  "RFD",
  "RT",
  "HC",
  "HCR",
  "STAR ROUTE",
  "HIGHWAY CONTRACT",
];
const MILITARY = [
  ["PSC", "AE", "09"],
  ["UNIT", "AE", "09"],
  ["CMR", "AE", "09"],
  ["PSC", "AP", "96"],
  ["UNIT", "AP", "96"],
  ["PSC", "AA", "340"],
] as const;
const INTERSECTIONS = ["&", "AND", "AT", "@"];
const URBANIZATION_NAMES = [
  "LAS GLADIOLAS",
  "VILLA CAROLINA",
  "LOS ALAMOS",
  "SANTA ROSA",
  "EL PARAISO",
  "JARDINES DE CAPARRA",
  "SAN ANTONIO",
  "LA CUMBRE",
];

const column = (rows: ReadonlyArray<readonly string[]>, i: number) => rows.map((row) => row[i] ?? "");
const SUFFIX_FORMS = [...column(C1_STREET_SUFFIXES, 0), ...column(C1_STREET_SUFFIXES, 1)];
const COMMON_SUFFIXES = [
  "ST",
  "STREET",
  "AVE",
  "AVENUE",
  "RD",
  "ROAD",
  "DR",
  "DRIVE",
  "LN",
  "LANE",
  "BLVD",
  "CT",
  "WAY",
  "PL",
  "CIR",
  "PKWY",
  "HWY",
  "TER",
  "TRL",
];
const DIRECTIONS = [...column(B_DIRECTIONALS, 0), ...column(B_DIRECTIONALS, 1), ...column(B_DIRECTIONALS, 1)];
const UNIT_FORMS = [
  ...column(C2_UNIT_DESIGNATORS, 0),
  ...column(C2_UNIT_DESIGNATORS, 1),
  ...column(C2_UNIT_VARIANTS, 0),
  "APT",
  "APT",
  "STE",
  "SUITE",
  "UNIT",
  "#",
  "#",
];
const STATE_NAMES = new Map<string, string[]>();
for (const [name, code] of [...B_STATES, ...B_STATE_VARIANTS])
  STATE_NAMES.set(code ?? "", [...(STATE_NAMES.get(code ?? "") ?? []), name ?? ""]);

class Generator {
  private readonly places: readonly WordPlace[];
  private readonly nameWords: string[];

  constructor(private readonly random: SeededRandom) {
    const gazetteer = nationalGazetteer().placeWords();
    this.places = gazetteer.places.filter((place) => !["AA", "AE", "AP"].includes(place.state));
    this.nameWords = [...new Set(this.places.map((place) => place.city))]
      .filter((city) => /^[A-Z ]+$/.test(city))
      .sort();
  }

  line(): LabelledLine | undefined {
    const r = this.random;
    const kind = r.next();
    const place = r.pick(this.places);
    let fields: Field[];
    if (kind < 0.6) fields = this.streetLine(place);
    else if (kind < 0.72) fields = [this.poBox(), ...this.lastLine(place)];
    else if (kind < 0.78) fields = [this.ruralRoute(), ...this.lastLine(place)];
    else if (kind < 0.82) fields = this.military();
    else if (kind < 0.84) fields = [[["GENERAL DELIVERY", "generalDelivery"]], ...this.lastLine(place)];
    else if (kind < 0.87) fields = [...this.street(), this.poBox(), ...this.lastLine(place)];
    else if (kind < 0.9) fields = this.puertoRico();
    else if (kind < 0.93) fields = this.intersection(place);
    else if (kind < 0.96) fields = [[[this.firm(), "firm"]], ...this.streetLine(place)];
    else fields = this.street();
    return this.render(fields);
  }

  private streetLine(place: WordPlace): Field[] {
    const fields = this.street();
    if (this.random.chance(0.25)) fields.push(this.unit());
    if (this.random.chance(0.03)) fields.push(this.unit());
    return [...fields, ...(this.random.chance(0.9) ? this.lastLine(place) : [])];
  }

  /** House number, directionals, name, suffix: `1234 N OAK ST`, `10 HWY 6`, `150 CALLE A`. */
  private street(): Field[] {
    const r = this.random;
    const field: Field = [[this.houseNumber(), "addressNumber"]];
    if (r.chance(0.04))
      field.push([r.chance(0.7) ? "1/2" : String.fromCharCode(r.int(65, 68)), "addressNumberSuffix"]);
    const style = r.next();
    if (style < 0.08) {
      // Appendix F forms in use (`HWY 11 BYPASS`, `CNTY RD 33`) or generated ones: all street name.
      const form = r.chance(0.4)
        ? (r.pick(F_HIGHWAY_EXAMPLES)[0] ?? "HWY 1")
        : r.pick(HIGHWAYS).replace("#", String(r.int(1, 999)));
      field.push([form, "streetName"]);
      if (r.chance(0.2)) field.push([r.pick(DIRECTIONS), "postdirectional"]);
      return [field];
    }
    if (style < 0.12) {
      field.push([`${r.pick(column(H_SPANISH_PREFIXES, 0))} ${this.streetName()}`, "streetName"]);
      return [field];
    }
    if (r.chance(0.22)) field.push([this.abbreviated(r.pick(DIRECTIONS)), "predirectional"]);
    if (style < 0.15)
      field.push([`${r.pick(["AVENUE", "AVE"])} ${String.fromCharCode(r.int(65, 90))}`, "streetName"]);
    else field.push([this.streetName(), "streetName"]);
    // A suffix word before the suffix stays in the name (DECISIONS.md "Suffix": PARK PLACE DR).
    if (r.chance(0.05)) field.push([r.pick(SUFFIX_FORMS), "streetName"]);
    if (r.chance(0.9))
      field.push([
        this.abbreviated(r.chance(0.6) ? r.pick(COMMON_SUFFIXES) : r.pick(SUFFIX_FORMS)),
        "streetSuffix",
      ]);
    if (r.chance(0.1)) field.push([this.abbreviated(r.pick(DIRECTIONS)), "postdirectional"]);
    return [field];
  }

  private houseNumber(): string {
    const r = this.random;
    const digits = String(r.int(1, 10 ** r.int(1, 5) - 1));
    const style = r.next();
    if (style < 0.04) return `${digits}${String.fromCharCode(r.int(65, 72))}`;
    if (style < 0.06) return `${r.int(10, 250)}-${r.int(1, 99)}`;
    if (style < 0.07) return `N${r.int(1, 99)}W${r.int(1000, 29999)}`;
    return digits;
  }

  private streetName(): string {
    const r = this.random;
    const style = r.next();
    if (style < 0.25) return ordinal(r.int(1, 150));
    if (style < 0.55) return r.pick(STREET_WORDS);
    if (style < 0.6) return r.pick(["ONE", "TWO", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH"]);
    return r.pick(this.nameWords);
  }

  private unit(): Field {
    const r = this.random;
    const id = r.chance(0.6)
      ? String(r.int(1, 2999))
      : r.chance(0.5)
        ? `${r.int(1, 30)}${String.fromCharCode(r.int(65, 70))}`
        : String.fromCharCode(r.int(65, 72));
    if (r.chance(0.06)) return [[id, "occupancyId"]];
    const type = this.abbreviated(r.pick(UNIT_FORMS));
    // Appendix C2: BSMT, FRNT, LBBY, LOWR, OFC, PH, REAR, SIDE, UPPR take no number.
    const standard = standardUnitDesignator(type.replace(".", ""));
    if (standard !== undefined && !designatorNeedsNumber(standard)) return [[type, "occupancyType"]];
    if (r.chance(0.05))
      return [
        [id, "occupancyId"],
        [type, "occupancyType"],
      ];
    return [
      [type, "occupancyType"],
      [id, "occupancyId"],
    ];
  }

  private poBox(): Field {
    const r = this.random;
    const id = r.chance(0.1) ? `0${r.int(1, 999)}` : String(r.int(1, 99999));
    const form = r.pick(PO_BOX_FORMS);
    return r.chance(0.05)
      ? [
          [form.replace(/ /g, "").replace(/\./g, ""), "poBoxType"],
          [id, "poBoxId"],
        ]
      : [
          [form, "poBoxType"],
          [id, "poBoxId"],
        ];
  }

  private ruralRoute(): Field {
    const r = this.random;
    // The box of a route is labelled as the corpus labels it (BOX poBoxType, number poBoxId);
    // assembly puts it into ruralRouteId (`2 BOX 152`, DECISIONS.md "Rural route").
    const field: Field = [
      [r.pick(ROUTE_FORMS), "ruralRouteType"],
      [String(r.int(1, 40)), "ruralRouteId"],
    ];
    if (r.chance(0.85))
      field.push([r.pick(["BOX", "Box", "BX"]), "poBoxType"], [String(r.int(1, 9999)), "poBoxId"]);
    return field;
  }

  private military(): Field[] {
    const r = this.random;
    const [group, state, zipStart] = r.pick(MILITARY);
    const zip =
      zipStart + String(r.int(0, 10 ** (5 - zipStart.length) - 1)).padStart(5 - zipStart.length, "0");
    const city = state === "AA" ? "APO" : r.pick(["APO", "FPO", "DPO", "APO"]);
    return [
      [
        [group, "ruralRouteType"],
        [String(r.int(100, 9999)), "ruralRouteId"],
        ["BOX", "poBoxType"],
        [String(r.int(1, 9999)), "poBoxId"],
      ],
      [[city, "city"]],
      [
        [state, "state"],
        [zip, "zip5"],
      ],
    ];
  }

  private puertoRico(): Field[] {
    const r = this.random;
    const fields: Field[] = [
      [[`${r.pick(["URB", "URB.", "URBANIZACION"])} ${r.pick(URBANIZATION_NAMES)}`, "urbanization"]],
    ];
    fields.push([
      [String(r.int(1, 2500)), "addressNumber"],
      [`CALLE ${r.chance(0.5) ? String.fromCharCode(r.int(65, 90)) : r.pick(this.nameWords)}`, "streetName"],
    ]);
    const city = r.pick(["SAN JUAN", "CAROLINA", "BAYAMON", "PONCE", "CAGUAS", "GUAYNABO"]);
    fields.push(
      [[city, "city"]],
      [
        ["PR", "state"],
        [`00${r.int(600, 988)}`, "zip5"],
      ],
    );
    return fields;
  }

  private intersection(place: WordPlace): Field[] {
    const r = this.random;
    const first: Field = [
      [this.streetName(), "streetName"],
      [r.pick(COMMON_SUFFIXES), "streetSuffix"],
    ];
    const second: Field = [
      [this.streetName(), "streetName"],
      [r.pick(COMMON_SUFFIXES), "streetSuffix"],
    ];
    const joiner: Part = [r.pick(INTERSECTIONS), "intersection"];
    const lead: Field = r.chance(0.2) ? [["CORNER OF", "intersection"]] : [];
    return [[...lead, ...first, joiner, ...second], ...this.lastLine(place)];
  }

  private firm(): string {
    const r = this.random;
    return `${r.pick(this.nameWords)} ${r.pick(FIRM_TAILS)}`;
  }

  /** City, state, ZIP with parts left out now and then; the state as code, name or variant. */
  private lastLine(place: WordPlace): Field[] {
    const r = this.random;
    const fields: Field[] = [];
    if (r.chance(0.95)) fields.push([[place.city, "city"]]);
    const last: Field = [];
    if (r.chance(0.92)) {
      const names = STATE_NAMES.get(place.state) ?? [];
      last.push([r.chance(0.85) || names.length === 0 ? place.state : r.pick(names), "state"]);
    }
    if (r.chance(0.85)) {
      last.push([place.zip5, "zip5"]);
      if (r.chance(0.15)) last.push([String(r.int(1, 9999)).padStart(4, "0"), "zip4"]);
    }
    if (last.length > 0) fields.push(last);
    return fields;
  }

  /** A directional, suffix or designator sometimes written with a period (`N.`, `Ave.`). */
  private abbreviated(word: string): string {
    return word.length <= 4 && word !== "#" && this.random.chance(0.12) ? `${word}.` : word;
  }

  /** Writes fields with the noise of real lines and labels the tokens through our tokenizer. */
  private render(fields: readonly Field[]): LabelledLine | undefined {
    const r = this.random;
    const caseStyle = r.next();
    const commas = r.next();
    let input = "";
    const spans: CorpusToken[] = [];
    fields.forEach((field, f) => {
      if (f > 0) input += commas < 0.55 ? ", " : commas < 0.65 && r.chance(0.5) ? "," + " " : " ";
      field.forEach(([text, label], p) => {
        if (p > 0) input += r.chance(0.03) ? "  " : label === "zip4" ? "-" : " ";
        const written = caseStyle < 0.5 ? text : caseStyle < 0.85 ? titleCase(text) : text.toLowerCase();
        spans.push({ text: written, label, start: input.length, end: input.length + written.length });
        input += written;
      });
    });
    return labelBySpans(input, spans);
  }
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${n}${suffix}`;
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

export function generateSynthetic(count: number, seed: number): LabelledLine[] {
  const generator = new Generator(new SeededRandom(seed));
  const lines: LabelledLine[] = [];
  while (lines.length < count) {
    const line = generator.line();
    if (line !== undefined) lines.push(line);
  }
  return lines;
}
