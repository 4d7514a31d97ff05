import { UlidGenerator } from "../../src/parcels/format/binary-ulid.js";
import type { BlobStore } from "../../src/parcels/store/blob-store.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { assignIdentities, emptyPreviousState } from "../../src/parcels/ingest/identity.js";
import { BuildWriter, publishBuild } from "../../src/parcels/store/index-writer.js";
import type { Manifest } from "../../src/parcels/format/manifest.js";
import { ParcelGroups } from "../../src/parcels/ingest/parcel-groups.js";
import type { IngestRow } from "../../src/parcels/parcel-row.js";
import { emptyIngestRow } from "../../src/parcels/parcel-row.js";
import type { StoredEntry } from "../../src/parcels/parcel-row.js";
import type { SyntheticParcel } from "../../src/parcels/demo/synthetic.js";
import { nationalParcels, nationalPlan } from "../../src/parcels/demo/synthetic-national.js";

/**
 * Builds and publishes a deterministic synthetic national index straight from the generator
 * (identities, buildings, chunks, ID directory), without a CSV in between: what the benchmarks
 * serve and read. `onEntry` sees every stored entry (with its place in its ZIP's chunk), for benchmarks that sample their queries.
 */
export async function buildSyntheticIndex(
  store: BlobStore,
  parcels: number,
  zips: number,
  onEntry: (entry: StoredEntry, indexInChunk: number) => void = () => {},
): Promise<Manifest> {
  const plan = nationalPlan(nationalGazetteer(), parcels, zips);
  const writer = new BuildWriter(store, null);
  const ids = new UlidGenerator();
  try {
    for (const [place, generated] of nationalParcels(plan)) {
      const groups = new ParcelGroups();
      for (const parcel of generated) groups.add(toRow(parcel));
      const { entries } = assignIdentities(groups, emptyPreviousState(), ids);
      entries.forEach(onEntry);
      await writer.addChunk(place.zip5, entries);
    }
    const manifest = await writer.finish();
    await publishBuild(store, manifest);
    return manifest;
  } finally {
    writer.discard();
  }
}

/** A generated parcel as an ingest row, field by field (a rest spread per row costs more than the build). */
export function toRow(p: SyntheticParcel): IngestRow {
  const row = emptyIngestRow("synthetic", 0);
  row.apn = p.apn;
  row.fips = p.fips;
  row.addressNumber = p.addressNumber;
  row.addressNumberSuffix = p.addressNumberSuffix;
  row.predirectional = p.predirectional;
  row.streetName = p.streetName;
  row.streetSuffix = p.streetSuffix;
  row.occupancyType = p.occupancyType;
  row.occupancyId = p.occupancyId;
  row.city = p.city;
  row.state = p.state;
  row.zip5 = p.zip5;
  row.lat = p.lat;
  row.lon = p.lon;
  return row;
}
