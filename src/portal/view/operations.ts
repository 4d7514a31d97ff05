import { OPERATIONS } from "../../accounts/accounts.js";
import type { Operation } from "../../accounts/accounts.js";

/**
 * The request log stores the path called, not the operation: these are the paths of each
 * operation (current and older, SPEC.md "Versioning"), for display and for filtering.
 */
export const OPERATION_PATHS: Record<Operation, { exact: string[]; prefixes: string[] }> = {
  parse: { exact: ["/v1/verify/parse", "/v1/address/parse"], prefixes: [] },
  lookup: { exact: ["/v1/verify/lookup", "/v1/property/lookup"], prefixes: [] },
  lookup_by_id: { exact: [], prefixes: ["/v1/verify/lookup/", "/v1/property/lookup/"] },
};

export const OPERATION_LABELS: Record<Operation, string> = {
  parse: "Parse",
  lookup: "Lookup",
  lookup_by_id: "Lookup by ID",
};

export function operationOfPath(path: string): Operation | null {
  for (const operation of OPERATIONS) {
    const paths = OPERATION_PATHS[operation];
    if (paths.exact.includes(path) || paths.prefixes.some((prefix) => path.startsWith(prefix))) {
      return operation;
    }
  }
  return null;
}

export function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}
