import assert from "node:assert/strict";
import { test } from "node:test";
import { crc32 } from "node:zlib";
import { openBlob, sealBlob } from "../../src/parcels/format/blob-envelope.js";
import { SealPool } from "../../src/parcels/store/seal-pool.js";

test("a seal pool answers what sealBlob answers, on workers or in place, while its input buffer is reused", async () => {
  for (const workers of [0, 2]) {
    const pool = new SealPool(workers);
    const reused = Buffer.alloc(200_000);
    const sealing = [1_000, 50_000, 200_000].map((size, i) => {
      reused.fill(i + 1, 0, size);
      return pool.seal("chunk", reused.subarray(0, size));
    });
    const sealed = await Promise.all(sealing);
    sealed.forEach(({ blob, crc32: checksum }, i) => {
      const size = [1_000, 50_000, 200_000][i]!;
      assert.deepEqual(openBlob("chunk", blob, "test"), Buffer.alloc(size, i + 1));
      assert.deepEqual(blob, sealBlob("chunk", Buffer.alloc(size, i + 1)));
      assert.equal(checksum, crc32(blob));
    });
    await pool.close();
  }
});
