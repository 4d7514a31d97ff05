import { resolve } from "node:path";
import { parseTrustProxy } from "./http/client-address.js";

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

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

const logLevel: Parse<string> = (raw, name) => {
  if (!LOG_LEVELS.includes(raw))
    throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  return raw;
};

/** A URL of one of `schemes` (`postgres:`), kept as written; the message never shows a password. */
function url(what: string, schemes: readonly string[]): Parse<string> {
  return (raw, name) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(raw);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !schemes.includes(parsed.protocol) || parsed.hostname === "") {
      const example = `${schemes[0]}//HOST:PORT/…`;
      throw new ConfigError(`${name} must be ${what} URL (${example}), got "${withoutPassword(raw)}"`);
    }
    return raw;
  };
}

/** `INDEX`: a directory, `file:///DIR` or `s3://BUCKET/PREFIX`. */
const indexLocation: Parse<string> = (raw, name) => {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return raw;
  if (scheme === "s3" && /^s3:\/\/[^/]+/i.test(raw)) return raw;
  if (scheme === "file" && raw.length > "file://".length) return raw;
  throw new ConfigError(`${name} must be a directory, file:///DIR or s3://BUCKET/PREFIX, got "${raw}"`);
};

/** `postgres://user:secret@host` → `postgres://user:***@host`, for messages. */
export function withoutPassword(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, "$1***@");
}

/** `ACCESS_LOG`: `on` (every request, 1), `off` (0) or `sample:N` (one request in N). */
const accessLog: Parse<number> = (raw, name) => {
  if (raw === "on") return 1;
  if (raw === "off") return 0;
  const every = /^sample:(\d{1,7})$/.exec(raw)?.[1];
  if (every !== undefined && Number(every) >= 1) return Number(every);
  throw new ConfigError(`${name} must be on, off or sample:N (one request in N), got "${raw}"`);
};

const SCHEMA = {
  WORKERS: entry(
    "Server processes sharing the port; default: the number of cores with DATABASE_URL, 1 on the embedded database (which one process holds, with the portal).",
    undefined,
    integer(1, 256),
  ),
  PORT: entry("TCP port to listen on.", "8080", integer(0, 65535)),
  HOST: entry("Address to bind.", "127.0.0.1", text),
  DATA_DIR: entry("Directory for everything the embedded defaults write.", "./var", (raw) => resolve(raw)),
  TLS_CERT: entry("PEM certificate file; with TLS_KEY the service speaks HTTPS.", undefined, text),
  TLS_KEY: entry("PEM private key file for TLS_CERT.", undefined, text),
  DEMO_API_KEY: entry("Fixes the demo team's API key (created on first start).", undefined, text),
  LOG_LEVEL: entry("pino log level: fatal, error, warn, info, debug, trace, silent.", "info", logLevel),
  ACCESS_LOG: entry(
    "One log line per request (method, route, status, error code, latency, request and team IDs): on, off, or sample:N.",
    "on",
    accessLog,
  ),
  TRUST_PROXY: entry(
    "The load balancers in front, whose X-Forwarded-For (the address they saw) and X-Situs-Request-Id are believed: their addresses or CIDR ranges (10.0.0.5,10.0.0.0/24, loopback), or how many proxies are in front (1); false: none.",
    "false",
    (raw, name) => {
      try {
        return parseTrustProxy(raw, name);
      } catch (error) {
        throw new ConfigError((error as Error).message);
      }
    },
  ),
  CLIENT_IPV6_PREFIX: entry(
    "IPv6 clients are counted per network of this many bits by the unknown-key, sign-in and connection limits (an IPv4 client per address).",
    "64",
    integer(16, 128),
  ),
  REQUEST_TIMEOUT_MS: entry(
    "Longest a client may take to send a whole request (headers and body) before 408 request_timeout and the connection closed.",
    "10000",
    integer(1000, 600_000),
  ),
  HEADERS_TIMEOUT_MS: entry(
    "Longest a client may take to send a request's headers before the connection is closed with 408.",
    "5000",
    integer(1000, 600_000),
  ),
  CONNECTIONS_PER_CLIENT: entry(
    "Open connections one client address may hold (trusted proxies excepted); past it a new connection gets 503 overloaded and is closed.",
    "256",
    integer(1, 1_000_000),
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
  SHED_EVENT_LOOP_DELAY_MS: entry(
    "Event-loop delay past which requests get 503 overloaded at once instead of queueing (0: never).",
    "250",
    integer(0, 60_000),
  ),
  PUBLIC_URL: entry(
    "The API's address as clients reach it (https://api.example.com), the server named by GET /openapi.json and /docs; unset: the address each request came to.",
    undefined,
    url("an http or https", ["https:", "http:"]),
  ),
  METRICS_PORT: entry(
    "Port of the Prometheus metrics (GET /metrics, on HOST); unset: no metrics served.",
    undefined,
    integer(1, 65535),
  ),
  SHUTDOWN_TIMEOUT_MS: entry(
    "On SIGTERM or SIGINT, longest the server waits for requests in flight before closing every connection (a second signal stops it at once).",
    "10000",
    integer(0, 600_000),
  ),
  DATABASE_URL: entry(
    "PostgreSQL URL of the accounts database; unset: embedded PGlite in DATA_DIR/accounts.",
    undefined,
    url("a PostgreSQL", ["postgres:", "postgresql:"]),
  ),
  REDIS_URL: entry(
    "Redis URL sharing the unrecognized-key limit across replicas; unset: in memory.",
    undefined,
    url("a Redis", ["redis:", "rediss:"]),
  ),
  REDIS_PREFIX: entry("Prefix of every key the service writes to Redis.", "situs:", text),
  REDIS_TIMEOUT_MS: entry(
    "Longest a Redis command may take before the key-guess limit fails open (the key is read from the database).",
    "500",
    integer(50, 60_000),
  ),
  DATABASE_TIMEOUT_MS: entry(
    "Longest an accounts database statement may take before it fails (then 503 unavailable).",
    "2000",
    integer(100, 60_000),
  ),
  KEY_CACHE_TTL_MS: entry(
    "Longest a key verdict is reused while change notifications flow (without them: 1000).",
    "30000",
    integer(0, 3_600_000),
  ),
  TEAM_REFRESH_MS: entry(
    "Longest a team's standing (paused, credit, month spend) is reused before it is re-read.",
    "1000",
    integer(0, 60_000),
  ),
  USAGE_COMMIT_WINDOW_MS: entry(
    "Group commit (PostgreSQL): how long a billed answer waits for others while earlier batches are written; 0: only the current turn of the event loop.",
    "0",
    integer(0, 1000),
  ),
  REQUEST_LOG_RETENTION_DAYS: entry("Days request logs are kept.", "30", integer(1, 3650)),
  CURRENCY: entry("ISO 4217 code of the currency prices and money are kept in.", "USD", (raw, name) => {
    if (!/^[A-Z]{3}$/.test(raw))
      throw new ConfigError(`${name} must be an ISO 4217 code such as USD, got "${raw}"`);
    return raw;
  }),
  DEMO_PORTAL_EMAIL: entry("E-mail of the demo team's portal user.", "demo@example.com", text),
  DEMO_PORTAL_PASSWORD: entry(
    "Fixes the demo portal user's password (at least 12 characters); unset: random, printed once.",
    undefined,
    text,
  ),
  PORTAL_SESSION_IDLE_MINUTES: entry(
    "Portal sessions end after this long without a request.",
    "30",
    integer(1, 1440),
  ),
  PORTAL_SESSION_MAX_HOURS: entry(
    "Portal sessions end this long after sign-in at the latest.",
    "12",
    integer(1, 720),
  ),
  PORTAL_SIGN_IN_LIMIT: entry(
    "Failed portal sign-ins per e-mail address in the window before further attempts are refused.",
    "5",
    integer(1, 1000),
  ),
  PORTAL_SIGN_IN_CLIENT_LIMIT: entry(
    "Failed portal sign-ins per client address in the window before further attempts are refused.",
    "20",
    integer(1, 100_000),
  ),
  PORTAL_SIGN_IN_WINDOW_MINUTES: entry("Window of the portal sign-in limits.", "15", integer(1, 1440)),
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
  INDEX: entry(
    "Parcel index store: a directory, file:///DIR or s3://BUCKET/PREFIX; unset: the demo index in DATA_DIR/index (built on first start).",
    undefined,
    indexLocation,
  ),
  INDEX_REFRESH_MS: entry(
    "How often to look for a newly published index build (0: never).",
    "5000",
    integer(0, 3_600_000),
  ),
  CHUNK_CACHE_BYTES: entry(
    "Memory for decoded index chunks (LRU, bytes).",
    "268435456",
    integer(1 << 20, 2 ** 40),
  ),
  S3_ENDPOINT: entry(
    "Endpoint of an S3-compatible store (R2, MinIO); unset: AWS.",
    undefined,
    url("an HTTP", ["http:", "https:"]),
  ),
  S3_REGION: entry("Region of the S3 store.", "us-east-1", text),
  S3_FORCE_PATH_STYLE: entry(
    "Path-style S3 URLs (MinIO, most local servers); default: true with S3_ENDPOINT.",
    undefined,
    boolean,
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
    const given = env[name];
    const raw = given === undefined || given === "" ? spec.default : given;
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
