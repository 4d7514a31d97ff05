/**
 * The request mixes `npm run bench` drives: each a method, paths and bodies rotated request by
 * request so caches and branch predictors see varied input.
 */
export interface Scenario {
  name: string;
  method: "GET" | "POST";
  paths: string[];
  headers: Record<string, string>;
  bodies: Array<string | undefined>;
}

const STREETS = [
  "MAIN ST",
  "Pennsylvania Ave NW",
  "N Lincoln Blvd",
  "Elm Street Apt 4B",
  "County Road 12",
  "Calle A",
];
const CITIES = [
  "Springfield, IL 62701",
  "Washington DC 20500",
  "Austin TX 78701-1234",
  "San Juan PR 00926",
  "Boise, Idaho 83702",
];

/** Varied one-line addresses of every common shape. */
export function parseLines(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const street = STREETS[i % STREETS.length]!;
    const city = CITIES[(i * 7) % CITIES.length]!;
    if (i % 11 === 0) lines.push(`PO Box ${100 + i}, ${city}`);
    else if (i % 13 === 0) lines.push(`RR 2 Box ${i}, ${city}`);
    else lines.push(`${100 + ((i * 37) % 9000)} ${street}, ${city}`);
  }
  return lines;
}

export async function buildScenarios(_serviceUrl: string, key: string): Promise<Scenario[]> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  return [
    {
      name: "parse",
      method: "POST",
      paths: ["/v1/verify/parse"],
      headers,
      bodies: parseLines(500).map((line) => JSON.stringify({ line })),
    },
  ];
}
