import { resolve } from "node:path";

/**
 * The service's configuration: one schema, read once from the environment at start.
 * Each entry documents itself; `describeConfig()` prints the table that `bin/situs --help`
 * and docs/operating.md show.
 */
type Parse<T> = (raw: string, name: string) => T;

interface Entry<T, D extends string | undefined = string | undefined> {
  readonly doc: string;
  readonly default: D;
  readonly parse: Parse<T>;
}

function entry<T, D extends string | undefined>(doc: string, defaultValue: D, parse: Parse<T>): Entry<T, D> {
  return { doc, default: defaultValue, parse };
}

const text: Parse<string> = (raw) => raw;

function integer(min: number, max: number): Parse<number> {
  return (raw, name) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
}

const boolean: Parse<boolean> = (raw, name) => {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};

const SCHEMA = {
  PORT: entry("TCP port to listen on.", "8080", integer(0, 65535)),
  HOST: entry("Address to bind.", "127.0.0.1", text),
  DATA_DIR: entry("Directory for everything the embedded defaults write.", "./var", (raw) => resolve(raw)),
  TLS_CERT: entry("PEM certificate file; with TLS_KEY the service speaks HTTPS.", undefined, text),
  TLS_KEY: entry("PEM private key file for TLS_CERT.", undefined, text),
  DEMO_API_KEY: entry("Fixes the demo team's API key (created on first start).", undefined, text),
  LOG_LEVEL: entry("pino log level: fatal, error, warn, info, debug, trace, silent.", "info", text),
  TRUST_PROXY: entry(
    "Take the client address from X-Forwarded-For (behind a load balancer).",
    "false",
    boolean,
  ),
  BODY_LIMIT_BYTES: entry(
    "Largest request body read; larger gets 413 body_too_large.",
    "65536",
    integer(1024, 16 << 20),
  ),
  KEY_CHECK_TIMEOUT_MS: entry(
    "How long an API key check may take before 503 unavailable.",
    "2000",
    integer(10, 60_000),
  ),
  UNKNOWN_KEY_LIMIT: entry(
    "Different unrecognized keys one client address may present a minute before 429 rate_limited.",
    "10",
    integer(1, 1_000_000),
  ),
  PRICE_PARSE_MICROS: entry(
    "Price of one billed parse, in micro-units of the currency.",
    "1000",
    integer(0, 1e12),
  ),
  PRICE_LOOKUP_MICROS: entry("Price of one billed lookup, in micro-units.", "5000", integer(0, 1e12)),
  PRICE_LOOKUP_BY_ID_MICROS: entry(
    "Price of one billed lookup by ID, in micro-units.",
    "2000",
    integer(0, 1e12),
  ),
  PARSER_MODEL_FILE: entry(
    "Trained parser model; when missing or unreadable the rule-based parser answers (model_unavailable). Default: data/model/situs-crf.bin in the project.",
    undefined,
    (raw) => resolve(raw),
  ),
} as const;

type Schema = typeof SCHEMA;
type Required = {
  [K in keyof Schema as Schema[K]["default"] extends string ? K : never]: ReturnType<Schema[K]["parse"]>;
};
type Optional = {
  [K in keyof Schema as Schema[K]["default"] extends string ? never : K]?: ReturnType<Schema[K]["parse"]>;
};

export type Config = Required & Optional;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment into a Config, reporting every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(SCHEMA) as Array<[string, Entry<unknown>]>) {
    const raw = env[name] === "" ? undefined : (env[name] ?? spec.default);
    if (raw === undefined) continue;
    try {
      config[name] = spec.parse(raw, name);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if ((config.TLS_CERT === undefined) !== (config.TLS_KEY === undefined)) {
    problems.push("TLS_CERT and TLS_KEY must be given together");
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  return config as Config;
}

/** The documented variables with their defaults, one line each. */
export function describeConfig(): string {
  return Object.entries(SCHEMA)
    .map(
      ([name, spec]) =>
        `  ${name.padEnd(26)} ${spec.doc}${spec.default === undefined ? "" : ` [${spec.default}]`}`,
    )
    .join("\n");
}
