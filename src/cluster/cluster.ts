import cluster from "node:cluster";
import type { Worker } from "node:cluster";
import type { Logger } from "pino";
import { hostAccounts, hostedParts } from "./accounts-host.js";
import type { HostedAccounts } from "./accounts-host.js";
import { hostedEnvironment } from "./hosted-parts.js";

/**
 * `WORKERS=N`: N server processes sharing one port (node:cluster; the primary hands out
 * connections round-robin). When the accounts database can be opened by one process only (the
 * embedded PGlite), the primary opens it and serves it to the workers over IPC
 * (`hostAccounts`); with PostgreSQL every worker opens its own pool and the primary hosts
 * nothing. A worker that dies is replaced; SIGTERM/SIGINT stop the workers first (they finish
 * their requests), then the hosted services.
 */
export interface PrimaryOptions {
  workers: number;
  log: Logger;
  /** Services the workers reach over IPC, or null when each worker opens its own. */
  openHost(): Promise<{ hosted: HostedAccounts; close(): Promise<void> } | null>;
}

const RESTART_DELAY_MS = 500;

export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const host = await options.openHost();
  const detachers = new Map<Worker, () => void>();
  let stopping = false;

  const fork = (): void => {
    const worker = cluster.fork(hostedEnvironment(host ? hostedParts(host.hosted) : []));
    if (host) detachers.set(worker, hostAccounts(worker, host.hosted));
  };

  cluster.on("exit", (worker, code, signal) => {
    detachers.get(worker)?.();
    detachers.delete(worker);
    if (stopping) return;
    options.log.error({ pid: worker.process.pid, code, signal }, "worker died; starting another");
    setTimeout(fork, RESTART_DELAY_MS).unref();
  });

  for (let i = 0; i < options.workers; i++) fork();

  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const exits = Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (!worker || worker.isDead()) return resolve();
          worker.once("exit", () => resolve());
          worker.process.kill("SIGTERM");
        }),
    );
    await Promise.all(exits);
    await host?.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
