import { addIndexPhases } from "../index-phases.js";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.js";
import type { LookupAnswer, LookupRequest } from "../../parcels/lookup-types.js";
import { LOOKUP_COMPONENTS } from "../../parcels/lookup-types.js";
import { STRING_COMPONENTS } from "../../parse/parse-answer.js";
import type { Services } from "../services.js";
import { isPlainObject, readJsonBody } from "../json-body.js";
import "../request-context.js";
import { TurnBatch } from "../turn/turn-batch.js";

/** POST /v1/verify/lookup and its older alias POST /v1/property/lookup. */
export function registerLookupRoutes(app: FastifyInstance, services: Services): void {
  const lookups = new TurnBatch();
  for (const url of ["/v1/verify/lookup", "/v1/property/lookup"]) {
    app.post(url, { config: { operation: "lookup" } }, async (request): Promise<LookupAnswer> => {
      const lookup = readLookupRequest(request.body);
      const { result, phases } = await lookups.run(() => services.parcels.lookup(lookup));
      addIndexPhases(request.situs!.timing, phases);
      if ("error" in result) throw locationRequired(result.states);
      return result;
    });
  }
}

/** Components a parse answer may carry that are checked for type though a lookup ignores them. */
const CHECKED_COMPONENTS = new Set<string>([...STRING_COMPONENTS, ...LOOKUP_COMPONENTS]);

/** The error of a city-only lookup whose city exists in several states. */
export function locationRequired(states: number): ApiError {
  return new ApiError("location_required", `The city exists in ${states} states; send state or zip5.`, {
    states,
  });
}

/**
 * Validates a lookup body in DECISIONS.md's order: `invalid_json`, `components_required`,
 * `unsupported_type`, `street_required`, `location_required` (the multi-state city case is the
 * index's, since only it knows the places).
 */
export function readLookupRequest(rawBody: unknown): LookupRequest {
  return lookupRequestOf(readJsonBody(rawBody));
}

/** Validates a lookup body already decoded from JSON (a parse answer or bare components). */
export function lookupRequestOf(body: unknown): LookupRequest {
  if (!isPlainObject(body))
    throw new ApiError("components_required", "The body must be a JSON object of address components.");
  // A whole parse answer carries its components in `components`; bare components sit at top level.
  const components = "components" in body ? body.components : body;
  if (!isPlainObject(components))
    throw new ApiError("components_required", '"components" must be an object.');

  const values: Partial<Record<string, string>> = {};
  for (const [name, value] of Object.entries(components)) {
    if (!CHECKED_COMPONENTS.has(name) || value === null) continue;
    if (typeof value === "number" && Number.isFinite(value)) values[name] = String(value);
    else if (typeof value === "string") values[name] = value;
    else throw new ApiError("components_required", `Component "${name}" must be a string or a number.`);
  }
  if (
    "secondaryUnits" in components &&
    components.secondaryUnits !== null &&
    !Array.isArray(components.secondaryUnits)
  ) {
    throw new ApiError("components_required", 'Component "secondaryUnits" must be an array.');
  }

  const type = body.type;
  if (
    type !== undefined &&
    type !== null &&
    !(typeof type === "string" && type.trim().toLowerCase() === "street")
  ) {
    const echo = typeof type === "string" ? type : JSON.stringify(type);
    throw new ApiError("unsupported_type", "Lookup accepts street addresses only.", { type: echo });
  }

  const request: Partial<LookupRequest> = {};
  for (const name of LOOKUP_COMPONENTS) {
    const value = values[name];
    if (value !== undefined && hasContent(value)) request[name] = value;
  }
  if (request.streetName === undefined) throw new ApiError("street_required", "A streetName is required.");
  if (request.zip5 === undefined && request.city === undefined) {
    throw new ApiError(
      "location_required",
      "Send zip5, or city (with state when the city exists in several states).",
    );
  }
  return request as LookupRequest;
}

/** Case and punctuation are irrelevant, so a value of punctuation only is no value. */
function hasContent(value: string): boolean {
  return /[\p{L}\p{N}]/u.test(value);
}
