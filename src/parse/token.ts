/**
 * A token of the input line. `text` is what the labellers read (uppercased, surrounding
 * punctuation removed); `start`/`end` are UTF-16 offsets of the token in the input (end
 * exclusive), so warnings can point at it. `boundaryBefore` is true when a comma or a line
 * break separates it from the previous token.
 */
export interface Token {
  text: string;
  start: number;
  end: number;
  boundaryBefore: boolean;
}
