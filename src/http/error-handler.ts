import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { IndexUnavailableError } from "../parcels/parcel-index.js";
import "./request-context.js";
import { FAILURE_LOG, failureKind } from "./log-every.js";

/**
 * The one place errors become answers: an ApiError is rendered as `{error, message, ...extra}`
 * with its status; errors raised by the HTTP layer itself are translated; anything else is a
 * failure of ours, logged and answered 500 `internal_error` without detail.
 */
export function toApiError(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof IndexUnavailableError) {
    return new ApiError("matchkey_unavailable", "The parcel index is unavailable; retry with backoff.");
  }
  const code = (error as Partial<FastifyError> | null)?.code;
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return new ApiError("body_too_large", `The request body is larger than ${bodyLimit} bytes.`, {
      max: bodyLimit,
    });
  }
  if (code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") {
    return new ApiError("invalid_json", "The request body does not match its Content-Length.");
  }
  const status = (error as Partial<FastifyError> | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("bad_request", "The request could not be read.");
  }
  return new ApiError("internal_error", "The service failed to answer; retry with backoff.");
}

export function errorHandler(bodyLimit: number) {
  return function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const apiError = toApiError(error, bodyLimit);
    if (apiError.status >= 500)
      FAILURE_LOG.error(request.log, failureKind(apiError.code, error), { err: error }, "request failed");
    request.errorCode = apiError.code;
    if (request.situs) request.situs.errorCode = apiError.code;
    if (apiError.code === "invalid_api_key") reply.header("www-authenticate", "Bearer");
    if (apiError.code === "rate_limited") reply.header("retry-after", "60");
    void reply.code(apiError.status).type("application/json; charset=utf-8").send(apiError.toBody());
  };
}

/** SPEC.md "Other paths": unknown paths and wrong methods get a plain-text 404. */
export function notFoundHandler(_request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).type("text/plain; charset=utf-8").send("Not Found\n");
}
