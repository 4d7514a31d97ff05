import { addIndexPhases } from "../index-phases.js";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.js";
import { classifyParcelId } from "../../ids.js";
import type { ParcelRecord } from "../../parcels/lookup-types.js";
import type { Services } from "../services.js";
import "../request-context.js";
import { TurnBatch } from "../turn/turn-batch.js";

/** GET /v1/verify/lookup/{service_id} and its older alias GET /v1/property/lookup/{service_id}. */
export function registerLookupByIdRoutes(app: FastifyInstance, services: Services): void {
  const fetches = new TurnBatch();
  for (const url of ["/v1/verify/lookup/:service_id", "/v1/property/lookup/:service_id"]) {
    app.get<{ Params: { service_id: string } }>(
      url,
      { config: { operation: "lookup_by_id" } },
      async (request): Promise<ParcelRecord> => {
        const requested = request.params.service_id;
        const id = classifyParcelId(requested);
        if (id.kind === "invalid") {
          throw new ApiError("invalid_id", "The ID must be adr_ followed by a 26-character ULID.");
        }
        if (id.kind === "building") {
          throw new ApiError(
            "unsupported_id_type",
            "Building IDs cannot be fetched; fetch one of its parcels.",
          );
        }
        const { result: record, phases } = await fetches.run(() => services.parcels.findById(id.serviceId));
        addIndexPhases(request.situs!.timing, phases);
        if (record === undefined) {
          throw new ApiError("not_found", "No parcel has this ID.", { service_id: requested });
        }
        return record;
      },
    );
  }
}
