import assert from "node:assert/strict";
import { test } from "node:test";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";

const sized = (bytes: number) => ({ bytes });

test("the chunk cache stays within its byte budget, evicting the least recently used", async () => {
  const cache = new ByteLru(100);
  let loads = 0;
  const load = (bytes: number) => async () => (loads++, sized(bytes));
  await cache.get("a", load(40));
  await cache.get("b", load(40));
  await cache.get("a", load(40)); // a is now the most recent
  await cache.get("c", load(40)); // evicts b
  assert.equal(cache.usedBytes, 80);
  assert.ok(cache.peek("a") && cache.peek("c") && !cache.peek("b"));
  await cache.get("huge", load(500)); // served, not kept
  assert.equal(cache.peek("huge"), undefined);
  assert.equal(loads, 4);
  const [x, y] = await Promise.all([cache.get("d", load(10)), cache.get("d", load(10))]);
  assert.equal(x, y, "one load for concurrent requests of one key");
  assert.equal(loads, 5);
  cache.evictKeys(["d", "never cached"]);
  assert.equal(cache.peek("d"), undefined);
  assert.equal(cache.usedBytes, 80);
});

test("the chunk cache evicts in order of last use, however entries were reached", async () => {
  const cache = new ByteLru(50);
  const load = (bytes: number) => async () => sized(bytes);
  for (const key of ["a", "b", "c", "d", "e"]) await cache.get(key, load(10));
  assert.ok(cache.peek("a")); // recency: b c d e a
  await cache.get("c", load(10)); // b d e a c
  cache.evictKeys(["d"]); // b e a c
  await cache.get("f", load(20)); // over by 10: b goes; e a c f
  assert.deepEqual(
    ["a", "b", "c", "d", "e", "f"].map((key) => cache.peek(key) !== undefined),
    [true, false, true, false, true, true],
  );
  assert.equal(cache.usedBytes, 50);
  await cache.get("g", load(30)); // the peeks above left a c e f: a, c and e go, in that order
  assert.equal(cache.usedBytes, 50);
  assert.ok(cache.peek("g") && cache.peek("f"), "f was used after a, c and e"); // g f
  await cache.get("h", load(50));
  assert.deepEqual(
    ["a", "c", "e", "f", "g", "h"].map((key) => cache.peek(key) !== undefined),
    [false, false, false, false, false, true],
  );
  assert.equal(cache.usedBytes, 50);
});

test("the gazetteer answers city → states and ZIPs, ZIP → place, and the nearest ZIP", () => {
  const places = nationalGazetteer();
  assert.equal(places.size, 42_555 - 0, "every US ZIP of the pinned zipcodes package");
  assert.ok(places.statesOf("SPRINGFIELD").length > 10);
  assert.deepEqual(places.statesOf("BERKELEY").includes("CA"), true);
  assert.ok(places.zipsOf("BERKELEY", "CA").includes("94704"));
  assert.deepEqual([places.zip("94704")?.city, places.zip("94704")?.state], ["BERKELEY", "CA"]);
  assert.equal(places.nearestZip(57.83, -152.36, "AK")?.city, "KODIAK");
  assert.equal(places.nearestZip(0, 0), undefined, "nothing within a degree of the Gulf of Guinea");
});
