import { existsSync } from "node:fs";
import { projectPath } from "../../src/paths.js";
import { readLabelledLines, type LabelledLine } from "./labelled-corpus.js";
import { SeededRandom } from "../seeded-random.js";

/** Where the hand-labelled corpora are (never copied into the repository). */
export const CORPUS_DIR = projectPath("..", "shared", "data", "usaddress", "training");
export const MAIN_CORPUS = "labeled.xml";
/** Smaller hand-labelled files, used for training only (never scored). */
export const EXTRA_CORPORA = [
  "us50_train_tagged.xml",
  "us50_messiest_manual_label.xml",
  "multi_word_state_addresses.xml",
];

/**
 * usaddress's lines generated from OpenStreetMap (16,490: number, directional, street, suffix,
 * city and ZIP in its labels), for training only: real street and city names the hand-labelled
 * lines lack.
 * Its twin `synthetic_clean_osm_data.xml` holds the same addresses with the commas outside the
 * labels, so it adds nothing.
 */
export const OSM_CORPUS = "synthetic_osm_data_xml.xml";

export function corpusAvailable(): boolean {
  return existsSync(`${CORPUS_DIR}/${MAIN_CORPUS}`);
}

/** The identity used for de-duplication: the token texts, so spacing, case and punctuation do not count. */
export function lineKey(line: LabelledLine): string {
  return line.tokens.map((token) => token.text).join(" ");
}

/** Unique lines of a corpus, first occurrence kept. */
function uniqueLines(lines: readonly LabelledLine[]): LabelledLine[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    const key = lineKey(line);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function readMainCorpus(): LabelledLine[] {
  return uniqueLines(readLabelledLines(`${CORPUS_DIR}/${MAIN_CORPUS}`));
}

function readExtraCorpora(): LabelledLine[] {
  return uniqueLines(EXTRA_CORPORA.flatMap((file) => readLabelledLines(`${CORPUS_DIR}/${file}`)));
}

function readOsmCorpus(): LabelledLine[] {
  return uniqueLines(readLabelledLines(`${CORPUS_DIR}/${OSM_CORPUS}`));
}

/**
 * The lines that only ever train: the extra hand-labelled corpora, then the OpenStreetMap lines,
 * each line once and none whose key is in `exclude` (labeled.xml's, which are also scored).
 */
export function readTrainingExtras(exclude: ReadonlySet<string>): {
  handLabelled: LabelledLine[];
  openStreetMap: LabelledLine[];
} {
  const handLabelled = readExtraCorpora().filter((line) => !exclude.has(lineKey(line)));
  const seen = new Set([...exclude, ...handLabelled.map(lineKey)]);
  return { handLabelled, openStreetMap: readOsmCorpus().filter((line) => !seen.has(lineKey(line))) };
}

/** Fold of each line: a seeded shuffle of the (unique) lines dealt round-robin into k folds. */
export function assignFolds(count: number, k: number, seed: number): Int32Array {
  const order = new SeededRandom(seed).shuffle(Array.from({ length: count }, (_, i) => i));
  const folds = new Int32Array(count);
  order.forEach((line, position) => (folds[line] = position % k));
  return folds;
}
