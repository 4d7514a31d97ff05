/**
 * A property value as the text of a field. Strings stay exactly as they are (APNs must round-trip),
 * null and undefined are "", integral numbers have no decimal part (a DBF `N` field's
 * `7.000000000000000` and GeoJSON's `72022.0` both arrive as the number, and print `7`, `72022`),
 * booleans `true`/`false`, dates (DBF `D` fields) `YYYY-MM-DD`, anything else its JSON.
 */
export function propertyText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return isoDate(value);
  return JSON.stringify(value) ?? "";
}

/** The shapefile package builds DBF dates in local time; read them back the same way. */
function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number, width: number): string => String(n).padStart(width, "0");
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}
