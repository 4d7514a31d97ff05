import { FORMAT_VERSION } from "./blob-envelope.js";

/**
 * The manifest of one build (`builds/<buildId>/manifest.json`): the files of the build with their
 * sizes and CRC-32s, and counts. `CURRENT` (at the store's root) names the published build and the
 * SHA-256 of its manifest, so a reader never mixes files of two builds and detects a damaged one.
 */
export const MANIFEST_FORMAT = "situs-parcel-index";

export interface BlobRef {
  file: string;
  bytes: number;
  crc32: number;
}

export interface ChunkRef extends BlobRef {
  /** The ZIP (`94103`), or `c` + county FIPS for parcels with no ZIP (`c06001`). */
  key: string;
  rows: number;
}

export interface BuildCounts {
  parcels: number;
  entries: number;
  active: number;
  superseded: number;
  retired: number;
  buildings: number;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: number;
  buildId: string;
  createdAt: string;
  previousBuildId: string | null;
  counts: BuildCounts;
  chunks: ChunkRef[];
  idShards: BlobRef[];
  streets: BlobRef;
}

export interface CurrentPointer {
  buildId: string;
  manifestSha256: string;
}

export function buildPrefix(buildId: string): string {
  return `builds/${buildId}`;
}

/** Parses a manifest; refuses another format or a version this code does not read. */
export function parseManifest(text: string, name: string): Manifest {
  let json: Partial<Manifest>;
  try {
    json = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new Error(`${name}: manifest is not JSON`);
  }
  if (json.format !== MANIFEST_FORMAT) throw new Error(`${name}: not a ${MANIFEST_FORMAT} manifest`);
  if (json.formatVersion !== FORMAT_VERSION) {
    throw new Error(
      `${name}: format version ${json.formatVersion} is not supported (this build reads ${FORMAT_VERSION})`,
    );
  }
  if (!Array.isArray(json.chunks) || !Array.isArray(json.idShards) || !json.streets || !json.buildId) {
    throw new Error(`${name}: manifest is incomplete`);
  }
  return json as Manifest;
}

export function parseCurrent(text: string): CurrentPointer {
  const json = JSON.parse(text) as Partial<CurrentPointer>;
  if (typeof json.buildId !== "string" || typeof json.manifestSha256 !== "string") {
    throw new Error("CURRENT: not a build pointer");
  }
  return { buildId: json.buildId, manifestSha256: json.manifestSha256 };
}
