import { pino } from "pino";
import type { Logger } from "pino";

/** What the lines are written to: pino's synchronous destination (SonicBoom). */
interface LineSink {
  write(text: string): boolean;
}

/**
 * A log destination that writes the lines of one turn of the event loop together, in one write
 * at the end of the turn: an immediate of its own, not turn-end.ts's, whose callbacks release
 * answers and start usage writes that should not wait behind the log's write. The access log
 * gives every answered request a line; one write per line is a system call per request, and
 * into a pipe a wake-up of its reader: under the parse load of `npm run bench` a quarter of the
 * service's CPU per request. A turn's lines leave within the same turn, so nothing waits for a
 * buffer to fill and a quiet service's lines appear at once. Whatever is pending when the
 * process exits, by `process.exit`, an uncaught error or a signal it handles, is written on its
 * way out; only a SIGKILL loses the lines of the turn it interrupts.
 */
export class TurnLog {
  private pending: string[] = [];
  private readonly flushOnExit = (): void => this.flush();

  constructor(private readonly sink: LineSink) {
    process.once("exit", this.flushOnExit);
  }

  write(line: string): boolean {
    if (this.pending.push(line) === 1) setImmediate(() => this.flush());
    return true;
  }

  /** Writes the pending lines now (synchronously); `pino`'s `logger.flush()` calls it too. */
  flush(callback?: (error?: Error) => void): void {
    const lines = this.pending;
    if (lines.length > 0) {
      this.pending = [];
      this.sink.write(lines.length === 1 ? (lines[0] as string) : lines.join(""));
    }
    callback?.();
  }

  /** Stops flushing on exit (tests that make many). */
  detach(): void {
    this.flush();
    process.removeListener("exit", this.flushOnExit);
  }
}

/** The service's logger: pino at `level`, to standard output, a turn's lines in one write. */
export function serviceLogger(level: string): Logger {
  return pino({ level }, new TurnLog(pino.destination({ dest: 1, sync: true })));
}
