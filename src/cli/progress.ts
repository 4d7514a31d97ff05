/**
 * A progress bar on stderr, shown only when stderr is a terminal and the input is long enough
 * to wait for; redrawn at most every 100 ms. With no known total it counts bytes read.
 */
export class Progress {
  private read = 0;
  private lastDraw = 0;
  private readonly enabled: boolean;

  constructor(private readonly total: number | undefined) {
    this.enabled = process.stderr.isTTY === true && (total === undefined || total > 1 << 20);
  }

  advance(bytes: number): void {
    this.read += bytes;
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    process.stderr.write(`\r${this.describe()}`);
  }

  done(): void {
    if (this.enabled) process.stderr.write(`\r${this.describe()}\n`);
  }

  private describe(): string {
    if (this.total === undefined || this.total === 0) return `${(this.read / 1e6).toFixed(1)} MB read`;
    const share = Math.min(1, this.read / this.total);
    const width = 30;
    const filled = Math.round(share * width);
    return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%`;
  }
}
