import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * The lines of a stream of UTF-8 bytes, in batches (one per chunk read): split on "\n", the "\r"
 * of a CRLF and a byte order mark at the start dropped, and no line after a final newline, so
 * every line (blank ones too) keeps its number. Lines are split synchronously: per-line async
 * iteration (readline) costs more than most of the work done with a line.
 */
export async function* readLineBatches(input: Readable): AsyncGenerator<string[]> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  let started = false;
  const text = (decoded: string): string => {
    if (started || decoded === "") return decoded;
    started = true;
    return decoded.replace(/^\uFEFF/, "");
  };
  for await (const chunk of input) {
    const lines = (carry + text(decoder.write(chunk as Buffer))).split("\n");
    carry = lines.pop() ?? "";
    if (lines.length > 0) yield lines.map(withoutCr);
  }
  const rest = carry + text(decoder.end());
  if (rest !== "") yield [withoutCr(rest)];
}

function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
