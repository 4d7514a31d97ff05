/**
 * The manifest of one build (`builds/<buildId>/manifest.json`): the files of the build with their
 * sizes and CRC-32s, and counts. `CURRENT` (at the store's root) names the published build and the
 * SHA-256 of its manifest, so a reader never mixes files of two builds and detects a damaged one.
 *
 * Version 2 lets a build keep the chunks of an earlier one (a refresh of one county rewrites only
 * the chunks that county touches): a chunk names the build whose folder holds its file, the
 * counties it holds and its counts; the build has a places directory.
 *
 * Version 3 layers the ID directory (`idLayers`, in place of `idShards`): a build that rewrites
 * some chunks writes a layer for their parcels only and keeps the layers of earlier builds, so a
 * county refreshed in a national index does not rewrite the directory of the nation. Entries name
 * their chunk by key (`chunkKeyCode`), not by position, so they stay true while chunks are added
 * around them.
 *
 * Version 4 splits a large ZIP (or county) into parts of whole streets (chunk-parts.ts): keys
 * `94103`, `94103-0001`, …, adjacent in key order. Versions 1 to 3 are still read.
 */
export const MANIFEST_FORMAT = "situs-parcel-index";
export const MANIFEST_VERSION = 4;
const READABLE_VERSIONS = [1, 2, 3, 4];

export interface BlobRef {
  file: string;
  bytes: number;
  crc32: number;
}

export interface ChunkCounts {
  parcels: number;
  active: number;
  superseded: number;
  retired: number;
  buildings: number;
}

export interface ChunkRef extends BlobRef {
  /**
   * The ZIP (`94103`), or `c` + county FIPS for parcels with no ZIP (`c06001`); a further part of
   * a large one adds its number (`94103-0001`, chunk-parts.ts).
   */
  key: string;
  rows: number;
  /** The build whose folder holds the file (an earlier one when this build kept it); version 2. */
  build?: string;
  /** FIPS codes of the counties with entries in the chunk, ascending; version 2. */
  counties?: string[];
  /** What the chunk adds to the build's counts; version 2. */
  counts?: ChunkCounts;
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
  /** The ID directory of versions 1 and 2: entries name chunks by manifest position. */
  idShards?: BlobRef[];
  /** The ID directory of version 3, oldest layer first: entries name chunks by key code. */
  idLayers?: IdLayer[];
  streets: BlobRef;
  /** The cities of every chunk (version 2): city lookups also reach places the gazetteer lacks. */
  places?: BlobRef;
}

/**
 * One layer of the ID directory: the parcels of the chunks one build wrote. A lookup asks the
 * newest layer first; the first that has the ID answers.
 */
export interface IdLayer {
  /** The build whose folder holds the layer's shards. */
  build: string;
  /** IDs in the layer. */
  entries: number;
  shards: BlobRef[];
  /** The keys of the chunks the layer covers, ascending; absent when it covers every chunk of its build. */
  keys?: string[];
}

/**
 * A chunk key as a number for the ID directory: a ZIP as itself (`94103` → 94103), a county chunk
 * after every ZIP (`c06001` → 106001), a further part PART_CODE_STEP apart for each part number
 * (`94103-0002` → 494103).
 */
export function chunkKeyCode(key: string): number {
  const { base, part } = splitPartKey(key);
  return part * PART_CODE_STEP + (base.startsWith("c") ? 100_000 + Number(base.slice(1)) : Number(base));
}

/** Codes of part 0 are below this (ZIPs and county FIPS); a u32 holds 21,000 parts of each. */
const PART_CODE_STEP = 200_000;

/** The key of part `part` of a ZIP's (or county's) chunks: part 0 is the key itself. */
export function partKey(base: string, part: number): string {
  return part === 0 ? base : `${base}-${String(part).padStart(PART_DIGITS, "0")}`;
}

/** Digits of a part number in its key: zero-padded, so keys sort as their parts do (9,999 parts). */
export const PART_DIGITS = 4;

/** A chunk key's ZIP (or `c` + FIPS) and part number. */
export function splitPartKey(key: string): { base: string; part: number } {
  const base = baseKey(key);
  return { base, part: base === key ? 0 : Number(key.slice(base.length + 1)) };
}

/** The ZIP (or `c` + FIPS) of a chunk key, without its part. */
export function baseKey(key: string): string {
  const dash = key.indexOf("-");
  return dash < 0 ? key : key.slice(0, dash);
}

/** Every ID shard file of a manifest, whichever version. */
export function idShardRefs(manifest: Manifest): BlobRef[] {
  return manifest.idLayers ? manifest.idLayers.flatMap((layer) => layer.shards) : (manifest.idShards ?? []);
}

export interface CurrentPointer {
  buildId: string;
  manifestSha256: string;
}

export function buildPrefix(buildId: string): string {
  return `builds/${buildId}`;
}

/** The store key of a chunk's file: in its own build's folder, or in the earlier build that wrote it. */
export function chunkPath(buildId: string, ref: ChunkRef): string {
  return `${buildPrefix(ref.build ?? buildId)}/${ref.file}`;
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
  if (!READABLE_VERSIONS.includes(json.formatVersion ?? 0)) {
    throw new Error(
      `${name}: format version ${json.formatVersion} is not supported (this build reads ${READABLE_VERSIONS.slice(0, -1).join(", ")} and ${READABLE_VERSIONS.at(-1)})`,
    );
  }
  const ids = (json.formatVersion ?? 0) >= 3 ? json.idLayers : json.idShards;
  if (!Array.isArray(json.chunks) || !Array.isArray(ids) || !json.streets || !json.buildId) {
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
