import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { GENERATED_WORDS_PATH, readTsv, renderTables } from "../../tools/usps/generate-tables.js";

const dir = projectPath("data", "parse");
const files = readdirSync(dir).filter((name) => name.endsWith(".tsv"));

test("the generated word lists are up to date with data/parse (run npm run generate:tables)", () => {
  const normalize = (text: string) => text.replace(/\s+/g, "").replace(/,([\]}])/g, "$1");
  assert.ok(
    normalize(readFileSync(GENERATED_WORDS_PATH, "utf8")) === normalize(renderTables("parse")),
    "out of date",
  );
});

test("every word list says where it comes from and who reads it, and holds no entry twice", () => {
  for (const file of files) {
    const text = readFileSync(`${dir}/${file}`, "utf8");
    const comments = text.split("\n").filter((line) => line.startsWith("# "));
    assert.ok(comments.length >= 2, `${file}: a header saying where the list comes from`);
    assert.ok(
      comments.some((line) => /Read by src\//.test(line)),
      `${file}: names the code that reads it`,
    );
    const rows = readTsv(`${dir}/${file}`);
    assert.ok(rows.length > 0, `${file}: no entries`);
    const entries = rows.map((row) => row.join("\t"));
    assert.equal(new Set(entries).size, entries.length, `${file}: an entry twice`);
    const words = rows.map((row) => row[0]!);
    // Entries are matched against token texts: uppercase, no surrounding space.
    for (const word of words) assert.equal(word, word.trim().toUpperCase(), `${file}: "${word}"`);
  }
});
