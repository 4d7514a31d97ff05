import type { FastifyBaseLogger } from "fastify";

/**
 * At most one log line per kind of failure per interval, the next one saying how many were left
 * out (`suppressed`): during an outage every request fails the same way, and a stack trace per
 * request would bury the log (thousands of lines a second) without saying more.
 */
export class LogEvery {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly everyMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs `message` at error level unless a line of `kind` went out less than an interval ago. */
  error(log: FastifyBaseLogger, kind: string, fields: Record<string, unknown>, message: string): void {
    const suppressed = this.take(kind);
    if (suppressed === undefined) return;
    log.error(suppressed > 0 ? { ...fields, suppressed } : fields, message);
  }

  /** The lines of `kind` left out since its last one, when one may go out now; else undefined. */
  take(kind: string): number | undefined {
    const now = this.now();
    const last = this.last.get(kind);
    if (last && now - last.at < this.everyMs) {
      last.suppressed++;
      return undefined;
    }
    this.last.set(kind, { at: now, suppressed: 0 });
    return last?.suppressed ?? 0;
  }
}

/** The service's failure log lines: one per kind per second. */
export const FAILURE_LOG = new LogEvery();

/** A failure's kind for FAILURE_LOG: what failed (a code or class) and its message's first line. */
export function failureKind(what: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${what}:${message.split("\n", 1)[0]}`;
}
