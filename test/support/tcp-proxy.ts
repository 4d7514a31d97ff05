import { createConnection, createServer } from "node:net";
import type { Server, Socket } from "node:net";

/**
 * A TCP proxy in front of a server, to take it away in tests: `blackhole()` keeps connections
 * open but stops every byte (a hung server), `refuse()` drops them and refuses new ones (a
 * server gone), `restore()` forwards again.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<[Socket, Socket]>();
  private mode: "forward" | "blackhole" | "refuse" = "forward";
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  private accept(client: Socket): void {
    if (this.mode !== "forward") {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on("data", (chunk) => {
        if (this.mode === "forward") to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  }

  blackhole(): void {
    this.mode = "blackhole";
  }

  refuse(): void {
    this.mode = "refuse";
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
  }

  restore(): void {
    this.mode = "forward";
  }

  async stop(): Promise<void> {
    this.refuse();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
