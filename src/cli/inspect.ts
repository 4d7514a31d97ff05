import { writeFileSync } from "node:fs";
import { suggestMapping } from "../parcels/ingest/mapping-suggestion.js";
import type { SourceOptions } from "../parcels/sources/open-source.js";
import { openSource } from "../parcels/sources/open-source.js";
import type { SourceProfile } from "../parcels/sources/source-profile.js";
import { profileSource } from "../parcels/sources/source-profile.js";

/**
 * `situs ingest --inspect FILE`: what a file holds, read through the same sources as ingest, and a
 * suggested column mapping (valid for `--mapping`), written to `output` when given.
 */
export async function inspect(file: string, options: SourceOptions & { output?: string }): Promise<string> {
  const source = await openSource(file, options);
  const profile = await profileSource(source);
  const suggestion = suggestMapping(profile);
  const mapping =
    options.layer !== undefined ? { ...suggestion.mapping, layer: options.layer } : suggestion.mapping;
  const json = `${JSON.stringify(mapping, null, 2)}\n`;
  if (options.output) writeFileSync(options.output, json);
  const lines = [
    ...describeProfile(profile),
    "",
    options.output ? `suggested mapping (written to ${options.output}):` : "suggested mapping:",
    json.trimEnd(),
    ...suggestion.notes.map((note) => `note: ${note}`),
  ];
  return `${lines.join("\n")}\n`;
}

export function describeProfile(profile: SourceProfile): string[] {
  const percent = (n: number): string =>
    profile.records === 0 ? "0%" : `${((100 * n) / profile.records).toFixed(n === profile.records ? 0 : 1)}%`;
  const kinds = profile.geometryTypes.map(([type, n]) => `${type} ${n}`).join(", ");
  const width = Math.max(5, ...profile.fields.map((f) => f.name.length));
  return [
    `file: ${profile.file}`,
    `format: ${profile.format}`,
    `coordinates: ${profile.hasGeometry ? profile.crs : "from columns (no geometry)"}`,
    ...(profile.hasGeometry ? [`geometry: ${kinds || "none read"}`] : []),
    ...profile.problems.map(([reason, n]) => `  ${n} without a point: ${reason}`),
    `records read: ${profile.records}${profile.records >= 10_000 ? " (the first 10,000)" : ""}`,
    `fields (${profile.fields.length}): filled, distinct, samples`,
    ...profile.fields.map(
      (f) =>
        `  ${f.name.padEnd(width)}  ${percent(f.filled).padStart(6)}  ${String(f.distinct).padStart(5)}${f.distinct >= 1000 ? "+" : " "}  ` +
        f.samples.map((s) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)).join(", "),
    ),
  ];
}
