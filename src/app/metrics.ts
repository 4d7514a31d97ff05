import { createServer, type Server } from "node:http";
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { LedgerBacklog } from "../accounts/accounts.js";
import { decodeTime } from "ulid";
import type { RequestMetrics } from "../http/request-metrics.js";
import type { ParcelIndex } from "../parcels/parcel-index.js";
import { StoredParcelIndex } from "../parcels/stored-parcel-index.js";

/** A usage ledger that tells its lag (both of the accounts database's ledgers do). */
export interface BacklogSource {
  backlog(): LedgerBacklog;
}

export function hasBacklog(ledger: object): ledger is BacklogSource {
  return typeof (ledger as Partial<BacklogSource>).backlog === "function";
}

/** The usage ledger's lag: rows not yet in the accounts database, and the age of the oldest. */
export function watchLedger(registry: Registry, ledger: BacklogSource): void {
  new Gauge({
    name: "situs_usage_backlog_rows",
    help: "Usage rows not yet in the accounts database (waiting for their commit, or journaled and not yet applied).",
    registers: [registry],
    collect() {
      this.set(ledger.backlog().rows);
    },
  });
  new Gauge({
    name: "situs_usage_ledger_lag_seconds",
    help: "Age of the oldest usage row not yet in the accounts database (0: none).",
    registers: [registry],
    aggregator: "max",
    collect() {
      const { oldestAt } = ledger.backlog();
      this.set(oldestAt === null ? 0 : Math.max(0, (Date.now() - oldestAt) / 1000));
    },
  });
}

/** Serves GET /metrics on `port` of `host`, its text from `metrics`; resolves once listening. */
async function serveMetrics(port: number, host: string, metrics: () => Promise<string>): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    metrics().then(
      (text) => response.writeHead(200, { "content-type": Registry.PROMETHEUS_CONTENT_TYPE }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

/**
 * A cluster primary's metrics (WORKERS above 1): every worker's, asked over IPC at each scrape and
 * added up (counters and histograms summed, gauges by their own rule), and the primary's own
 * ledger when it holds the embedded database for the workers.
 */
export async function serveClusterMetrics(
  port: number,
  host: string,
  ledger: BacklogSource | undefined,
): Promise<Server> {
  const workers = new AggregatorRegistry();
  const own = new Registry();
  if (ledger) watchLedger(own, ledger);
  return serveMetrics(port, host, async () => `${await workers.clusterMetrics()}\n${await own.metrics()}`);
}

/**
 * The service's Prometheus metrics (prom-client), served on their own port (METRICS_PORT) so the
 * API's port never exposes them: requests by route, status and error code; latency by route;
 * billed requests by operation; shed requests; the usage ledger's lag; the parcel index's build
 * and its age; the chunk cache's hits, misses and size; and Node's own (event-loop lag, heap,
 * CPU, handles). A cluster worker's are served by its primary, added up with the others'.
 */
export class ServiceMetrics implements RequestMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "situs_http_requests_total",
    help: "Answered HTTP requests, by route, status and error code.",
    labelNames: ["route", "status", "error"] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "situs_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route.",
    labelNames: ["route"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  private readonly billed = new Counter({
    name: "situs_billed_requests_total",
    help: "Billed requests (answers 200 of the API), by operation.",
    labelNames: ["operation"] as const,
    registers: [this.registry],
  });
  private readonly shedding = new Counter({
    name: "situs_shed_requests_total",
    help: "Requests refused at once with 503 overloaded (event loop past SHED_EVENT_LOOP_DELAY_MS).",
    registers: [this.registry],
  });

  constructor(parcels: ParcelIndex, ledger?: BacklogSource) {
    collectDefaultMetrics({ register: this.registry });
    if (parcels instanceof StoredParcelIndex) this.watchIndex(parcels);
    if (ledger) watchLedger(this.registry, ledger);
  }

  /** In a cluster worker: answers the primary's requests for these metrics (serveClusterMetrics). */
  shareWithPrimary(): void {
    new AggregatorRegistry(); // registers the worker's side of the IPC exchange
    AggregatorRegistry.setRegistries([this.registry]);
  }

  answered(
    route: string | null,
    status: number,
    error: string | null,
    seconds: number,
    billed: string | null,
  ): void {
    const path = route ?? "(none)";
    this.requests.inc({ route: path, status: String(status), error: error ?? "" });
    this.latency.observe({ route: path }, seconds);
    if (billed !== null) this.billed.inc({ operation: billed });
  }

  shed(): void {
    this.shedding.inc();
  }

  private watchIndex(index: StoredParcelIndex): void {
    const registers = [this.registry];
    new Gauge({
      name: "situs_index_build_info",
      help: "The parcel index build this process serves (value 1, build_id label).",
      labelNames: ["build_id"] as const,
      registers,
      aggregator: "max",
      collect() {
        this.reset();
        if (index.buildId !== null) this.set({ build_id: index.buildId }, 1);
      },
    });
    new Gauge({
      name: "situs_index_build_age_seconds",
      help: "Age of the served index build (from the time in its ID).",
      registers,
      aggregator: "max",
      collect() {
        this.set(index.buildId === null ? 0 : (Date.now() - buildTime(index.buildId)) / 1000);
      },
    });
    const cache = index.cache;
    new Gauge({
      name: "situs_chunk_cache_bytes",
      help: "Decoded index chunks held in memory.",
      registers,
      collect() {
        this.set(cache.usedBytes);
      },
    });
    new Gauge({
      name: "situs_chunk_cache_hits",
      help: "Chunk reads answered from memory since start.",
      registers,
      collect() {
        this.set(cache.hits);
      },
    });
    new Gauge({
      name: "situs_chunk_cache_misses",
      help: "Chunk reads that went to the store since start.",
      registers,
      collect() {
        this.set(cache.misses);
      },
    });
  }

  /** Serves GET /metrics on `port` of `host`; resolves once listening. */
  serve(port: number, host: string): Promise<Server> {
    return serveMetrics(port, host, () => this.registry.metrics());
  }
}

/** `b_<ULID>`: the build's creation time, from its ULID. */
function buildTime(buildId: string): number {
  try {
    return decodeTime(buildId.slice(buildId.indexOf("_") + 1));
  } catch {
    return Date.now();
  }
}
