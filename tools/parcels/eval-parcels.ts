/**
 * `npm run eval:parcels`: real county files in, address lines as people write them out, and how
 * often the lookup answers the right parcel, a wrong one, or honestly no single parcel. Every
 * county of ../shared/data/parcels (and gis/) is ingested into one index, one command per county;
 * every active parcel address with a house number gives lines of each variant
 * (address-variants.ts), parsed by the service's parser and looked up as the API does.
 *
 *   node dist/tools/parcels/eval-parcels.js [--limit N] [--county NAME] [--variant NAME]
 *     [--show wrong|missed] [--json FILE]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openParser } from "../../src/app/composition.js";
import { ApiError } from "../../src/errors.js";
import { readLookupRequest } from "../../src/http/routes/lookup.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { parseMapping } from "../../src/parcels/ingest/column-mapping.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import type { LookupAnswer } from "../../src/parcels/lookup-types.js";
import { TEXT_FIELDS } from "../../src/parcels/parcel-row.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { projectPath } from "../../src/paths.js";
import { SeededRandom } from "../seeded-random.js";
import type { RecordAddress, Variant } from "./address-variants.js";
import { STRICT_VARIANTS, VARIANTS, variantLines } from "./address-variants.js";
import { COUNTY_DATASETS, SHARED_DATA } from "./county-datasets.js";

/** What an answer was, against the parcels that have the line's address. */
const OUTCOMES = [
  "right",
  "wrong",
  "ambiguous_right",
  "ambiguous_other",
  "unit_required",
  "not_found",
  "refused",
] as const;
type Outcome = (typeof OUTCOMES)[number];

interface AddressRecord extends RecordAddress {
  id: string;
  fips: string;
}

type Tally = Record<Outcome, number>;

/**
 * The parcels a line made from `record` can mean: same street, number, number suffix and unit in
 * the same ZIP (or city, for a line without ZIP), and a suffix and directionals that agree where
 * the line gives them (a line that omits the suffix fits every suffix at the number: SPEC.md).
 */
function expectedParcels(
  record: AddressRecord,
  sameStreet: readonly AddressRecord[],
  byZip: boolean,
): Set<string> {
  const agrees = (given: string, recorded: string): boolean => given === "" || given === recorded;
  return new Set(
    sameStreet
      .filter(
        (other) =>
          (byZip ? other.zip5 === record.zip5 : other.city === record.city && other.state === record.state) &&
          other.addressNumber === record.addressNumber &&
          other.addressNumberSuffix === record.addressNumberSuffix &&
          other.occupancyId === record.occupancyId &&
          agrees(record.streetSuffix, other.streetSuffix) &&
          agrees(record.predirectional, other.predirectional) &&
          agrees(record.postdirectional, other.postdirectional),
      )
      .map((other) => other.id),
  );
}

/** Every active entry with a street (those with a house number give lines), by street and number. */
async function readRecords(store: LocalBlobStore) {
  const build = await IndexBuild.openCurrent(store, new ByteLru(1 << 28));
  if (!build) throw new Error("no build");
  const records: AddressRecord[] = [];
  const byStreet = new Map<string, AddressRecord[]>();
  const streets = new Map<string, Set<string>>();
  for (let index = 0; index < build.manifest.chunks.length; index++) {
    const chunk = await build.chunk(index);
    for (let row = 0; row < chunk.rows; row++) {
      if (chunk.status(row) !== "active") continue;
      const values = Object.fromEntries(TEXT_FIELDS.map((field) => [field, chunk.text(row, field)]));
      const record = {
        ...(values as unknown as RecordAddress),
        fips: values.fips ?? "",
        id: `adr_${chunk.id(row)}`,
      };
      if (record.streetName === "") continue;
      const key = `${record.streetName}|${record.addressNumber}`;
      byStreet.set(key, [...(byStreet.get(key) ?? []), record]);
      streets.set(record.zip5, (streets.get(record.zip5) ?? new Set()).add(record.streetName));
      if (record.addressNumber !== "") records.push(record);
    }
  }
  return { records, byStreet, streets };
}

function classify(answer: LookupAnswer, expected: ReadonlySet<string>): Outcome {
  const top = answer.service_id;
  const candidates = answer.candidates.map((c) => c.service_id ?? "");
  // A building's own parcel with unit_required when the line's unit was lost: the answer says a
  // unit is needed and lists the units (SPEC.md: clients check unit_required).
  if (top !== null && answer.unit_required && candidates.some((id) => expected.has(id)))
    return "unit_required";
  if (top !== null) return expected.has(top) && expected.size === 1 ? "right" : "wrong";
  if (answer.status === "ambiguous") {
    // An address several parcels share is answered right by an ambiguity that lists only them
    // (at most 10 candidates: all of them, or 10 of them).
    const onlyThem = candidates.every((id) => expected.has(id));
    if (expected.size > 1 && onlyThem && candidates.length === Math.min(10, expected.size)) return "right";
    return candidates.some((id) => expected.has(id)) ? "ambiguous_right" : "ambiguous_other";
  }
  if (answer.unit_required) return "unit_required";
  return "not_found";
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: "string", default: String(Number.MAX_SAFE_INTEGER) },
      county: { type: "string" },
      variant: { type: "string" },
      show: { type: "string" },
      json: { type: "string" },
    },
  });
  if (!existsSync(SHARED_DATA)) {
    process.stderr.write(`eval:parcels needs the shared county files at ${SHARED_DATA}\n`);
    process.exitCode = 2;
    return;
  }
  const limit = Number(values.limit);
  const parser = openParser({}, (message) => process.stderr.write(`${message}\n`));
  const dir = mkdtempSync(join(tmpdir(), "situs-eval-parcels-"));
  const store = new LocalBlobStore(join(dir, "index"));
  const datasets = COUNTY_DATASETS.filter((d) => !values.county || d.name === values.county);
  const ingestFigures: Array<[string, number, number, number]> = [];
  for (const dataset of datasets) {
    const inputs = dataset.files.map((file) => ({
      file: join(SHARED_DATA, file.path),
      mapping: parseMapping(
        JSON.parse(readFileSync(projectPath("data", "parcel-mappings", file.mapping), "utf8")),
      ),
      ...(file.format ? { format: file.format } : {}),
    }));
    const report = await ingest({ store, inputs, parser, sealWorkers: 0 });
    ingestFigures.push([dataset.name, report.rows, report.rows - report.rejected, report.rejected]);
  }
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 28, refreshMs: 0 });
  const { records, byStreet, streets } = await readRecords(store);
  const random = new SeededRandom(20261128);
  const results: Array<{ county: string; variant: Variant; tally: Tally }> = [];
  const shown: string[] = [];
  for (const dataset of datasets) {
    const own = records.filter((r) => r.fips === dataset.fips);
    for (const variant of VARIANTS.filter((v) => !values.variant || v === values.variant)) {
      const tally = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Tally;
      let used = 0;
      for (const record of own) {
        const lines = variantLines(variant, record, random, streets.get(record.zip5) ?? new Set());
        if (lines.length === 0) continue;
        if (used++ >= limit) break;
        const sameStreet = byStreet.get(`${record.streetName}|${record.addressNumber}`) ?? [record];
        const expected = expectedParcels(record, sameStreet, variant !== "no_zip");
        for (const text of lines) {
          const parsed = parser.parse(text);
          let outcome: Outcome;
          let answer: LookupAnswer | undefined;
          try {
            const request = readLookupRequest(
              Buffer.from(JSON.stringify({ type: parsed.type, components: parsed.components })),
            );
            const result = (await index.lookup(request)).result;
            if ("error" in result) outcome = "refused";
            else outcome = classify((answer = result), expected);
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            outcome = "refused";
          }
          tally[outcome]++;
          const show =
            values.show === "wrong" ? outcome === "wrong" : values.show === "missed" && outcome !== "right";
          if (show && shown.length < 200) {
            shown.push(
              `${dataset.name} ${variant} ${outcome}: ${text}\n  parsed ${JSON.stringify(parsed.components)}\n  ` +
                `answer ${answer ? `${answer.status} ${answer.apn} ${answer.matchConfidence.toFixed(2)} (${answer.candidates.length} candidates)` : "refused"}; expected ${[...expected].length} parcel(s)`,
            );
          }
        }
      }
      if (Object.values(tally).some((n) => n > 0)) results.push({ county: dataset.name, variant, tally });
    }
  }
  index.close();
  rmSync(dir, { recursive: true, force: true });
  printReport(ingestFigures, results);
  if (shown.length > 0) process.stdout.write(`\n${shown.join("\n")}\n`);
  if (values.json)
    writeFileSync(values.json, `${JSON.stringify({ ingest: ingestFigures, results }, null, 1)}\n`);
}

function printReport(
  ingestFigures: Array<[string, number, number, number]>,
  results: Array<{ county: string; variant: Variant; tally: Tally }>,
): void {
  const out: string[] = ["county files: rows, accepted, rejected"];
  for (const [name, rows, accepted, rejected] of ingestFigures)
    out.push(`  ${name.padEnd(14)} ${rows} ${accepted} ${rejected}`);
  out.push(
    "",
    `${"county".padEnd(14)} ${"variant".padEnd(15)} ${"lines".padStart(6)} ${"right".padStart(7)} wrong amb+right amb-other unit_req not_found refused`,
  );
  const totals = new Map<Variant, Tally>();
  for (const { county, variant, tally } of results) {
    const lines = OUTCOMES.reduce((sum, o) => sum + tally[o], 0);
    out.push(
      `${county.padEnd(14)} ${variant.padEnd(15)} ${String(lines).padStart(6)} ${percent(tally.right, lines).padStart(7)} ${String(tally.wrong).padStart(5)} ${String(tally.ambiguous_right).padStart(9)} ${String(tally.ambiguous_other).padStart(9)} ${String(tally.unit_required).padStart(8)} ${String(tally.not_found).padStart(9)} ${String(tally.refused).padStart(7)}`,
    );
    const total = totals.get(variant) ?? (Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Tally);
    for (const o of OUTCOMES) total[o] += tally[o];
    totals.set(variant, total);
  }
  out.push("", "all counties:");
  let wrong = 0;
  for (const [variant, tally] of totals) {
    const lines = OUTCOMES.reduce((sum, o) => sum + tally[o], 0);
    wrong += tally.wrong;
    const target = STRICT_VARIANTS.has(variant)
      ? ` (target 99%: ${tally.right / lines >= 0.99 ? "met" : "MISSED"})`
      : "";
    out.push(
      `  ${variant.padEnd(15)} ${String(lines).padStart(6)} lines, right ${percent(tally.right, lines)}, wrong ${tally.wrong}, ambiguous with the right parcel ${tally.ambiguous_right}, other honest ${tally.ambiguous_other + tally.unit_required + tally.not_found + tally.refused}${target}`,
    );
  }
  out.push(`wrong parcels: ${wrong} (target 0: ${wrong === 0 ? "met" : "MISSED"})`);
  process.stdout.write(`${out.join("\n")}\n`);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

await main();
