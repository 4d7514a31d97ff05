import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import type { CorpusToken } from "./read-labelled-corpus.js";

/** usaddress labels → the service's labels, as /work/shared/data/README.md maps them. */
const USADDRESS_LABELS: Readonly<Record<string, Label>> = {
  AddressNumber: "addressNumber",
  AddressNumberPrefix: "addressNumber",
  AddressNumberSuffix: "addressNumberSuffix",
  StreetNamePreDirectional: "predirectional",
  StreetNamePostDirectional: "postdirectional",
  StreetNamePreModifier: "streetName",
  StreetNamePreType: "streetName",
  StreetName: "streetName",
  StreetNamePostModifier: "streetName",
  StreetNamePostType: "streetSuffix",
  OccupancyType: "occupancyType",
  SubaddressType: "occupancyType",
  OccupancyIdentifier: "occupancyId",
  SubaddressIdentifier: "occupancyId",
  USPSBoxType: "poBoxType",
  USPSBoxID: "poBoxId",
  USPSBoxGroupType: "ruralRouteType",
  USPSBoxGroupID: "ruralRouteId",
  Recipient: "firm",
  BuildingName: "firm",
  LandmarkName: "firm",
  PlaceName: "city",
  StateName: "state",
  ZipCode: "zip5",
  ZipPlus4: "zip4",
  CornerOf: "intersection",
  IntersectionSeparator: "intersection",
  NotAddress: "other",
  CountryName: "other",
};

/**
 * The corpus label of each of our tokens: the corpus token that covers the token's first
 * character (our tokenizer may split one corpus token, `94114-2414`, never join two).
 */
export function alignLabels(tokens: readonly Token[], corpus: readonly CorpusToken[]): string[] {
  let k = 0;
  return tokens.map((token) => {
    while (k < corpus.length - 1 && corpus[k]!.end <= token.start) k++;
    return corpus[k]?.label ?? "NotAddress";
  });
}

/** Maps usaddress labels to ours; a ZIP token right after a ZIP is the ZIP+4 add-on. */
export function toServiceLabels(corpusLabels: readonly string[]): Label[] {
  const labels: Label[] = [];
  for (const corpusLabel of corpusLabels) {
    let label = USADDRESS_LABELS[corpusLabel] ?? "other";
    if (label === "zip5" && labels[labels.length - 1] === "zip5") label = "zip4";
    labels.push(label);
  }
  return labels;
}
