import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { ByteWriter } from "../../src/parcels/format/byte-writer.js";
import { IdCollector, LayerShard, recordChunk, shardOf } from "../../src/parcels/format/id-directory.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";

/** IDs that share long prefixes (one millisecond, a counter) as well as random ones. */
const ids = fc.array(
  fc.oneof(
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
    fc
      .integer({ min: 0, max: 300 })
      .map((n) =>
        Uint8Array.from(
          { length: 16 },
          (_, i) => (i < 14 ? 7 : 0) + (i === 15 ? n & 255 : i === 14 ? n >> 8 : 0),
        ),
      ),
  ),
  { maxLength: 400 },
);

test("every ID is found in its shard with its chunk and row; entries are in (chunk, row) order", () => {
  fc.assert(
    fc.property(ids, fc.constantFrom(1, 2, 8), (list, shards) => {
      const unique = [...new Map(list.map((id) => [Buffer.from(id).toString("hex"), id])).values()];
      const collector = new IdCollector();
      // Chunks and rows as a build gives them: each (chunk, row) one parcel.
      unique.forEach((id, i) => collector.add(id, (i * 7) % 5, i));
      const decoded: LayerShard[] = [];
      for (const { shard, payload } of collector.shards(shards)) decoded[shard] = new LayerShard(payload);
      assert.equal(decoded.length, shards);
      unique.forEach((id, i) => {
        const places = decoded[shardOf(id, shards)]!.find(id);
        // Six bytes identify an entry; IDs that share them are each a place to check.
        const twins = unique.filter((other) => Buffer.compare(other.subarray(10), id.subarray(10)) === 0);
        assert.equal(places.length, twins.length);
        assert.ok(places.some((place) => place.chunk === (i * 7) % 5 && place.row === i));
      });
      for (const shard of decoded) {
        const records: Array<[number, number]> = [];
        shard.forEachRecord((record) =>
          records.push([recordChunk(record), record[12]! | (record[13]! << 8)]),
        );
        for (let i = 1; i < records.length; i++) {
          const [chunk, row] = records[i]!;
          const [lastChunk, lastRow] = records[i - 1]!;
          assert.ok(chunk > lastChunk || (chunk === lastChunk && row > lastRow));
        }
      }
    }),
  );
});

test("a shard keeps six bytes of an ID and small numbers: under 10 bytes an entry before compression", () => {
  const collector = new IdCollector();
  const random = seededRandom(3);
  for (let i = 0; i < 8000; i++) {
    collector.add(
      Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)),
      94000 + Math.floor(random() * 300),
      Math.floor(random() * 4000),
    );
  }
  const { payload } = [...collector.shards(1)][0]!;
  assert.ok(payload.length < 8000 * 10, `${payload.length} bytes`);
});

test("shards written into one reused writer are the shards written apart, across collector blocks", () => {
  const collector = new IdCollector();
  const random = seededRandom(11);
  for (let i = 0; i < 20_000; i++) {
    collector.add(
      Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)),
      i % 5,
      i,
    );
  }
  const apart = [...collector.shards(8)].map(({ payload }) => Buffer.from(payload).toString("hex"));
  const out = new ByteWriter();
  const reused: string[] = [];
  for (const { payload } of collector.shards(8, out)) reused.push(Buffer.from(payload).toString("hex"));
  assert.deepEqual(reused, apart);
  assert.equal(
    [...collector.shards(8)].reduce((sum, { payload }) => sum + new LayerShard(payload).size, 0),
    20_000,
  );
});

/** The directory a collector encodes, shard by shard, as hex. */
function encoded(collector: IdCollector, shards: number): string[] {
  const out: string[] = new Array<string>(shards);
  for (const { shard, payload } of collector.shards(shards)) {
    assert.equal(out[shard], undefined, `shard ${shard} encoded twice`);
    out[shard] = Buffer.from(payload).toString("hex");
  }
  return out;
}

test("a collector that spills to files encodes the directory it would have held in memory", (t) => {
  const spillDir = mkdtempSync(join(tmpdir(), "ids-test-"));
  t.after(() => rmSync(spillDir, { recursive: true, force: true }));
  const random = seededRandom(5);
  const count = 30_000;
  const ids = Array.from({ length: count }, () =>
    Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)),
  );
  for (const shards of [4, 512]) {
    const memory = new IdCollector();
    const spilling = new IdCollector({ memoryIds: 10_000, spillDir });
    ids.forEach((id, i) => {
      memory.add(id, i % 11, i);
      spilling.add(id, i % 11, i);
    });
    assert.equal(memory.spilled, false);
    assert.equal(spilling.spilled, true);
    assert.equal(readdirSync(spillDir).length, 1);
    assert.deepEqual(encoded(spilling, shards), encoded(memory, shards));
    // Once encoded, the spill files are gone.
    assert.deepEqual(readdirSync(spillDir), []);
  }
});

test("a build abandoned before its directory is encoded leaves no spill files", (t) => {
  const spillDir = mkdtempSync(join(tmpdir(), "ids-test-"));
  t.after(() => rmSync(spillDir, { recursive: true, force: true }));
  const collector = new IdCollector({ memoryIds: 8192, spillDir });
  for (let i = 0; i < 9000; i++)
    collector.add(
      Uint8Array.from({ length: 16 }, (_, k) => (i >> k) & 255),
      0,
      i,
    );
  assert.equal(readdirSync(spillDir).length, 1);
  collector.discard();
  collector.discard();
  assert.deepEqual(readdirSync(spillDir), []);
});
