/**
 * A second, real-world check of the parser: county situs files in the canonical parcel layout of
 * ../shared/data/parcels (structured columns plus `raw_address`). Each raw address is parsed and
 * its street components (and city and ZIP when the raw text holds them) compared with the
 * county's columns, suffixes standardized alike. Run: `npm run eval:parser -- --parcels FILE`.
 */
import { readCsvBatches } from "../../src/parcels/sources/csv-records.js";
import type { Components } from "../../src/parse/parse-answer.js";
import { standardStreetName } from "../../src/parse/assembly/street-components.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { standardDirectional, standardSuffix } from "../../src/usps/usps.js";

type Compared =
  | "addressNumber"
  | "predirectional"
  | "streetName"
  | "streetSuffix"
  | "postdirectional"
  | "occupancyId"
  | "city"
  | "zip5";

export interface ParcelEvaluation {
  addresses: number;
  right: number;
  failures: string[];
}

function expected(row: Record<string, string>): Partial<Record<Compared, string>> {
  const raw = row.raw_address!.toUpperCase();
  const value = (text: string | undefined) =>
    text === undefined || text === "" ? undefined : text.toUpperCase();
  const suffix = value(row.suffix);
  return {
    addressNumber: value(row.number),
    predirectional: value(row.predir) && (standardDirectional(value(row.predir)!) ?? value(row.predir)),
    // Counties write US 89; Appendix F writes US HIGHWAY 89: compare standard forms.
    streetName:
      value(row.street_name) && standardStreetName(tokenize(row.street_name!).map((token) => token.text)),
    streetSuffix: suffix && (standardSuffix(suffix) ?? suffix),
    postdirectional: value(row.postdir) && (standardDirectional(value(row.postdir)!) ?? value(row.postdir)),
    occupancyId: value(row.unit),
    city: raw.includes(value(row.city) ?? "\u0000") ? value(row.city) : undefined,
    zip5: raw.includes(row.zip5 || "\u0000") ? value(row.zip5) : undefined,
  };
}

export async function evaluateParcels(path: string): Promise<ParcelEvaluation> {
  const parser = new RuleParser();
  const result: ParcelEvaluation = { addresses: 0, right: 0, failures: [] };
  let header: string[] | undefined;
  for await (const records of readCsvBatches(path))
    for (const { fields } of records) {
      if (header === undefined) header = fields;
      else evaluateRow(parser, Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ""])), result);
    }
  return result;
}

function evaluateRow(parser: RuleParser, row: Record<string, string>, result: ParcelEvaluation): void {
  if (!row.raw_address) return;
  const want = expected(row);
  const got: Components = parser.parse(row.raw_address).components;
  const wrong = (Object.keys(want) as Compared[]).filter((key) => want[key] !== got[key]);
  result.addresses++;
  if (wrong.length === 0) result.right++;
  else
    result.failures.push(
      `${row.raw_address}  | ${wrong.map((key) => `${key}: ${want[key]} / ${got[key]}`).join("; ")}`,
    );
}
