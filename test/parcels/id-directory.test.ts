import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compareIds } from "../../src/parcels/format/binary-ulid.js";
import { ByteWriter } from "../../src/parcels/format/byte-writer.js";
import { IdCollector, IdShard, shardOf } from "../../src/parcels/format/id-directory.js";
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

test("every shard holds its IDs in ascending bytewise order, each found with its chunk and row", () => {
  fc.assert(
    fc.property(ids, fc.constantFrom(1, 2, 8), (list, shards) => {
      const unique = [...new Map(list.map((id) => [Buffer.from(id).toString("hex"), id])).values()];
      const collector = new IdCollector();
      unique.forEach((id, i) => collector.add(id, i % 7, i));
      const decoded = [...collector.shards(shards)].map((payload) => new IdShard(payload));
      assert.equal(decoded.length, shards);
      unique.forEach((id, i) =>
        assert.deepEqual(decoded[shardOf(id, shards)]!.find(id), { chunk: i % 7, row: i }),
      );
      for (const payload of collector.shards(shards)) {
        const count = payload.readUInt32LE(0);
        for (let i = 1; i < count; i++)
          assert.ok(compareIds(payload, 4 + (i - 1) * 16, payload, 4 + i * 16) < 0);
      }
    }),
  );
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
  const apart = [...collector.shards(8)].map((shard) => Buffer.from(shard).toString("hex"));
  const out = new ByteWriter();
  const reused: string[] = [];
  for (const shard of collector.shards(8, out)) reused.push(Buffer.from(shard).toString("hex"));
  assert.deepEqual(reused, apart);
  assert.equal(
    apart.reduce((sum, hex) => sum + hex.length / 2 - 4, 0),
    20_000 * 24,
  );
});
