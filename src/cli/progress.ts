/** A status line on stderr, drawn only when stderr is a terminal, redrawn at most every 100 ms. */
abstract class StatusLine {
  private lastDraw = 0;

  constructor(protected readonly enabled: boolean) {}

  protected abstract describe(): string;

  /** Redraws when 100 ms have passed since the last drawing. */
  draw(): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    process.stderr.write(`\r${this.describe()}`);
  }

  /** Draws the last state and ends the line. */
  protected finish(suffix = ""): void {
    if (this.enabled) process.stderr.write(`\r${this.describe()}${suffix}\n`);
  }
}

/**
 * A progress bar, shown only when the input is long enough to wait for. With no known total it
 * counts bytes read.
 */
export class Progress extends StatusLine {
  private read = 0;

  constructor(private readonly total: number | undefined) {
    super(process.stderr.isTTY === true && (total === undefined || total > 1 << 20));
  }

  advance(bytes: number): void {
    this.read += bytes;
    this.draw();
  }

  done(): void {
    this.finish();
  }

  protected describe(): string {
    if (this.total === undefined || this.total === 0) return `${(this.read / 1e6).toFixed(1)} MB read`;
    const share = Math.min(1, this.read / this.total);
    const width = 30;
    const filled = Math.round(share * width);
    return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%`;
  }
}

/** The counts of a bulk run by kind of answer, and its rate at the end. */
export class CountProgress extends StatusLine {
  private readonly counts = new Map<string, number>();
  private rows = 0;
  private readonly started = Date.now();

  constructor() {
    super(process.stderr.isTTY === true);
  }

  /** Counts a row under its kind (`matched`, `not_found`, `error` …). */
  add(kind: string): void {
    this.rows++;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** How many rows were counted under `kind`. */
  count(kind: string): number {
    return this.counts.get(kind) ?? 0;
  }

  /** Ends the status line; the summary (counts by kind, seconds, rate) is written on a terminal or not. */
  done(command: string): void {
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? `, ${Math.round(this.rows / seconds).toLocaleString("en-US")} rows/s` : "";
    if (this.enabled) process.stderr.write("\r\x1b[K");
    process.stderr.write(`${command}: ${this.describe()} in ${seconds.toFixed(1)} s${rate}\n`);
  }

  protected describe(): string {
    const kinds = [...this.counts].map(([kind, n]) => `${n.toLocaleString("en-US")} ${kind}`).join(", ");
    return `${this.rows.toLocaleString("en-US")} rows${kinds === "" ? "" : ` (${kinds})`}`;
  }
}
