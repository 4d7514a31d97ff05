import type { IngestRow } from "./parcel-row.js";
import { addressKey } from "./parcel-row.js";

/**
 * The rows of an ingest grouped by parcel (identity key, parcel-row.ts), parcels in the order they
 * were first seen. Keyed by FIPS, then by APN (or `~` + address for APN-less data), so that the
 * key of a parcel is a string its rows already hold, and a parcel of one row (most) costs no list.
 */
export class ParcelGroups {
  private readonly byCounty = new Map<string, Map<string, number>>();
  /** The first row of every parcel, by parcel number. */
  private readonly first: IngestRow[] = [];
  /** Every row of the parcels that have more than one. */
  private readonly more = new Map<number, IngestRow[]>();

  get size(): number {
    return this.first.length;
  }

  /** Adds a row to its parcel; answers the row the parcel already has at this exact address, if any. */
  add(row: IngestRow): IngestRow | undefined {
    let county = this.byCounty.get(row.fips);
    if (!county) this.byCounty.set(row.fips, (county = new Map()));
    const key = row.apn !== "" ? row.apn : `~${addressKey(row)}`;
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

  /** The number of the parcel with identity key `key` (parcel-row.ts `identityKey`), if present. */
  find(key: string): number | undefined {
    const tab = key.indexOf("\t");
    return this.byCounty.get(key.slice(0, tab))?.get(key.slice(tab + 1));
  }

  has(key: string): boolean {
    return this.find(key) !== undefined;
  }
}
