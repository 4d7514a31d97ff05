import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

/**
 * The TypeScript client of the Situs API: typed calls (types generated from docs/openapi.json by
 * openapi-typescript, requests made by openapi-fetch), retries as the API's retry guidance says,
 * and batch helpers that answer many lines in input order with a concurrency limit.
 */
export type ParseAnswer = components["schemas"]["ParseAnswer"];
export type LookupRequest = components["schemas"]["LookupRequest"];
export type LookupAnswer = components["schemas"]["LookupAnswer"];
export type ParcelRecord = components["schemas"]["ParcelRecord"];
export type ErrorBody = components["schemas"]["Error"];
export type { components, paths };

export interface SitusClientOptions {
  /** The service's address, `https://api.example.com` (without `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Attempts after the first for a 500, a 503 or a connection that fails; default 3. */
  retries?: number;
  /** The first wait before a retry, doubled each time (with jitter); default 250 ms. */
  retryDelayMs?: number;
  /** The longest single wait, also for a `Retry-After`; default 10,000 ms. */
  maxRetryDelayMs?: number;
  /** The fetch to call; default the global one. */
  fetch?: typeof fetch;
}

/** An answer other than 200: the HTTP status, the stable `error` code and the request ID. */
export class SitusError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly requestId: string | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = "SitusError";
  }

  /** The stable code to branch on (`invalid_api_key`, `line_too_long`, …); never the message. */
  get code(): string {
    return this.body?.error ?? `http_${this.status}`;
  }
}

/** One item's outcome in a batch: its answer, or the error that answered it. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: SitusError | Error };

export interface BatchOptions {
  /** Requests in flight at once; default 8. */
  concurrency?: number;
}

/** Retry guidance: 500 and 503 are retried with backoff; 4xx never (fix the request or the team). */
function retryable(status: number): boolean {
  return status === 500 || status === 503;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `Retry-After` in seconds, as milliseconds; undefined when absent or not a number. */
function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds >= 0 && response.headers.has("retry-after")
    ? seconds * 1000
    : undefined;
}

/** `fetch` that retries a 500, a 503 or a failed connection, waiting longer each time. */
function retryingFetch(options: SitusClientOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 3;
  const first = options.retryDelayMs ?? 250;
  const cap = options.maxRetryDelayMs ?? 10_000;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(cap, first * 2 ** attempt * (0.5 + Math.random() / 2));
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        if (attempt >= retries) throw error;
        await sleep(backoff);
        continue;
      }
      if (!retryable(response.status) || attempt >= retries) return response;
      await response.body?.cancel();
      await sleep(Math.min(cap, Math.max(backoff, retryAfterMs(response) ?? 0)));
    }
  };
}

/** Runs `work` on every item with at most `concurrency` at once; outcomes in input order. */
async function batch<I, T>(
  items: Iterable<I>,
  concurrency: number,
  work: (item: I) => Promise<T>,
): Promise<Outcome<T>[]> {
  const list = [...items];
  const outcomes: Outcome<T>[] = new Array(list.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let at = next++; at < list.length; at = next++) {
      try {
        outcomes[at] = { ok: true, value: await work(list[at] as I) };
      } catch (error) {
        outcomes[at] = { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, list.length)) }, worker));
  return outcomes;
}

export interface SitusClient {
  parse(line: string): Promise<ParseAnswer>;
  lookup(request: LookupRequest): Promise<LookupAnswer>;
  lookupById(serviceId: string): Promise<ParcelRecord>;
  /** Parses every line; one outcome per line, in order. */
  parseMany(lines: Iterable<string>, options?: BatchOptions): Promise<Outcome<ParseAnswer>[]>;
  /** Looks every request up; one outcome per request, in order. */
  lookupMany(requests: Iterable<LookupRequest>, options?: BatchOptions): Promise<Outcome<LookupAnswer>[]>;
}

export function createSitusClient(options: SitusClientOptions): SitusClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options),
  });
  /** The answer of a 200, or a SitusError with the status, the error body and the request ID. */
  const answer = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
    if (result.data !== undefined && result.response.ok) return result.data;
    const body = result.error as ErrorBody | undefined;
    throw new SitusError(
      result.response.status,
      typeof body === "object" && body !== null ? body : undefined,
      result.response.headers.get("x-request-id") ?? undefined,
    );
  };
  const client: SitusClient = {
    parse: async (line) => answer(await api.POST("/v1/verify/parse", { body: { line } })),
    lookup: async (request) => answer(await api.POST("/v1/verify/lookup", { body: request })),
    lookupById: async (serviceId) =>
      answer(
        await api.GET("/v1/verify/lookup/{service_id}", { params: { path: { service_id: serviceId } } }),
      ),
    parseMany: (lines, batchOptions) => batch(lines, batchOptions?.concurrency ?? 8, client.parse),
    lookupMany: (requests, batchOptions) => batch(requests, batchOptions?.concurrency ?? 8, client.lookup),
  };
  return client;
}
