import { fileURLToPath } from "node:url";

/** The repository root, from the compiled location of this file (dist/src/paths.js). */
export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export function projectPath(...parts: string[]): string {
  return [PROJECT_ROOT.replace(/\/$/, ""), ...parts].join("/");
}
