/**
 * Collects the metrics of one request for the `Server-Timing` header (SPEC.md "Response
 * headers"): `inference` for parse, `r2fetch` (index fetch) and `match` for lookups, `total` always.
 */
export class ServerTiming {
  private readonly metrics: Array<[string, number]> = [];
  private readonly startedAt = process.hrtime.bigint();

  add(name: string, milliseconds: number): void {
    this.metrics.push([name, milliseconds]);
  }

  /** Runs `work`, adds its duration under `name`, and returns its result. */
  measure<T>(name: string, work: () => T): T {
    const start = process.hrtime.bigint();
    try {
      return work();
    } finally {
      this.add(name, elapsedMs(start));
    }
  }

  async measureAsync<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      this.add(name, elapsedMs(start));
    }
  }

  elapsedMs(): number {
    return elapsedMs(this.startedAt);
  }

  header(): string {
    const parts = this.metrics.map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`);
    parts.push(`total;dur=${this.elapsedMs().toFixed(3)}`);
    return parts.join(", ");
  }
}

export function elapsedMs(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}
