import type { AddressType, Components } from "../parse-answer.js";

/**
 * Standardized lines (Pub 28 §21x, DECISIONS.md): urbanization line, delivery line(s), then the
 * last line `CITY ST  ZIP5-ZIP4`. Units end the street line in input order; in a dual address
 * the box line goes directly above the last line (§215). Firm and `other` are never written.
 */
export function deliveryLines(type: AddressType, c: Components): string[] {
  const lines: string[] = [];
  if (c.urbanization !== undefined) lines.push(`URB ${c.urbanization}`);
  if (type === "street" || type === "dual") pushNonEmpty(lines, streetLine(c));
  if (type === "general_delivery") lines.push("GENERAL DELIVERY");
  if (type === "po_box" || type === "dual") pushNonEmpty(lines, poBoxLine(c));
  if (type === "rural_route" || type === "dual" || type === "military") pushNonEmpty(lines, routeLine(c));
  if (type === "military" && c.ruralRouteType === undefined) pushNonEmpty(lines, streetLine(c));
  pushNonEmpty(lines, lastLine(c));
  return lines;
}

function pushNonEmpty(lines: string[], line: string): void {
  if (line !== "") lines.push(line);
}

export function streetLine(c: Components): string {
  const parts = [
    c.addressNumber,
    c.addressNumberSuffix,
    c.predirectional,
    c.streetName,
    c.streetSuffix,
    c.postdirectional,
  ];
  let line = parts.filter((part) => part !== undefined).join(" ");
  const units =
    c.secondaryUnits ?? (c.occupancyType === undefined ? [] : [{ type: c.occupancyType, id: c.occupancyId }]);
  for (const unit of units) line += unit.id === undefined ? ` ${unit.type}` : ` ${unit.type} ${unit.id}`;
  return line.trim();
}

function poBoxLine(c: Components): string {
  if (c.poBoxType === undefined) return "";
  return c.poBoxId === undefined ? c.poBoxType : `${c.poBoxType} ${c.poBoxId}`;
}

function routeLine(c: Components): string {
  if (c.ruralRouteType === undefined) return "";
  return c.ruralRouteId === undefined ? c.ruralRouteType : `${c.ruralRouteType} ${c.ruralRouteId}`;
}

/** `CITY ST  ZIP5-ZIP4`; missing parts are left out with their spacing (DECISIONS.md "Last line"). */
export function lastLine(c: Components): string {
  const place = c.city === undefined ? c.state : c.state === undefined ? c.city : `${c.city} ${c.state}`;
  const zip = c.zip5 === undefined ? undefined : c.zip4 === undefined ? c.zip5 : `${c.zip5}-${c.zip4}`;
  if (place === undefined) return zip ?? "";
  return zip === undefined ? place : `${place}  ${zip}`;
}
