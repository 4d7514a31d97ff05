import cliProgress from "cli-progress";

/** How often a bulk run not on a terminal writes a progress line. */
const LINE_EVERY_MS = 5000;

/**
 * The progress of a bulk command on standard error. On a terminal, a bar (cli-progress) with the
 * rows answered, their rate and, when the input's size is known, the share read and the time left;
 * elsewhere (a log, a pipe) a line every few seconds with the same figures. `done` ends it with a
 * summary line: rows by kind, seconds, rows per second.
 */
export class BulkProgress {
  private readonly started = Date.now();
  private readonly counts = new Map<string, number>();
  private rows = 0;
  private bytes = 0;
  private lastLine = this.started;
  private readonly bar: cliProgress.SingleBar | undefined;

  constructor(
    private readonly command: string,
    private readonly totalBytes: number | undefined,
    terminal = process.stderr.isTTY === true,
  ) {
    if (!terminal) return;
    const known = totalBytes !== undefined && totalBytes > 0;
    this.bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: known
          ? `${command} {bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}`
          : `${command} {rows} rows | {rate} rows/s`,
        fps: 10,
        hideCursor: false,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(known ? totalBytes : 1, 0, { rows: "0", rate: "0" });
  }

  /** Bytes of the input read so far (for the share read and the time left). */
  advance(bytes: number): void {
    this.bytes += bytes;
  }

  /** One row answered (or `count` of them), under its kind (`street`, `matched`, `invalid_csv` …). */
  row(kind: string, count = 1): void {
    this.rows += count;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + count);
  }

  /** How many rows were answered under `kind`. */
  count(kind: string): number {
    return this.counts.get(kind) ?? 0;
  }

  /** Shows the figures now: the bar's, or a line when the last one is old enough. */
  update(): void {
    const rate = this.rate().toLocaleString("en-US");
    const rows = this.rows.toLocaleString("en-US");
    if (this.bar) {
      this.bar.update(this.totalBytes ? Math.min(this.bytes, this.totalBytes) : 0, { rows, rate });
      return;
    }
    const now = Date.now();
    if (now - this.lastLine < LINE_EVERY_MS) return;
    this.lastLine = now;
    const share = this.totalBytes ? `, ${Math.floor((100 * this.bytes) / this.totalBytes)}% read` : "";
    process.stderr.write(`${this.command}: ${rows} rows, ${rate} rows/s${share}\n`);
  }

  /** Ends the bar and writes the summary line. */
  done(): void {
    this.bar?.stop();
    const seconds = (Date.now() - this.started) / 1000;
    const kinds = [...this.counts].map(([kind, n]) => `${kind} ${n.toLocaleString("en-US")}`).join(", ");
    process.stderr.write(
      `${this.command}: ${this.rows.toLocaleString("en-US")} rows (${kinds || "none"}) in ${seconds.toFixed(1)} s, ${this.rate().toLocaleString("en-US")} rows/s\n`,
    );
  }

  private rate(): number {
    const seconds = (Date.now() - this.started) / 1000;
    return seconds > 0 ? Math.round(this.rows / seconds) : 0;
  }
}
