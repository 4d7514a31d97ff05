import { ApiError } from "../errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decodes a raw request body as JSON whatever its Content-Type (SPEC.md: bodies are JSON).
 * Missing, empty, invalid UTF-8 or malformed bodies are 400 `invalid_json`; so is nesting too
 * deep for the engine, which throws RangeError.
 */
export function readJsonBody(body: unknown): unknown {
  if (!(body instanceof Buffer) || body.length === 0) {
    throw new ApiError("invalid_json", "The request body must be JSON; it is empty.");
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "nesting too deep";
    throw new ApiError("invalid_json", `The request body is not valid JSON: ${detail}`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
