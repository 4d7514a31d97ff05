import { ByteWriter } from "./byte-writer.js";

/**
 * The build's street-name dictionary (`streets.bin`): for every chunk, the street names it holds.
 * A city-wide search (lookup issue) reads it to pick the chunks that can hold a street, exact or
 * near miss, instead of reading every chunk of the city. Payload:
 *
 *   u32 names; names × (u32 byte length, UTF-8 bytes), ascending
 *   u32 chunks; per chunk: u32 n, n × u32 name index (ascending)
 */
export function encodeStreetDictionary(chunkStreets: ReadonlyArray<readonly string[]>): Buffer {
  const names = [...new Set(chunkStreets.flat())].sort();
  const index = new Map(names.map((name, i) => [name, i]));
  const out = new ByteWriter();
  out.u32(names.length);
  for (const name of names) {
    const bytes = Buffer.from(name, "utf8");
    out.u32(bytes.length);
    out.bytes(bytes);
  }
  out.u32(chunkStreets.length);
  for (const streets of chunkStreets) {
    out.u32(streets.length);
    for (const name of streets) out.u32(index.get(name) ?? 0);
  }
  return out.result();
}

export class StreetDictionary {
  readonly names: string[] = [];
  /** Per chunk (manifest order), indexes into `names`. */
  readonly chunkStreets: Uint32Array[] = [];
  private nameIndex: Map<string, number> | undefined;

  constructor(data: Buffer) {
    let at = 0;
    const u32 = (): number => ((at += 4), data.readUInt32LE(at - 4));
    const names = u32();
    for (let i = 0; i < names; i++) {
      const length = u32();
      this.names.push(data.toString("utf8", at, at + length));
      at += length;
    }
    const chunks = u32();
    for (let i = 0; i < chunks; i++) {
      const count = u32();
      this.chunkStreets.push(Uint32Array.from({ length: count }, () => u32()));
    }
  }

  /** Whether a chunk holds a street (its name indexes are ascending: binary search). */
  has(chunk: number, name: string): boolean {
    this.nameIndex ??= new Map(this.names.map((street, i) => [street, i]));
    const wanted = this.nameIndex.get(name);
    const streets = this.chunkStreets[chunk];
    if (wanted === undefined || !streets) return false;
    let low = 0;
    let high = streets.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = streets[middle] ?? 0;
      if (value === wanted) return true;
      if (value < wanted) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /** Street names of one chunk. */
  streetsOf(chunk: number): string[] {
    return [...(this.chunkStreets[chunk] ?? [])].map((i) => this.names[i] ?? "");
  }
}

/** The place key of an entry in the places directory: state and city as recorded. */
export function placeKey(state: string, city: string): string {
  return `${state}|${city}`;
}

/**
 * The build's places directory (`places.bin`, the street dictionary's layout over `STATE|CITY`
 * names): which chunks hold parcels recorded in a city. City lookups read it beside the gazetteer,
 * so a community a county records (Yuba's `ARBOGA`) that the ZIP gazetteer does not name is found.
 */
export class PlaceDirectory {
  private readonly chunks = new Map<string, number[]>();
  private readonly states = new Map<string, string[]>();
  private readonly dictionary: StreetDictionary | undefined;

  constructor(data: Buffer | undefined) {
    if (!data) return;
    const dictionary = (this.dictionary = new StreetDictionary(data));
    dictionary.chunkStreets.forEach((names, chunk) => {
      for (const index of names) {
        const key = dictionary.names[index] ?? "";
        const list = this.chunks.get(key);
        if (list) list.push(chunk);
        else this.chunks.set(key, [chunk]);
      }
    });
    for (const key of this.chunks.keys()) {
      const [state = "", city = ""] = key.split("|");
      this.states.set(city, [...(this.states.get(city) ?? []), state]);
    }
  }

  static empty(): PlaceDirectory {
    return new PlaceDirectory(undefined);
  }

  /** The `STATE|CITY` keys of one chunk, ascending. */
  placesOf(chunk: number): string[] {
    return this.dictionary?.streetsOf(chunk) ?? [];
  }

  /** The states where the index has parcels recorded in this city. */
  statesOf(city: string): string[] {
    return this.states.get(city) ?? [];
  }

  /** The chunks holding parcels recorded in this city of this state. */
  chunksOf(city: string, state: string): number[] {
    return this.chunks.get(placeKey(state, city)) ?? [];
  }
}
