import { PlaceWords } from "./place-words.js";
import { usZipPlaces } from "./zip-places.js";

/**
 * The national places gazetteer (DECISIONS.md "Places"): US ZIP codes with their city, state and
 * coordinates from the `zipcodes` npm package (pinned in package.json). It answers which states a
 * city name exists in, which ZIPs serve a city, and which ZIP is nearest a point (used on ingest
 * for address points that carry coordinates but no ZIP, such as OpenAddresses extracts); and,
 * through `placeWords()`, the city-name words and ZIPs the parser's features read.
 */
export interface Place {
  zip5: string;
  city: string;
  state: string;
  lat: number;
  lon: number;
}

export class Gazetteer {
  private readonly byZip = new Map<string, Place>();
  private readonly byCity = new Map<string, Map<string, string[]>>();
  private readonly grid = new Map<string, Place[]>();
  /** `hasZipNear` answers by 1° cell and state: rows of one county fall in a few cells. */
  private readonly near = new Map<string, boolean>();
  private lastNear = { lat: NaN, lon: NaN, state: "", answer: false };

  private words: PlaceWords | undefined;
  private readonly places: readonly Place[];

  constructor(places: Iterable<Place>) {
    this.places = [...places];
    for (const place of this.places) {
      this.byZip.set(place.zip5, place);
      const states = this.byCity.get(place.city) ?? new Map<string, string[]>();
      this.byCity.set(place.city, states);
      pushTo(states, place.state, place.zip5);
      // Military ZIPs (APO/FPO) sit at 0°, 0°: they are nobody's nearest ZIP.
      if (place.lat !== 0 || place.lon !== 0) pushTo(this.grid, cellKey(place.lat, place.lon), place);
    }
  }

  /** The words of these places' city names and their ZIPs, as the parser reads them; built on first use. */
  placeWords(): PlaceWords {
    this.words ??= new PlaceWords(this.places);
    return this.words;
  }

  get size(): number {
    return this.byZip.size;
  }

  zip(zip5: string): Place | undefined {
    return this.byZip.get(zip5);
  }

  /** States in which a (normalized, uppercase) city name exists. */
  statesOf(city: string): string[] {
    return [...(this.byCity.get(city)?.keys() ?? [])].sort();
  }

  zipsOf(city: string, state: string): string[] {
    return this.byCity.get(city)?.get(state) ?? [];
  }

  /** Every ZIP, in ascending order (for the synthetic generator). */
  allPlaces(): Place[] {
    return [...this.byZip.values()].sort((a, b) => a.zip5.localeCompare(b.zip5));
  }

  /**
   * The ZIP whose centroid is nearest the point, searching the 1° cells around it (about 110 km);
   * within `state` when given. Undefined when no ZIP is that close.
   */
  nearestZip(lat: number, lon: number, state = ""): Place | undefined {
    let best: Place | undefined;
    let bestDistance = Infinity;
    for (let dLat = -1; dLat <= 1; dLat++) {
      for (let dLon = -1; dLon <= 1; dLon++) {
        for (const place of this.grid.get(cellKey(lat + dLat, lon + dLon)) ?? []) {
          if (state !== "" && place.state !== state) continue;
          const distance =
            (place.lat - lat) ** 2 + ((place.lon - lon) * Math.cos((lat * Math.PI) / 180)) ** 2;
          if (distance >= bestDistance) continue;
          best = place;
          bestDistance = distance;
        }
      }
    }
    return best;
  }

  /**
   * Whether some ZIP of `state` has its centroid within about two degrees of the point (the 5 × 5
   * one-degree cells around it): a point of a county in that state always has. Coordinates that
   * fail it are projected values read as degrees, swapped, or another state's.
   */
  hasZipNear(lat: number, lon: number, state: string): boolean {
    const latCell = Math.floor(lat);
    const lonCell = Math.floor(lon);
    const last = this.lastNear;
    if (last.lat === latCell && last.lon === lonCell && last.state === state) return last.answer;
    const key = `${latCell},${lonCell},${state}`;
    let answer = this.near.get(key);
    if (answer === undefined) {
      answer = false;
      for (let dLat = -2; dLat <= 2 && !answer; dLat++) {
        for (let dLon = -2; dLon <= 2 && !answer; dLon++) {
          const places = this.grid.get(cellKey(lat + dLat, lon + dLon)) ?? [];
          answer = places.some((place) => place.state === state);
        }
      }
      this.near.set(key, answer);
    }
    this.lastNear = { lat: latCell, lon: lonCell, state, answer };
    return answer;
  }
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function cellKey(lat: number, lon: number): string {
  return `${Math.floor(lat)},${Math.floor(lon)}`;
}

let national: Gazetteer | undefined;

/** The gazetteer of the `zipcodes` package's US ZIPs (src/zip-places.ts), built once. */
export function nationalGazetteer(): Gazetteer {
  national ??= new Gazetteer(
    usZipPlaces().map((place) => ({
      zip5: place.zip,
      city: place.city,
      state: place.state,
      lat: place.lat,
      lon: place.lon,
    })),
  );
  return national;
}
