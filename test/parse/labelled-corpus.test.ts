import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { parseLabelledCorpus, readLabelledCorpus } from "../../src/parse/corpus/read-labelled-corpus.js";
import { alignLabels, toServiceLabels } from "../../src/parse/corpus/usaddress-labels.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { projectPath } from "../../src/paths.js";

const XML = `<AddressCollection>
  <AddressString><AddressNumber>1</AddressNumber> <StreetName>Main</StreetName> <StreetNamePostType>St.,</StreetNamePostType> <PlaceName>A&amp;B</PlaceName> <ZipCode>94114-2414</ZipCode></AddressString>
  <AddressString><AddressNumber>1</AddressNumber> <StreetName>Main</StreetName> <StreetNamePostType>St.,</StreetNamePostType> <PlaceName>A&amp;B</PlaceName> <ZipCode>94114-2414</ZipCode></AddressString>
</AddressCollection>`;

test("the corpus reader rebuilds raw strings with offsets and keeps repeated ones once", () => {
  const addresses = parseLabelledCorpus(XML);
  assert.equal(addresses.length, 1);
  const [address] = addresses;
  assert.equal(address!.raw, "1 Main St., A&B 94114-2414");
  for (const token of address!.tokens) assert.equal(address!.raw.slice(token.start, token.end), token.text);
});

test("corpus labels align to our tokens and map to service labels (ZIP+4 split)", () => {
  const [address] = parseLabelledCorpus(XML);
  const tokens = tokenize(address!.raw);
  assert.deepEqual(toServiceLabels(alignLabels(tokens, address!.tokens)), [
    "addressNumber",
    "streetName",
    "streetSuffix",
    "city",
    "city",
    "city",
    "zip5",
    "zip4",
  ]);
});

const LABELED = projectPath("..", "shared", "data", "usaddress", "training", "labeled.xml");

test(
  "labeled.xml reads whole",
  { skip: existsSync(LABELED) ? false : "needs ../shared/data (absent)" },
  () => {
    const addresses = readLabelledCorpus(LABELED);
    assert.ok(addresses.length > 1400 && addresses.length <= 1513, String(addresses.length));
  },
);
