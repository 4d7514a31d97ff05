import { createHash } from "node:crypto";
import type { CrfWeights } from "./crf.js";

/**
 * The on-disk form of a trained CRF:
 *
 *   bytes 0-7   magic "SITUSCRF"
 *   bytes 8-11  format version (uint32 little-endian)
 *   bytes 12-15 header length H (uint32 LE)
 *   H bytes     header: UTF-8 JSON (ModelHeader), padded with spaces to a multiple of 4
 *   body        featureKeys: uint32[F] (the feature dictionary, position = feature id),
 *               state: float32[F × L], transition: float32[L × L], start: float32[L], end: float32[L]
 *
 * The header carries the SHA-256 of the body; loaders refuse a wrong magic, a format version
 * they do not know, a header that does not parse, a body of the wrong size or a checksum
 * mismatch (habit 3 of docs/STYLE: every artifact carries a format version).
 */
export const MODEL_FORMAT_VERSION = 1;
const MAGIC = "SITUSCRF";

export interface ModelHeader {
  formatVersion: number;
  name: string;
  version: string;
  labels: string[];
  featureCount: number;
  bodySha256: string;
  /** Feature extraction settings the features module needs to reproduce training. */
  features: Record<string, unknown>;
  /** What the model was trained on, and how. */
  training: Record<string, unknown>;
  /** Confidence calibration (Calibration below); absent: confidence = P(labels). */
  calibration?: Calibration;
}

/**
 * The answer's confidence is P(labels)^exponent, or P(labels)^agreementExponent where the model
 * was unsure and the rule-based labeller read the line the same way (the same labels, or labels
 * that give the same components), or, for a back-off answer (the rules, sure, reading the line
 * another way) that raises no warning, P(labels)^backOffExponent; the exponents are fitted on
 * cross-validation held-out lines (docs/parser-model.md "Calibration"). Without an agreement
 * exponent, agreement changes nothing; without a back-off exponent, a back-off answer claims
 * at most P(labels)^exponent.
 */
export interface Calibration {
  exponent: number;
  agreementExponent?: number;
  backOffExponent?: number;
}

export interface StoredModel {
  header: ModelHeader;
  /** Feature key (a 32-bit hash) at each feature id. */
  featureKeys: Uint32Array;
  weights: CrfWeights;
}

export class ModelFileError extends Error {
  override name = "ModelFileError";
}

export function encodeModel(
  model: Omit<StoredModel, "header"> & {
    header: Omit<ModelHeader, "bodySha256" | "formatVersion" | "featureCount">;
  },
): Buffer {
  const { weights, featureKeys } = model;
  const L = weights.labelCount;
  const F = weights.featureCount;
  const body = Buffer.alloc(4 * (F + F * L + L * L + 2 * L));
  let at = 0;
  const put = (values: ArrayLike<number>, write: (value: number, offset: number) => number) => {
    for (let i = 0; i < values.length; i++) at = write(values[i] as number, at);
  };
  put(featureKeys, (v, o) => body.writeUInt32LE(v >>> 0, o));
  for (const part of [weights.state, weights.transition, weights.start, weights.end]) {
    put(part, (v, o) => body.writeFloatLE(v, o));
  }
  const header: ModelHeader = {
    ...model.header,
    formatVersion: MODEL_FORMAT_VERSION,
    featureCount: F,
    bodySha256: createHash("sha256").update(body).digest("hex"),
  };
  let json = JSON.stringify(header);
  while (Buffer.byteLength(json) % 4 !== 0) json += " ";
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, "latin1");
  prefix.writeUInt32LE(MODEL_FORMAT_VERSION, 8);
  prefix.writeUInt32LE(Buffer.byteLength(json), 12);
  return Buffer.concat([prefix, Buffer.from(json), body]);
}

export function decodeModel(bytes: Buffer): StoredModel {
  if (bytes.length < 16 || bytes.toString("latin1", 0, 8) !== MAGIC) {
    throw new ModelFileError("not a Situs CRF model file (bad magic)");
  }
  const formatVersion = bytes.readUInt32LE(8);
  if (formatVersion !== MODEL_FORMAT_VERSION) {
    throw new ModelFileError(
      `model format version ${formatVersion} is not supported (this build reads ${MODEL_FORMAT_VERSION})`,
    );
  }
  const headerLength = bytes.readUInt32LE(12);
  const header = parseHeader(bytes.subarray(16, 16 + headerLength));
  const body = bytes.subarray(16 + headerLength);
  const L = header.labels.length;
  const F = header.featureCount;
  if (body.length !== 4 * (F + F * L + L * L + 2 * L))
    throw new ModelFileError("model body has the wrong size");
  if (createHash("sha256").update(body).digest("hex") !== header.bodySha256) {
    throw new ModelFileError("model body checksum mismatch (corrupt file)");
  }
  // Copy into aligned buffers: the body's offset in the file buffer need not be 4-aligned.
  const words = new Uint8Array(body).buffer;
  const featureKeys = new Uint32Array(words, 0, F);
  let offset = 4 * F;
  const floats = (count: number): Float32Array => {
    const view = new Float32Array(words, offset, count);
    offset += 4 * count;
    return view;
  };
  const weights: CrfWeights = {
    labelCount: L,
    featureCount: F,
    state: floats(F * L),
    transition: floats(L * L),
    start: floats(L),
    end: floats(L),
  };
  return { header, featureKeys, weights };
}

function parseHeader(raw: Buffer): ModelHeader {
  let header: unknown;
  try {
    header = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ModelFileError("model header is not valid JSON");
  }
  const h = header as Partial<ModelHeader> | null;
  if (
    h === null ||
    typeof h !== "object" ||
    h.formatVersion !== MODEL_FORMAT_VERSION ||
    typeof h.name !== "string" ||
    typeof h.version !== "string" ||
    !Array.isArray(h.labels) ||
    typeof h.featureCount !== "number" ||
    typeof h.bodySha256 !== "string"
  ) {
    throw new ModelFileError("model header is incomplete");
  }
  return h as ModelHeader;
}
