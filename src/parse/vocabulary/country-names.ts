import * as WORDS from "./generated-words.js";
import { wordList } from "./words.js";

/**
 * The country written after a US address, longest first (`U S A` is USA with its dots dropped).
 * Pub 28 lines carry no country: the rules read these words as the end of the tail, and assembly
 * drops them where they close the line.
 */
export const COUNTRY_NAMES: readonly (readonly string[])[] = wordList(WORDS.COUNTRY_NAMES).map((name) =>
  name.split(" "),
);
