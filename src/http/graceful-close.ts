import { Server } from "node:net";
import type { Socket } from "node:net";
import { Server as TlsServer } from "node:tls";
import type { FastifyInstance } from "fastify";

/** How long a connection must have been idle (no request in flight) before a drain closes it. */
const IDLE_MS = 1000;
const POLL_MS = 50;

/**
 * Closing without resetting a connection. Node's `server.close()` closes idle keep-alive
 * connections at once, and a client that sent its next request on one at that moment sees a
 * reset. Draining instead: the server stops accepting connections but keeps the open ones; every
 * answer from then on says `Connection: close`, so each client's connection ends cleanly after
 * its next answer; a connection idle (no request in flight) for IDLE_MS is closed, each on its own
 * clock, so a client that is only slow between two requests is not cut off as it sends; then the
 * app closes (its hooks flush the ledger and logs). After `timeoutMs` every connection is closed
 * whatever it is doing.
 */
export class Drain {
  private draining = false;
  /** Each open connection: requests in flight on it, and when the last one ended. */
  private readonly activity = new Map<Socket, { inFlight: number; idleSince: number }>();

  constructor(private readonly app: FastifyInstance) {
    // Under TLS the request's socket is the TLS socket, which `secureConnection` hands over.
    const opened = app.server instanceof TlsServer ? "secureConnection" : "connection";
    app.server.on(opened, (socket: Socket) => {
      this.activity.set(socket, { inFlight: 0, idleSince: Date.now() });
      socket.once("close", () => this.activity.delete(socket));
    });
    app.server.on("request", (request, response) => {
      const state = this.activity.get(request.socket);
      if (!state) return;
      state.inFlight++;
      response.once("close", () => {
        state.inFlight--;
        state.idleSince = Date.now();
      });
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
        this.closeIdle(Date.now());
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      server.closeAllConnections();
    }
    await this.app.close();
  }

  /** Closes the connections that have had no request in flight for IDLE_MS. */
  private closeIdle(now: number): void {
    for (const [socket, state] of this.activity) {
      if (state.inFlight === 0 && now - state.idleSince >= IDLE_MS) socket.end();
    }
  }
}

function connections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
