/**
 * Error codes of the API and the HTTP status each one answers with (SPEC.md "All errors"),
 * plus the few that the HTTP edge adds where the spec is silent (docs/decisions.md).
 * Clients branch on status and code, so this table is the single place both are decided.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  line_required: 400,
  components_required: 400,
  street_required: 400,
  location_required: 400,
  invalid_id: 400,
  bad_request: 400,
  invalid_api_key: 401,
  insufficient_credit: 402,
  budget_exceeded: 402,
  team_paused: 403,
  not_found: 404,
  request_timeout: 408,
  line_too_long: 413,
  body_too_large: 413,
  unsupported_type: 422,
  unsupported_id_type: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  matchkey_unavailable: 503,
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra fields some errors carry (SPEC.md: `max`, `states`, `type`, `service_id`). */
export type ErrorExtra = Record<string, string | number | boolean | null>;

/** The one error type of the HTTP edge: a code, a message for people, and optional extra fields. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.extra = extra;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}
