import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The US ZIPs of the `zipcodes` npm package (pinned; DECISIONS.md "Places"), read once for
 * every part of the service that needs them: the parser's features and its rules' city names,
 * and the parcel index's places. Each ZIP with its city (uppercased), state and centroid.
 */
export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
  lat: number;
  lon: number;
}

interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

/**
 * One US entry of the package's `lib/codes.js`, an object literal of ~44,000 entries read as text
 * with this expression: a quarter of the time JSON.parse takes to build the objects, a tenth of
 * what `require` takes to compile 5 MB of JavaScript (and `require("zipcodes")` then builds
 * indexes of its own that nothing here reads). The file holds no escaped characters; a layout
 * change (no match) falls back to `require`.
 */
const US_ENTRY =
  /"zip":"(\d{5})","latitude":(-?[\d.]+),"longitude":(-?[\d.]+),"city":"([^"\\]*)","state":"([A-Z]{2})","country":"US"/g;

let places: readonly ZipPlace[] | undefined;

/** The package's US ZIPs, in the order `Object.values(codes)` gives them; read on first use. */
export function usZipPlaces(): readonly ZipPlace[] {
  places ??= readPlaces();
  return places;
}

function readPlaces(): ZipPlace[] {
  const require = createRequire(import.meta.url);
  const text = readFileSync(require.resolve("zipcodes/lib/codes.js"), "utf8");
  const read: ZipPlace[] = [];
  for (const match of text.matchAll(US_ENTRY)) {
    read.push({
      zip: match[1]!,
      city: match[4]!.toUpperCase(),
      state: match[5]!,
      lat: Number(match[2]),
      lon: Number(match[3]),
    });
  }
  // In the order Object.values gives (the synthetic generator draws by index, the parcel
  // gazetteer lists a city's ZIPs in it, and neither may depend on the reader): integer-like
  // keys ascending first, `0xxxx` keys in file order after.
  if (read.length > 0) {
    return [
      ...read.filter((p) => p.zip[0] !== "0").sort((a, b) => Number(a.zip) - Number(b.zip)),
      ...read.filter((p) => p.zip[0] === "0"),
    ];
  }
  return requiredPlaces();
}

/** The same places through `require`: the fallback, and what tests compare the reader with. */
export function requiredPlaces(): ZipPlace[] {
  const require = createRequire(import.meta.url);
  const { codes } = require("zipcodes/lib/codes.js") as { codes: Record<string, ZipcodesEntry> };
  return Object.values(codes)
    .filter((entry) => entry.country === "US" && /^\d{5}$/.test(entry.zip))
    .map((entry) => ({
      zip: entry.zip,
      city: entry.city.toUpperCase(),
      state: entry.state,
      lat: entry.latitude,
      lon: entry.longitude,
    }));
}
