import cluster from "node:cluster";
import type { HostedPart } from "./accounts-host.js";

const HOSTED_ENV = "SITUS_HOSTED";

/** The environment a cluster primary gives its workers: which parts it hosts for them. */
export function hostedEnvironment(parts: HostedPart[]): Record<string, string> {
  return { [HOSTED_ENV]: parts.join(",") };
}

/** The parts this process's primary hosts for it (none outside a cluster worker). */
export function partsHostedForThisWorker(): Set<HostedPart> {
  if (!cluster.isWorker) return new Set();
  return new Set(
    (process.env[HOSTED_ENV] ?? "")
      .split(",")
      .filter((part): part is HostedPart => part === "accounts" || part === "limiter"),
  );
}
