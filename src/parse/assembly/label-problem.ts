import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { boxLabels } from "./box-labels.js";
import { labelRuns } from "./draft.js";

const STREET_LABELS: ReadonlySet<Label> = new Set(["addressNumber", "streetName", "streetSuffix"]);
/** Labels a street name may be interrupted by (`N MAIN N ST`, two streets of an intersection). */
const NAME_BREAKS: ReadonlySet<Label> = new Set([
  "predirectional",
  "postdirectional",
  "streetSuffix",
  "intersection",
]);

/**
 * Null when the labels can make one consistent address, else the reason. The model backend falls
 * back to the rules with `model_output_invalid` on a reason (SPEC "Warning object").
 */
export function labelProblem(tokens: readonly Token[], given: readonly Label[]): string | null {
  if (tokens.length !== given.length) return `${given.length} labels for ${tokens.length} tokens`;
  // Judged as assembly reads them: a route designator labelled as a box type is the route's.
  const labels = boxLabels(tokens, given);
  const runs = labelRuns(labels);
  // One pass over the runs (the check runs on every model parse): counts, and where the
  // street's runs start and end.
  let numbers = 0;
  let zips = 0;
  let states = 0;
  let firstStreet = -1;
  let lastStreet = -1;
  for (let r = 0; r < runs.length; r++) {
    const label = runs[r]!.label;
    if (label === "addressNumber") numbers++;
    else if (label === "zip5") zips++;
    else if (label === "state") states++;
    if (STREET_LABELS.has(label)) {
      if (firstStreet < 0) firstStreet = r;
      lastStreet = r;
    }
  }
  if (numbers > 1 && !labels.includes("intersection")) return "two separate house numbers";
  if (zips > 1) return "two separate ZIP codes";
  if (states > 1) return "two separate states";
  for (let r = firstStreet + 1; r < lastStreet; r++) {
    const label = runs[r]!.label;
    if (label === "zip5" || label === "state") return `a ${label} inside the street`;
  }
  // A route number needs its designator (RR, HC, PSC…): without it the route cannot be written.
  if (labels.includes("ruralRouteId") && !labels.includes("ruralRouteType"))
    return "a route number without its designator";
  const firstZip4 = labels.indexOf("zip4");
  if (firstZip4 >= 0 && !labels.slice(0, firstZip4).includes("zip5")) return "a ZIP+4 add-on without a ZIP";
  // Between two runs of the street name, only what may interrupt one.
  let lastName = -1;
  for (let r = 0; r < runs.length; r++) {
    if (runs[r]!.label !== "streetName") continue;
    for (let between = lastName + 1; lastName >= 0 && between < r; between++)
      if (!NAME_BREAKS.has(runs[between]!.label)) return "the street name is split by another component";
    lastName = r;
  }
  return null;
}
