import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import type { AddressType, Components } from "../parse-answer.js";
import { MILITARY_BOX_TYPES } from "./box-components.js";

const MILITARY_CITIES: ReadonlySet<string> = wordSet(WORDS.MILITARY_POST_OFFICES);
const MILITARY_STATES: ReadonlySet<string> = wordSet(WORDS.MILITARY_STATES);

export interface TypeSignals {
  intersection: boolean;
  generalDelivery: boolean;
}

/**
 * The address type from the components found. A street with a PO box or rural route is `dual`
 * (Pub 28 §215); APO/FPO/DPO, AA/AE/AP or a military box designator make it `military` (§225).
 */
export function addressType(c: Components, signals: TypeSignals): AddressType {
  if (signals.intersection) return "ambiguous";
  if (signals.generalDelivery) return "general_delivery";
  if (isMilitary(c)) return "military";
  const street = c.addressNumber !== undefined || c.streetName !== undefined;
  const box = c.poBoxType !== undefined;
  const route = c.ruralRouteType !== undefined;
  if (street && (box || route)) return "dual";
  if (box) return "po_box";
  if (route) return "rural_route";
  if (street) return "street";
  return "ambiguous";
}

function isMilitary(c: Components): boolean {
  if (c.ruralRouteType !== undefined && MILITARY_BOX_TYPES.has(c.ruralRouteType)) {
    // UNIT is also a unit designator: it is military only with a military last line or no street.
    return c.ruralRouteType !== "UNIT" || militaryPlace(c) || c.streetName === undefined;
  }
  return militaryPlace(c);
}

function militaryPlace(c: Components): boolean {
  return (
    (c.city !== undefined && MILITARY_CITIES.has(c.city)) ||
    (c.state !== undefined && MILITARY_STATES.has(c.state))
  );
}
