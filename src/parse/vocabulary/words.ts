/**
 * The parser's word lists (data/parse/*.tsv, generated into generated-words.ts by `npm run
 * generate:tables`) as the code reads them: each table's one column, in file order.
 */
export function wordList(table: ReadonlyArray<readonly string[]>): readonly string[] {
  return table.map((row) => row[0]!);
}

export function wordSet(table: ReadonlyArray<readonly string[]>): ReadonlySet<string> {
  return new Set(wordList(table));
}
