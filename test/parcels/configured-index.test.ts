import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { openConfiguredIndex } from "../../src/app/configured-index.js";
import { exportedRows, temporaryDir } from "./index-fixtures.js";

test("with no INDEX the service builds the demo index on first start and serves it", async (t) => {
  const dir = temporaryDir(t);
  const config = loadConfig({ DATA_DIR: dir, INDEX_REFRESH_MS: "0" });
  const index = await openConfiguredIndex(config, pino({ level: "silent" }));
  t.after(() => index.close());
  assert.ok(index.buildId);
  const rows = await exportedRows(new LocalBlobStore(join(dir, "index")));
  assert.ok(rows.length > 15_000);
  const statuses = new Set(rows.map((r) => r.status));
  assert.deepEqual([...statuses].sort(), ["active", "retired", "superseded"], "two versions: lineage to try");
  assert.ok(
    rows.some((r) => r.building_id !== "" && r.occupancyId !== ""),
    "condo buildings",
  );
  assert.ok(
    rows.some((r) => r.streetName === "" && r.status === "active"),
    "parcels without a situs address",
  );
  const superseded = rows.find((r) => r.status === "superseded")!;
  const record = (await index.findById(superseded.service_id)).result;
  assert.deepEqual(record?.superseded_by.sort(), superseded.superseded_by.split(";").sort());
  const springfield = (await index.lookup({ streetName: "MAIN", city: "Springfield" })).result;
  assert.ok("error" in springfield && springfield.states > 2, "a city in several states needs a state");

  const again = await openConfiguredIndex(config, pino({ level: "silent" }));
  t.after(() => again.close());
  assert.equal(again.buildId, index.buildId, "the second start reuses the demo index");
});

test("INDEX names the store; a store with nothing published answers 503 until a build appears", async (t) => {
  const dir = temporaryDir(t);
  const config = loadConfig({ DATA_DIR: dir, INDEX: `file://${join(dir, "empty")}`, INDEX_REFRESH_MS: "0" });
  const index = await openConfiguredIndex(config, pino({ level: "silent" }));
  t.after(() => index.close());
  assert.equal(index.buildId, null);
  assert.equal(index.store.url, `file://${join(dir, "empty")}`);
  assert.throws(() => loadConfig({ CHUNK_CACHE_BYTES: "12" }), /CHUNK_CACHE_BYTES/);
});
