import type { TextField } from "../parcel-row.js";
import { TEXT_FIELDS } from "../parcel-row.js";
import type { ParcelStatus, StoredEntry } from "../parcel-row.js";
import { PARCEL_STATUSES } from "../parcel-row.js";
import { chunkOrder, textOrder } from "../entry-order.js";

/** A coordinate the entry does not have (chunk-format.ts stores coordinates as i32 × 1e-7 degrees). */
export const NO_COORDINATE = -0x80000000;
export const COORDINATE_SCALE = 1e7;
/** Flags byte of a row: bits 0-1 the status (PARCEL_STATUSES index), bit 2 alias. */
export const STATUS_BITS = 3;
export const ALIAS_FLAG = 4;
const STATUS_CODE = Object.fromEntries(PARCEL_STATUSES.map((status, i) => [status, i])) as Record<
  ParcelStatus,
  number
>;
const FIELD_INDEX = Object.fromEntries(TEXT_FIELDS.map((field, i) => [field, i])) as Record<
  TextField,
  number
>;

/**
 * The entries of one chunk as columns of numbers: what a chunk file (chunk-format.ts) and the
 * manifest's entry for it are written from.
 *
 * Each entry is read once, in the order given (at ingest, the order rows were read in, so
 * consecutive entries are neighbours in memory); the rows are then put in chunk order by moving
 * numbers in typed arrays, never by revisiting entries: a pass over 60,000 scattered row objects
 * costs a cache miss per row. Text values are numbered as the chunk's string table numbers them:
 * by first use, column after column in TEXT_FIELDS order, row after row; `""` is 0.
 *
 * One instance is reused for every chunk of a build, and its typed arrays with it: a new set per
 * chunk (about 200 bytes a row) is memory outside the JavaScript heap, which V8 counts towards
 * starting a full collection of the whole heap ("external memory pressure"); at ingest that heap
 * holds every row read, and a 1M-row ingest made one such collection more, about 0.5 CPU-seconds.
 * The fields below are set by `read`; the arrays are views valid until the next `read`.
 */
export class ChunkColumns {
  rows = 0;
  /** The chunk's string table. */
  strings: string[] = [""];
  /** rows × 16 bytes, the parcel IDs. */
  ids = new Uint8Array(0);
  /** 1e-7 degrees; NO_COORDINATE for none. */
  lats = new Int32Array(0);
  lons = new Int32Array(0);
  /** STATUS_BITS and ALIAS_FLAG. */
  flags = new Uint8Array(0);
  /** Each distinct building ID, in order of first use. */
  buildingIds: Uint8Array[] = [];
  /** Each row's building: 0 none, else its index in `buildingIds` + 1. */
  buildings = new Uint32Array(0);
  /** The rows with successors, ascending, and their successors' IDs. */
  successors: Array<readonly [number, readonly Uint8Array[]]> = [];
  /** TEXT_FIELDS order: each row's string number. */
  private text: Uint32Array[] = [];
  /** The rows in the order given, strings numbered in reading order. */
  private readonly given = new RowArrays();
  private readonly ordered = new RowArrays();
  private readonly scratch = new Scratch();

  /** Reads a chunk's entries, rows in chunk order (`entryOrder`, stored-entry.ts) or in the order given. */
  read(entries: readonly StoredEntry[], order: "sorted" | "given" = "sorted"): this {
    const rows = entries.length;
    const given = readEntries(entries, this.given);
    const scratch = this.scratch.reserve(rows, given.strings.length);
    let sequence: Uint32Array;
    if (order === "given") {
      sequence = scratch.order.subarray(0, rows);
      for (let row = 0; row < rows; row++) sequence[row] = row;
    } else {
      const names = this.given.column(FIELD_INDEX.streetName, rows);
      const numbers = houseNumbers(
        this.given.column(FIELD_INDEX.addressNumber, rows),
        given.strings,
        scratch,
      );
      sequence = chunkOrder(
        streetRanks(names, given.strings, scratch),
        numbers,
        columnOrder(this.given, rows, given.strings, numbers),
        scratch.order.subarray(0, rows),
        scratch.keys.subarray(0, rows),
      );
    }
    this.arrange(given, sequence);
    return this;
  }

  /** The string numbers of one text column, row by row. */
  column(field: TextField): Uint32Array {
    return this.text[FIELD_INDEX[field]]!;
  }

  status(row: number): ParcelStatus {
    return PARCEL_STATUSES[this.flags[row]! & STATUS_BITS] ?? "active";
  }

  isAlias(row: number): boolean {
    return (this.flags[row]! & ALIAS_FLAG) !== 0;
  }

  /**
   * Puts the rows read in their final order (`order[row]` is the row read that goes there), with
   * strings and buildings renumbered by first use in that order: the chunk file's numbering.
   */
  private arrange(given: GivenValues, order: Uint32Array): void {
    const rows = order.length;
    const from = this.given;
    const to = this.ordered.reserve(rows);
    const scratch = this.scratch;
    this.rows = rows;
    this.strings = renumberText(
      from,
      to,
      given.strings,
      order,
      scratch.perString.subarray(0, given.strings.length),
    );
    this.text = TEXT_FIELDS.map((_, field) => to.column(field, rows));
    const buildingNumber = scratch.perBuilding(given.buildingIds.length + 1);
    buildingNumber[0] = 0;
    this.buildingIds = [];
    const rowOf = scratch.rowOf;
    for (let row = 0; row < rows; row++) {
      const at = order[row]!;
      rowOf[at] = row;
      for (let k = 0; k < 4; k++) to.idWords[row * 4 + k] = from.idWords[at * 4 + k]!;
      to.lats[row] = from.lats[at]!;
      to.lons[row] = from.lons[at]!;
      to.flags[row] = from.flags[at]!;
      const building = from.buildings[at]!;
      let final = buildingNumber[building]!;
      if (final < 0) {
        this.buildingIds.push(given.buildingIds[building - 1]!);
        buildingNumber[building] = final = this.buildingIds.length;
      }
      to.buildings[row] = final;
    }
    this.ids = to.ids.subarray(0, rows * 16);
    this.lats = to.lats.subarray(0, rows);
    this.lons = to.lons.subarray(0, rows);
    this.flags = to.flags.subarray(0, rows);
    this.buildings = to.buildings.subarray(0, rows);
    this.successors = given.successorRows
      .map((at, i) => [rowOf[at]!, given.successorIds[i]!] as const)
      .sort(([a], [b]) => a - b);
  }
}

/** The per-row typed arrays of one chunk, grown as needed: one column after another in `text`. */
class RowArrays {
  capacity = 0;
  text = new Uint32Array(0);
  ids = new Uint8Array(0);
  /** `ids` as 32-bit words: an ID moves as four words, not sixteen bytes. */
  idWords = new Uint32Array(0);
  lats = new Int32Array(0);
  lons = new Int32Array(0);
  flags = new Uint8Array(0);
  buildings = new Uint32Array(0);

  reserve(rows: number): this {
    if (rows <= this.capacity) return this;
    const capacity = Math.max(rows, this.capacity * 2);
    this.capacity = capacity;
    this.text = new Uint32Array(TEXT_FIELDS.length * capacity);
    this.idWords = new Uint32Array(4 * capacity);
    this.ids = new Uint8Array(this.idWords.buffer);
    this.lats = new Int32Array(capacity);
    this.lons = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.buildings = new Uint32Array(capacity);
    return this;
  }

  column(field: number, rows: number): Uint32Array {
    return this.text.subarray(field * this.capacity, field * this.capacity + rows);
  }
}

/** Working arrays of ordering and renumbering, per row and per distinct string, grown as needed. */
class Scratch {
  keys = new Float64Array(0);
  order = new Uint32Array(0);
  ranks = new Uint32Array(0);
  numbers = new Float64Array(0);
  rowOf = new Uint32Array(0);
  perString = new Int32Array(0);
  parsed = new Float64Array(0);
  private buildings = new Int32Array(0);

  reserve(rows: number, strings: number): this {
    if (this.order.length < rows) {
      const capacity = Math.max(rows, this.order.length * 2);
      this.keys = new Float64Array(capacity);
      this.order = new Uint32Array(capacity);
      this.ranks = new Uint32Array(capacity);
      this.numbers = new Float64Array(capacity);
      this.rowOf = new Uint32Array(capacity);
    }
    if (this.perString.length < strings) {
      const capacity = Math.max(strings, this.perString.length * 2);
      this.perString = new Int32Array(capacity);
      this.parsed = new Float64Array(capacity);
    }
    return this;
  }

  /** `count` numbers, all -1. */
  perBuilding(count: number): Int32Array {
    if (this.buildings.length < count)
      this.buildings = new Int32Array(Math.max(count, this.buildings.length * 2));
    return this.buildings.subarray(0, count).fill(-1);
  }
}

/** What reading the entries gathers besides the typed arrays. */
interface GivenValues {
  /** Strings in reading order. */
  strings: string[];
  buildingIds: Uint8Array[];
  /** Rows with successors, ascending, and their successors. */
  successorRows: number[];
  successorIds: Uint8Array[][];
}

/** The string table being read: every distinct value gets the next number (`""` is 0). */
class StringNumbers {
  readonly values: string[] = [""];
  private readonly numbers = new Map<string, number>([["", 0]]);

  number(value: string): number {
    let number = this.numbers.get(value);
    if (number === undefined) {
      number = this.values.length;
      this.numbers.set(value, number);
      this.values.push(value);
    }
    return number;
  }
}

/**
 * One text column being read. Neighbouring rows often repeat a value (county, city, ZIP, and the
 * empty columns), so a repeat of the previous row's value costs no lookup.
 */
class TextColumn {
  private last = "";
  private lastNumber = 0;

  constructor(
    private readonly values: Uint32Array,
    private readonly strings: StringNumbers,
  ) {}

  set(row: number, value: string): void {
    if (value !== this.last) {
      this.last = value;
      this.lastNumber = this.strings.number(value);
    }
    this.values[row] = this.lastNumber;
  }
}

/**
 * Reads every entry once into `into`. Field by field by name, because `entry[field]` with a
 * variable `field` is a slow keyed load in V8.
 */
function readEntries(entries: readonly StoredEntry[], into: RowArrays): GivenValues {
  const rows = entries.length;
  into.reserve(rows);
  const strings = new StringNumbers();
  const text = TEXT_FIELDS.map((_, field) => new TextColumn(into.column(field, rows), strings));
  const [
    apn,
    fips,
    number,
    numberSuffix,
    pre,
    name,
    suffix,
    post,
    unitType,
    unitId,
    city,
    state,
    zip5,
    zip4,
  ] = text as [
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
    TextColumn,
  ];
  const { ids, lats, lons, flags } = into;
  const buildings = new BuildingNumbers(into.buildings);
  const successorRows: number[] = [];
  const successorIds: Uint8Array[][] = [];
  for (let row = 0; row < rows; row++) {
    const entry = entries[row]!;
    apn.set(row, entry.apn);
    fips.set(row, entry.fips);
    number.set(row, entry.addressNumber);
    numberSuffix.set(row, entry.addressNumberSuffix);
    pre.set(row, entry.predirectional);
    name.set(row, entry.streetName);
    suffix.set(row, entry.streetSuffix);
    post.set(row, entry.postdirectional);
    unitType.set(row, entry.occupancyType);
    unitId.set(row, entry.occupancyId);
    city.set(row, entry.city);
    state.set(row, entry.state);
    zip5.set(row, entry.zip5);
    zip4.set(row, entry.zip4);
    const id = entry.id;
    for (let k = 0; k < 16; k++) ids[row * 16 + k] = id[k]!;
    lats[row] = entry.lat === null ? NO_COORDINATE : Math.round(entry.lat * COORDINATE_SCALE);
    lons[row] = entry.lon === null ? NO_COORDINATE : Math.round(entry.lon * COORDINATE_SCALE);
    flags[row] = STATUS_CODE[entry.status] | (entry.alias ? ALIAS_FLAG : 0);
    buildings.set(row, entry.buildingId);
    if (entry.supersededBy.length > 0) {
      successorRows.push(row);
      successorIds.push(entry.supersededBy);
    }
  }
  return { strings: strings.values, buildingIds: buildings.ids, successorRows, successorIds };
}

/** Each row's building, numbered by ID bytes (1, 2, …; 0 none). */
class BuildingNumbers {
  readonly ids: Uint8Array[] = [];
  /** The entries of one building share one ID array (identity.ts): most rows are found by it. */
  private readonly byArray = new Map<Uint8Array, number>();
  private readonly byBytes = new Map<string, number>();

  constructor(private readonly values: Uint32Array) {}

  set(row: number, id: Uint8Array | null): void {
    if (!id) {
      this.values[row] = 0;
      return;
    }
    let number = this.byArray.get(id);
    if (number === undefined) {
      const key = Buffer.from(id.buffer, id.byteOffset, 16).toString("latin1");
      number = this.byBytes.get(key);
      if (number === undefined) {
        this.ids.push(id);
        this.byBytes.set(key, (number = this.ids.length));
      }
      this.byArray.set(id, number);
    }
    this.values[row] = number;
  }
}

/**
 * `entryOrder` (stored-entry.ts) on two rows read, from the columns: rows at one street number (a
 * building's units) are compared without visiting their entries, and a field whose rows hold the
 * same string number is equal without comparing text (numbers are per distinct string).
 */
function columnOrder(
  given: RowArrays,
  rows: number,
  strings: readonly string[],
  numbers: Float64Array,
): (a: number, b: number) => number {
  const column = (field: TextField): Uint32Array => given.column(FIELD_INDEX[field], rows);
  const [name, number, numberSuffix, suffix, pre, post, unit, apn] = (
    [
      "streetName",
      "addressNumber",
      "addressNumberSuffix",
      "streetSuffix",
      "predirectional",
      "postdirectional",
      "occupancyId",
      "apn",
    ] as const
  ).map(column) as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  const text = (values: Uint32Array, a: number, b: number): number =>
    values[a] === values[b] ? 0 : textOrder(strings[values[a]!]!, strings[values[b]!]!);
  return (a, b) =>
    text(name, a, b) ||
    numbers[a]! - numbers[b]! ||
    text(number, a, b) ||
    text(numberSuffix, a, b) ||
    text(suffix, a, b) ||
    text(pre, a, b) ||
    text(post, a, b) ||
    text(unit, a, b) ||
    text(apn, a, b);
}

/** Each row's street name as its rank among the chunk's names in `entryOrder`'s text order. */
function streetRanks(names: Uint32Array, strings: readonly string[], scratch: Scratch): Uint32Array {
  const rankOf = scratch.perString.subarray(0, strings.length).fill(-1);
  for (let row = 0; row < names.length; row++) rankOf[names[row]!] = 0;
  const distinct: number[] = [];
  for (let number = 0; number < strings.length; number++) if (rankOf[number] === 0) distinct.push(number);
  distinct.sort((a, b) => textOrder(strings[a]!, strings[b]!));
  distinct.forEach((number, rank) => (rankOf[number] = rank));
  const ranks = scratch.ranks.subarray(0, names.length);
  for (let row = 0; row < names.length; row++) ranks[row] = rankOf[names[row]!]!;
  return ranks;
}

/** Each row's house number as `numberOrder` compares it first (`parseInt`, 0 when none), parsed once a value. */
function houseNumbers(numbers: Uint32Array, strings: readonly string[], scratch: Scratch): Float64Array {
  const parsed = scratch.parsed.subarray(0, strings.length).fill(NaN);
  const values = scratch.numbers.subarray(0, numbers.length);
  for (let row = 0; row < numbers.length; row++) {
    const number = numbers[row]!;
    let value = parsed[number]!;
    if (Number.isNaN(value)) parsed[number] = value = parseInt(strings[number]!, 10) || 0;
    values[row] = value;
  }
  return values;
}

/** The text columns in their final order, strings renumbered by first use column after column. */
function renumberText(
  from: RowArrays,
  to: RowArrays,
  strings: readonly string[],
  order: Uint32Array,
  renumber: Int32Array,
): string[] {
  renumber.fill(-1);
  renumber[0] = 0;
  const final = [""];
  const rows = order.length;
  for (let field = 0; field < TEXT_FIELDS.length; field++) {
    const column = from.column(field, rows);
    const sorted = to.column(field, rows);
    for (let row = 0; row < rows; row++) {
      const number = column[order[row]!]!;
      let renumbered = renumber[number]!;
      if (renumbered < 0) {
        renumber[number] = renumbered = final.length;
        final.push(strings[number]!);
      }
      sorted[row] = renumbered;
    }
  }
  return final;
}
