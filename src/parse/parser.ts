import type { ParseAnswer } from "./parse-answer.js";

/** Turns one line of free text into a parse answer. Pure and synchronous: no I/O. */
export interface Parser {
  parse(line: string): ParseAnswer;
}
