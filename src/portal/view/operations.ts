import { OPERATION_PATHS, OPERATIONS } from "../../accounts/accounts.js";
import type { Operation } from "../../accounts/accounts.js";

export { OPERATION_PATHS };

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
