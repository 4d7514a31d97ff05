import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { generateZip } from "../../src/parcels/demo/synthetic.js";
import { REALISTIC_LARGEST_ZIP, realisticNationalPlan } from "../../src/parcels/demo/synthetic-national.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { PART_ROWS } from "../../src/parcels/format/chunk-parts.js";
import { partKey } from "../../src/parcels/format/manifest.js";
import { buildNationalInParallel } from "../../tools/parcels/parallel-national-build.js";
import { temporaryDir } from "./index-fixtures.js";

const gazetteer = nationalGazetteer();

test("the realistic national plan spreads exactly its parcels over every state's ZIPs, none over the cap", () => {
  const plan = realisticNationalPlan(gazetteer, 155_000_000);
  const counts = plan.map(([, count]) => count).sort((a, b) => a - b);
  assert.equal(
    counts.reduce((sum, count) => sum + count, 0),
    155_000_000,
  );
  assert.equal(counts.at(-1), REALISTIC_LARGEST_ZIP);
  const median = counts[counts.length >> 1]!;
  assert.ok(median > 1_500 && median < 4_000, `median ${median}`);
  const states = new Set(plan.filter(([, count]) => count > 0).map(([place]) => place.state));
  for (const state of ["CA", "TX", "NY", "AK", "HI", "PR", "DC", "WY"]) assert.ok(states.has(state), state);
  assert.ok(!states.has("AE"));
  assert.deepEqual(realisticNationalPlan(gazetteer, 1_000_000), realisticNationalPlan(gazetteer, 1_000_000));
});

test("a realistic ZIP has lettered and fractional numbers, predirectionals and direction-word streets", () => {
  const place = gazetteer.allPlaces().find((p) => p.zip5 === "94704")!;
  const parcels = generateZip(place, 3000, 1, true);
  assert.ok(parcels.some((p) => p.addressNumberSuffix === "B"));
  assert.ok(parcels.some((p) => p.addressNumberSuffix === "1/2"));
  assert.ok(parcels.some((p) => p.predirectional !== ""));
  assert.ok(parcels.some((p) => /^(NORTH|SOUTH|EAST|WEST) /.test(p.streetName)));
  // The plain generator (demo index, other benchmarks) is unchanged by it.
  assert.ok(generateZip(place, 3000).every((p) => p.addressNumberSuffix === "" && p.predirectional === ""));
});

test("a build on worker threads answers every sampled parcel by address and by ID", async (t) => {
  const dir = temporaryDir(t);
  const plan = realisticNationalPlan(gazetteer, 300_000)
    .filter(([place]) => place.state === "RI")
    .slice(0, 12);
  // One ZIP large enough to be split into parts of whole streets.
  plan[3]![1] = PART_ROWS * 2 + 1_000;
  const samples: Array<{ request: Record<string, string>; id: string }> = [];
  const manifest = await buildNationalInParallel(join(dir, "index"), plan, {
    realistic: true,
    sampleEvery: 97,
    workers: 2,
    idOptions: { memoryIds: 1000, spillDir: dir },
    onZip: (_place, result) => samples.push(...result.samples),
  });
  const parcels = plan.reduce((sum, [, count]) => sum + count, 0);
  assert.equal(manifest.chunks.length, plan.filter(([, count]) => count > 0).length + 2);
  assert.deepEqual(
    manifest.chunks.filter((chunk) => chunk.key.startsWith(plan[3]![0].zip5)).map((chunk) => chunk.key),
    [0, 1, 2].map((part) => partKey(plan[3]![0].zip5, part)),
  );
  assert.deepEqual(
    manifest.chunks.map((chunk) => chunk.key),
    [...manifest.chunks.map((chunk) => chunk.key)].sort(),
  );
  assert.ok(manifest.counts.entries >= parcels);
  assert.ok(samples.length > parcels / 120, `${samples.length} samples`);
  const index = await StoredParcelIndex.open(new LocalBlobStore(join(dir, "index")), {
    cacheBytes: 1 << 26,
    refreshMs: 0,
  });
  t.after(() => index.close());
  for (const { request, id } of samples) {
    const answer = (await index.lookup(request as LookupRequest)).result as LookupAnswer;
    assert.equal(answer.service_id, id, JSON.stringify(request));
    assert.equal((await index.findById(id)).result?.service_id, id);
  }
});
