import assert from "node:assert/strict";
import { test } from "node:test";
import { tokenize } from "../../src/parse/tokenize.js";

function texts(line: string): string[] {
  return tokenize(line).map((token) => token.text);
}

test("tokens are uppercased, punctuation dropped, offsets point into the input", () => {
  const line = "123 n. Main St., Springfield";
  const tokens = tokenize(line);
  assert.deepEqual(
    tokens.map((t) => t.text),
    ["123", "N", "MAIN", "ST", "SPRINGFIELD"],
  );
  for (const token of tokens) {
    assert.equal(line.slice(token.start, token.end).toUpperCase().replace(/\./g, ""), token.text);
  }
  assert.deepEqual(
    tokens.map((t) => t.boundaryBefore),
    [false, false, false, false, true],
  );
});

test("commas, semicolons and line breaks set boundaryBefore; the first token never has it", () => {
  const tokens = tokenize(", 1 Main St\nAnytown; CA");
  assert.deepEqual(
    tokens.map((t) => [t.text, t.boundaryBefore]),
    [
      ["1", false],
      ["MAIN", false],
      ["ST", false],
      ["ANYTOWN", true],
      ["CA", true],
    ],
  );
});

test("glued forms are split with their offsets", () => {
  assert.deepEqual(texts("RR03"), ["RR", "03"]);
  assert.deepEqual(texts("P.O.BOX12"), ["PO", "BOX", "12"]);
  assert.deepEqual(texts("PO.BOX 7"), ["PO", "BOX", "7"]);
  assert.deepEqual(texts("POBOX"), ["PO", "BOX"]);
  assert.deepEqual(texts("#12"), ["#", "12"]);
  assert.deepEqual(texts("APT4B"), ["APT", "4B"]);
  assert.deepEqual(texts("apt#4b"), ["APT", "#", "4B"]);
  assert.deepEqual(texts("STE-100"), ["STE", "100"]);
  assert.deepEqual(texts("I-10"), ["I", "10"]);
  assert.deepEqual(texts("PSC1234"), ["PSC", "1234"]);
  const [po, box, number] = tokenize("P.O.BOX12");
  assert.deepEqual(
    [po!.start, po!.end, box!.start, box!.end, number!.start, number!.end],
    [0, 3, 4, 7, 7, 9],
  );
});

test("ZIP+4 is split, hyphenated house numbers and fractions are kept", () => {
  assert.deepEqual(texts("94114-2414"), ["94114", "2414"]);
  assert.deepEqual(texts("941142414"), ["94114", "2414"]);
  assert.deepEqual(texts("112-10 1/2"), ["112-10", "1/2"]);
  assert.deepEqual(texts("N6W23001"), ["N6W23001"]);
  assert.deepEqual(texts("Winston-Salem"), ["WINSTON", "SALEM"]);
  assert.deepEqual(texts("C/O Smith & Co"), ["C", "O", "SMITH", "&", "CO"]);
});

test("accents are folded and non-ASCII offsets stay UTF-16", () => {
  const line = "Calle Ñandú 😀 5";
  const tokens = tokenize(line);
  assert.deepEqual(
    tokens.map((t) => t.text),
    ["CALLE", "NANDU", "5"],
  );
  assert.equal(line.slice(tokens[2]!.start, tokens[2]!.end), "5");
});

test("empty, whitespace and punctuation-only lines give no tokens", () => {
  assert.deepEqual(tokenize(""), []);
  assert.deepEqual(tokenize("  \t\n "), []);
  assert.deepEqual(tokenize("..., -- ()"), []);
});
