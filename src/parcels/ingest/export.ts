import { encodeUlid } from "../format/binary-ulid.js";
import { CANONICAL_COLUMNS } from "./column-mapping.js";
import { csvLine } from "../../csv.js";
import type { IndexBuild } from "../store/index-build.js";
import { TEXT_FIELDS } from "../parcel-row.js";

export const EXPORT_COLUMNS = [
  ...CANONICAL_COLUMNS,
  "service_id",
  "building_id",
  "status",
  "superseded_by",
] as const;

/**
 * Every entry of a build as canonical CSV lines plus the assigned IDs, so a data owner can join the
 * IDs back to their rows (a parcel with several addresses has one line per address, same
 * service_id). `status` is `active`, `superseded` or `retired` (gone with no successor, which lookup
 * by ID reports as `active`); `superseded_by` is `;`-separated. `parent_apns` is left empty: the
 * lineage is in `superseded_by`.
 */
export async function* exportLines(build: IndexBuild): AsyncGenerator<string> {
  yield EXPORT_COLUMNS.join(",");
  for (let index = 0; index < build.manifest.chunks.length; index++) {
    const chunk = await build.chunk(index);
    for (let row = 0; row < chunk.rows; row++) {
      const values = TEXT_FIELDS.map((field) => chunk.text(row, field));
      const building = chunk.buildingIdBytes(row);
      values.push(
        String(chunk.lat(row) ?? ""),
        String(chunk.lon(row) ?? ""),
        "",
        `adr_${chunk.id(row)}`,
        building ? `bld_${encodeUlid(building)}` : "",
        chunk.status(row),
        chunk
          .successorBytes(row)
          .map((id) => `adr_${encodeUlid(id)}`)
          .join(";"),
      );
      yield csvLine(values);
    }
  }
}
