import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { FastifyInstance } from "fastify";
import { buildServices } from "./app/composition.js";
import { loadConfig } from "./config.js";
import type { Config } from "./config.js";
import { hasBacklog, serveClusterMetrics, ServiceMetrics } from "./app/metrics.js";
import { Drain } from "./http/graceful-close.js";
import { buildApp } from "./http/app.js";
import { openHostedAccounts } from "./app/account-services.js";
import { runPrimary } from "./cluster/cluster.js";
import { serviceLogger } from "./runtime/turn-log.js";

/**
 * Runs the service as configured: one process, or with WORKERS > 1 a primary that forks the
 * workers (each running `serve`) and hosts what they must share.
 */
export async function start(config: Config = loadConfig()): Promise<void> {
  const workers = config.WORKERS ?? (config.DATABASE_URL === undefined ? 1 : availableParallelism());
  if (workers <= 1 || cluster.isWorker) {
    await serve(config);
    return;
  }
  const log = serviceLogger(config.LOG_LEVEL);
  log.info({ workers }, "starting workers");
  const openHost = async () => {
    const host = await openHostedAccounts(config, log);
    if (config.METRICS_PORT !== undefined) {
      const usage = host?.hosted.accounts?.usage;
      await serveClusterMetrics(
        config.METRICS_PORT,
        config.HOST,
        usage && hasBacklog(usage) ? usage : undefined,
      );
    }
    return host;
  };
  await runPrimary({ workers, log, openHost });
}

/** Starts the service on its configuration and stops it cleanly on SIGINT or SIGTERM. */
export async function serve(config: Config = loadConfig()): Promise<FastifyInstance> {
  const log = serviceLogger(config.LOG_LEVEL);
  const services = await buildServices(config, log);
  const https =
    config.TLS_CERT !== undefined && config.TLS_KEY !== undefined
      ? { cert: readFileSync(config.TLS_CERT), key: readFileSync(config.TLS_KEY) }
      : undefined;
  const ledger = hasBacklog(services.usage) ? services.usage : undefined;
  const metrics =
    config.METRICS_PORT === undefined ? undefined : new ServiceMetrics(services.parcels, ledger);
  const app = buildApp(services, {
    logger: log,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    clientIpv6Prefix: config.CLIENT_IPV6_PREFIX,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    connectionsPerClient: config.CONNECTIONS_PER_CLIENT,
    accessLogEvery: config.ACCESS_LOG,
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
    ...(metrics ? { metrics } : {}),
    shedding: { maxEventLoopDelayMs: config.SHED_EVENT_LOOP_DELAY_MS },
    ...(https ? { https } : {}),
  });
  const drain = new Drain(app);
  app.addHook("onClose", async () => services.close());
  if (metrics && cluster.isWorker) metrics.shareWithPrimary();
  else if (metrics && config.METRICS_PORT !== undefined) {
    const server = await metrics.serve(config.METRICS_PORT, config.HOST);
    app.addHook("onClose", async () => void server.close());
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const stop = (): void => {
    log.info({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "stopping: finishing the requests in flight");
    drain.close(config.SHUTDOWN_TIMEOUT_MS).then(
      () => {
        log.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return app;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  start().catch((error: unknown) => {
    process.stderr.write(`situs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
