import { readFileSync } from "node:fs";
import { projectPath } from "../paths.js";

/**
 * The state of a county from its FIPS code: the first two digits are the state's FIPS code
 * (data/places/state-fips.tsv, after the Census Bureau's list). Ingest checks a row's ZIP and
 * coordinates against the state of its county.
 */
let states: Map<string, string> | undefined;

function readStates(): Map<string, string> {
  const lines = readFileSync(projectPath("data", "places", "state-fips.tsv"), "utf8").split("\n");
  const table = new Map<string, string>();
  for (const line of lines) {
    const [fips, state] = line.split("\t");
    if (fips && state && /^\d\d$/.test(fips)) table.set(fips, state.trim());
  }
  return table;
}

/** `06` for `CA`; `""` for a code that is no state or territory. */
export function stateFipsOf(state: string): string {
  states ??= readStates();
  for (const [fips, code] of states) if (code === state) return fips;
  return "";
}

let lastFips = "";
let lastState = "";

/** `CA` for `06001`; `""` when the code names no state or territory. */
export function stateOfCounty(fips: string): string {
  if (fips === lastFips) return lastState;
  states ??= readStates();
  lastFips = fips;
  lastState = states.get(fips.slice(0, 2)) ?? "";
  return lastState;
}
