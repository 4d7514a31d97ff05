import type pg from "pg";

/**
 * `COPY … FROM STDIN` as one message to the server: the Query, the rows as one CopyData and the
 * CopyDone go out in a single write, and the copy completes in one round trip.
 *
 * The usual client (pg-copy-streams) waits for the server's CopyInResponse before it sends the
 * rows, then writes the length, the rows and CopyDone separately: four writes and two round
 * trips per copy, each write waking the server's process, plus a stream pipeline per copy.
 * Group commit copies a batch every few milliseconds, so that overhead was paid on the path
 * every billed answer waits on. Sending the rows ahead is safe by the protocol: the server reads
 * them in order once it enters copy mode, and when the COPY statement itself fails, the backend
 * ignores the CopyData and CopyDone that follow ("accept but ignore these messages, per protocol
 * spec", PostgreSQL's postgres.c), so the connection stays usable.
 */
export class PipelinedCopy implements pg.Submittable {
  /** pg wraps this with `query_timeout` and calls it when the timeout fires. */
  callback: (error?: Error) => void = () => {};
  rowCount = 0;
  private error: Error | null = null;
  private settle!: (error: Error | null) => void;
  readonly done: Promise<number>;

  constructor(
    private readonly statement: string,
    /** The rows in the statement's format: binary (copy-binary.ts) or text. */
    private readonly data: Uint8Array | string,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve(this.rowCount));
    });
  }

  submit(connection: pg.Connection): void {
    const stream = (connection as unknown as { stream: NodeJS.WritableStream }).stream;
    stream.write(copyMessages(this.statement, this.data));
  }

  handleCopyInResponse(): void {
    // The rows went with the statement.
  }

  handleCommandComplete(message: { text?: string }): void {
    const match = /^COPY (\d+)/.exec(message.text ?? "");
    if (match) this.rowCount = Number(match[1]);
  }

  handleError(error: Error): void {
    this.error ??= error;
    this.finish();
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  private finish(): void {
    const error = this.error;
    this.callback(error ?? undefined);
    this.settle(error);
  }
}

/** Query ('Q'), CopyData ('d') and CopyDone ('c') of the frontend protocol, in one buffer. */
function copyMessages(statement: string, data: Uint8Array | string): Buffer {
  const statementBytes = Buffer.byteLength(statement);
  const dataBytes = Buffer.byteLength(data);
  const buffer = Buffer.allocUnsafe(5 + statementBytes + 1 + 5 + dataBytes + 5);
  let at = 0;
  buffer[at++] = 0x51; // 'Q'
  at = buffer.writeUInt32BE(4 + statementBytes + 1, at);
  at += buffer.write(statement, at);
  buffer[at++] = 0;
  buffer[at++] = 0x64; // 'd'
  at = buffer.writeUInt32BE(4 + dataBytes, at);
  if (typeof data === "string") at += buffer.write(data, at);
  else {
    buffer.set(data, at);
    at += data.length;
  }
  buffer[at++] = 0x63; // 'c'
  buffer.writeUInt32BE(4, at);
  return buffer;
}
