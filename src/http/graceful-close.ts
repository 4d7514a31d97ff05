import { Server } from "node:net";
import type { FastifyInstance } from "fastify";

/** How long the server must see no request before it closes the connections left idle. */
const QUIET_MS = 300;
const POLL_MS = 50;

/**
 * Closing without resetting a connection. Node's `server.close()` closes idle keep-alive
 * connections at once, and a client that sent its next request on one at that moment sees a
 * reset. Draining instead: the server stops accepting connections but keeps the open ones; every
 * answer from then on says `Connection: close`, so each client's connection ends cleanly after
 * its next answer; connections still idle once no request has come for QUIET_MS are closed; then
 * the app closes (its hooks flush the ledger and logs). After `timeoutMs` every connection is
 * closed whatever it is doing.
 */
export class Drain {
  private draining = false;
  private lastRequestAt = 0;

  constructor(private readonly app: FastifyInstance) {
    app.addHook("onRequest", (_request, _reply, done) => {
      this.lastRequestAt = Date.now();
      done();
    });
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (this.draining) void reply.header("connection", "close");
      done(null, payload);
    });
  }

  async close(timeoutMs: number): Promise<void> {
    const server = this.app.server;
    if (!this.draining && server.listening) {
      this.draining = true;
      // net.Server's close: no new connections, the open ones kept (http.Server's would drop the idle).
      Server.prototype.close.call(server);
      const deadline = Date.now() + timeoutMs;
      while ((await connections(server)) > 0 && Date.now() < deadline) {
        if (Date.now() - this.lastRequestAt >= QUIET_MS) server.closeIdleConnections();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      server.closeAllConnections();
    }
    await this.app.close();
  }
}

function connections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
