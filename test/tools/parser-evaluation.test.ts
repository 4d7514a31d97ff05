import assert from "node:assert/strict";
import { test } from "node:test";
import type { Components } from "../../src/parse/parse-answer.js";
import {
  describeComponentDifferences,
  entirelyRight,
  Scoreboard,
} from "../../tools/parser/parser-evaluation.js";

const gold: Components = { addressNumber: "1", streetName: "MAIN", streetSuffix: "ST", city: "BOISE" };

test("an answer is entirely right when every scored component equals the gold one; other is not scored", () => {
  assert.equal(entirelyRight(gold, { ...gold, other: "ATTN" }), true);
  assert.equal(entirelyRight(gold, { ...gold, streetSuffix: "AVE" }), false);
  assert.equal(entirelyRight(gold, { ...gold, zip5: "83702" }), false, "a component the gold lacks");
  const { city: _city, ...withoutCity } = gold;
  assert.equal(entirelyRight(gold, withoutCity), false, "a gold component missing");
});

test("a wrong answer's listing names each differing component with gold's value and the answer's", () => {
  assert.equal(
    describeComponentDifferences(gold, { ...gold, streetSuffix: "AVE", zip5: "83702", other: "ATTN" }),
    "streetSuffix ST → AVE; zip5 - → 83702",
  );
  const { city: _city, ...withoutCity } = gold;
  assert.equal(describeComponentDifferences(gold, withoutCity), "city BOISE → -");
  assert.equal(describeComponentDifferences(gold, gold), "");
});

test("the scoreboard counts lines, tokens and per-component precision and recall", () => {
  const board = new Scoreboard();
  const labels = ["addressNumber", "streetName", "streetSuffix", "city"] as const;
  assert.equal(board.add(gold, labels, { components: gold, labels, confidence: 0.95 }), true);
  const wrong = { ...gold, streetName: "MAIN ST", streetSuffix: undefined };
  const wrongLabels = ["addressNumber", "streetName", "streetName", "city"] as const;
  assert.equal(board.add(gold, labels, { components: wrong, labels: wrongLabels, confidence: 0.42 }), false);
  assert.deepEqual([board.lines, board.linesRight, board.tokens, board.tokensRight], [2, 1, 8, 7]);
  assert.deepEqual(board.tally.get("streetSuffix"), { predicted: 1, gold: 2, right: 1 });
  assert.deepEqual(board.tally.get("streetName"), { predicted: 2, gold: 2, right: 1 });
  assert.deepEqual(board.bins[9], [1, 1]);
  assert.deepEqual(board.bins[4], [1, 0]);
});
