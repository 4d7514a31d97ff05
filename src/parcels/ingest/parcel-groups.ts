import type { IngestRow } from "../parcel-row.js";
import { addressKey, apnKey, EXACT_APN } from "../parcel-row.js";

/** Two different APNs of one county that share an identity key in one file: both are reported. */
export interface ApnConflict {
  file: string;
  line: number;
  apn: string;
  /** The first row of the other spelling. */
  otherFile: string;
  otherLine: number;
  otherApn: string;
}

/**
 * The rows of an ingest grouped by parcel (identity key, parcel-row.ts), parcels in the order they
 * were first seen. Keyed by FIPS, then by APN key (or `~` + address for APN-less data), so that a
 * parcel of one row (most) costs no list. Two spellings of one APN key in a file (`12-3`, `1-23`)
 * are two parcels, each keyed by key and spelling (`EXACT_APN`), and reported as a conflict.
 */
export class ParcelGroups {
  private readonly byCounty = new Map<string, Map<string, number>>();
  /** The first row of every parcel, by parcel number. */
  private readonly first: IngestRow[] = [];
  /** Every row of the parcels that have more than one. */
  private readonly more = new Map<number, IngestRow[]>();
  /** `fips\tapnKey` of the keys written in more than one way in this ingest, and their first row. */
  private readonly split = new Map<string, IngestRow>();
  readonly conflicts: ApnConflict[] = [];

  get size(): number {
    return this.first.length;
  }

  /** The FIPS codes of every county with a row. */
  counties(): string[] {
    return [...this.byCounty.keys()];
  }

  /** Adds a row to its parcel; answers the row the parcel already has at this exact address, if any. */
  add(row: IngestRow): IngestRow | undefined {
    let county = this.byCounty.get(row.fips);
    if (!county) this.byCounty.set(row.fips, (county = new Map()));
    const key = this.keyOf(county, row);
    const parcel = county.get(key);
    if (parcel === undefined) {
      county.set(key, this.first.length);
      this.first.push(row);
      return undefined;
    }
    const rows = this.rows(parcel);
    const address = addressKey(row);
    const same = rows.find((other) => addressKey(other) === address);
    if (same) return same;
    if (rows.length === 1) this.more.set(parcel, [...rows, row]);
    else rows.push(row);
    return undefined;
  }

  /** The key of a row's parcel within its county, splitting an APN key met in a second spelling. */
  private keyOf(county: Map<string, number>, row: IngestRow): string {
    if (row.apn === "") return `~${addressKey(row)}`;
    const key = apnKey(row.apn);
    if (this.split.size > 0 && this.split.has(`${row.fips}\t${key}`)) return this.exactKey(county, key, row);
    const parcel = county.get(key);
    const first = parcel === undefined ? undefined : this.first[parcel];
    if (!first || first.apn === row.apn) return key;
    this.split.set(`${row.fips}\t${key}`, first);
    county.delete(key);
    county.set(`${key}${EXACT_APN}${first.apn}`, parcel!);
    return this.exactKey(county, key, row);
  }

  /** The exact key of a row whose APN key is split; a new spelling is reported as a conflict. */
  private exactKey(county: Map<string, number>, key: string, row: IngestRow): string {
    const exact = `${key}${EXACT_APN}${row.apn}`;
    const first = this.split.get(`${row.fips}\t${key}`);
    if (first && !county.has(exact)) {
      this.conflicts.push({
        file: row.file,
        line: row.line,
        apn: row.apn,
        otherFile: first.file,
        otherLine: first.line,
        otherApn: first.apn,
      });
    }
    return exact;
  }

  /** The rows of parcel number `parcel`, in input order. */
  rows(parcel: number): IngestRow[] {
    const first = this.first[parcel];
    return this.more.get(parcel) ?? (first ? [first] : []);
  }

  /** The first row of parcel number `parcel`. */
  firstRow(parcel: number): IngestRow {
    const row = this.first[parcel];
    if (!row) throw new RangeError(`no parcel ${parcel}`);
    return row;
  }

  /** Whether parcel `parcel` has more than one row. */
  hasSeveralRows(parcel: number): boolean {
    return this.more.has(parcel);
  }

  /** The identity key (parcel-row.ts `identityKey`, or its exact form) of parcel `parcel`. */
  identityKey(parcel: number): string {
    const row = this.firstRow(parcel);
    if (row.apn === "") return `${row.fips}\t~${addressKey(row)}`;
    const key = apnKey(row.apn);
    return this.split.has(`${row.fips}\t${key}`)
      ? `${row.fips}\t${key}${EXACT_APN}${row.apn}`
      : `${row.fips}\t${key}`;
  }

  /** The number of the parcel with identity key `key` (parcel-row.ts `identityKey`), if present. */
  find(key: string): number | undefined {
    const tab = key.indexOf("\t");
    return this.byCounty.get(key.slice(0, tab))?.get(key.slice(tab + 1));
  }

  /**
   * Whether a parcel of the previous build (its identity key and APN as written) is here: by the
   * same key, or by its exact spelling when this ingest split the key, or, for a previous parcel
   * keyed by its spelling, by the plain key spelled the same way.
   */
  holds(key: string, apn: string): boolean {
    return this.successorOf(key, apn) !== undefined;
  }

  /** The number of the parcel that continues a previous build's parcel (see `holds`). */
  successorOf(key: string, apn: string): number | undefined {
    const exact = key.indexOf(EXACT_APN);
    if (exact === -1)
      return this.find(key) ?? (apn === "" ? undefined : this.find(`${key}${EXACT_APN}${apn}`));
    const same = this.find(key);
    if (same !== undefined) return same;
    const plain = this.find(key.slice(0, exact));
    return plain !== undefined && this.firstRow(plain).apn === apn ? plain : undefined;
  }
}
