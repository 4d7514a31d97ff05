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
  const count = (label: Label) => runs.filter((run) => run.label === label).length;
  const intersection = labels.includes("intersection");
  if (count("addressNumber") > 1 && !intersection) return "two separate house numbers";
  if (count("zip5") > 1) return "two separate ZIP codes";
  if (count("state") > 1) return "two separate states";
  for (let r = 1; r < runs.length - 1; r++) {
    const run = runs[r]!;
    const before = runs.slice(0, r).some((other) => STREET_LABELS.has(other.label));
    const after = runs.slice(r + 1).some((other) => STREET_LABELS.has(other.label));
    if ((run.label === "zip5" || run.label === "state") && before && after)
      return `a ${run.label} inside the street`;
  }
  // A route number needs its designator (RR, HC, PSC…): without it the route cannot be written.
  if (labels.includes("ruralRouteId") && !labels.includes("ruralRouteType"))
    return "a route number without its designator";
  const firstZip4 = labels.indexOf("zip4");
  if (firstZip4 >= 0 && !labels.slice(0, firstZip4).includes("zip5")) return "a ZIP+4 add-on without a ZIP";
  const names = runs.map((run, index) => ({ run, index })).filter(({ run }) => run.label === "streetName");
  for (let k = 1; k < names.length; k++) {
    const between = runs.slice(names[k - 1]!.index + 1, names[k]!.index);
    if (between.some((run) => !NAME_BREAKS.has(run.label)))
      return "the street name is split by another component";
  }
  return null;
}
