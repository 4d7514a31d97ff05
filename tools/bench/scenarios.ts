/**
 * The request mixes `npm run bench:http` drives: each a method, paths and bodies rotated request by
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

/**
 * A scenario as autocannon's request list: each request built once, before the run, and each
 * connection cycling through them. A request rebuilt per call (autocannon's `setupRequest`)
 * cost the load generator, which shares the machine's cores with the servers, about half again
 * its CPU per request.
 */
export function requestsOf(scenario: Scenario): Array<{
  method: Scenario["method"];
  path: string;
  headers: Record<string, string>;
  body?: string;
}> {
  const count = Math.max(scenario.bodies.length, scenario.paths.length);
  return Array.from({ length: count }, (_, i) => {
    const body = scenario.bodies[i % scenario.bodies.length];
    return {
      method: scenario.method,
      path: scenario.paths[i % scenario.paths.length]!,
      headers: scenario.headers,
      ...(body === undefined ? {} : { body }),
    };
  });
}

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

/** One parcel of the served index, with the fields the lookups ask for. */
export interface SampledParcel {
  serviceId: string;
  addressNumber: string;
  streetName: string;
  streetSuffix: string;
  zip5: string;
  status: string;
}

/** Drops one letter of a street name: a near miss that fuzzy matching must forgive. */
function nearMiss(name: string): string {
  const at = Math.floor(name.length / 2);
  return name.slice(0, at) + name.slice(at + 1);
}

export function buildScenarios(key: string, parcels: SampledParcel[]): Scenario[] {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const addressed = parcels.filter(
    (p) => p.status === "active" && p.addressNumber !== "" && /^[A-Z]{5,}$/.test(p.streetName),
  );
  const sample = addressed.filter(
    (_, index) => index % Math.max(1, Math.floor(addressed.length / 500)) === 0,
  );
  const lookup = (p: SampledParcel, streetName: string) =>
    JSON.stringify({
      addressNumber: p.addressNumber,
      streetName,
      streetSuffix: p.streetSuffix,
      zip5: p.zip5,
    });
  return [
    {
      name: "parse",
      method: "POST",
      paths: ["/v1/verify/parse"],
      headers,
      bodies: parseLines(500).map((line) => JSON.stringify({ line })),
    },
    {
      name: "lookup",
      method: "POST",
      paths: ["/v1/verify/lookup"],
      headers,
      bodies: sample.map((p) => lookup(p, p.streetName)),
    },
    {
      name: "fuzzy lookup",
      method: "POST",
      paths: ["/v1/verify/lookup"],
      headers,
      bodies: sample.map((p) => lookup(p, nearMiss(p.streetName))),
    },
    {
      name: "lookup by ID",
      method: "GET",
      paths: sample.map((p) => `/v1/verify/lookup/${p.serviceId}`),
      headers: { authorization: headers.authorization },
      bodies: [undefined],
    },
  ];
}
