import { projectPath } from "../../src/paths.js";
import type { SourceFormat } from "../../src/parcels/sources/open-source.js";

/**
 * The real county files of ../shared/data/parcels (gis/README.md and README.md describe them),
 * each county with the files that hold it and the shipped mapping (data/parcel-mappings/). One
 * county is one ingest command: files of one county (Alameda's three excerpts) go in together.
 */
export const SHARED_DATA = projectPath("..", "shared", "data", "parcels");

export interface CountyDataset {
  name: string;
  fips: string;
  files: Array<{ path: string; mapping: string; format?: SourceFormat }>;
}

export const COUNTY_DATASETS: readonly CountyDataset[] = [
  {
    name: "alameda",
    fips: "06001",
    files: [
      { path: "alameda_county_spad_situs.csv", mapping: "county-layout.json" },
      { path: "berkeley_parcels.csv", mapping: "county-layout.json" },
      { path: "oakland_parcels_2013_centroids.csv", mapping: "county-layout.json" },
    ],
  },
  {
    name: "sevier",
    fips: "49041",
    files: [{ path: "utah_sevier_address_points.csv", mapping: "county-layout.json" }],
  },
  { name: "kodiak", fips: "02150", files: [{ path: "kodiak_island_borough.csv", mapping: "kodiak.json" }] },
  {
    name: "san-francisco",
    fips: "06075",
    files: [
      {
        path: "gis/san-francisco/eas_addresses_with_units/eas_addresses_with_units.shp",
        mapping: "san-francisco.json",
      },
    ],
  },
  {
    name: "yuba",
    fips: "06115",
    files: [{ path: "gis/yuba/AddressPoints/AddressPntsYubaCounty.shp", mapping: "yuba.json" }],
  },
  {
    name: "saline",
    fips: "05125",
    files: [{ path: "gis/saline/mills_parcels/parcels.geojson", mapping: "saline.json" }],
  },
  {
    name: "davis",
    fips: "49011",
    files: [{ path: "gis/davis/in_house_gis_parcels/parcels.geojson", mapping: "davis.json" }],
  },
  {
    name: "pierce",
    fips: "53053",
    files: [
      { path: "gis/pierce/eatonville_parcels_features/parcels_features.geojson", mapping: "pierce.json" },
    ],
  },
  {
    name: "bucks",
    fips: "42017",
    files: [{ path: "gis/bucks/openaddresses_fixture/addresses.geojson", mapping: "bucks.json" }],
  },
];
