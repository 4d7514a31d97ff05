import assert from "node:assert/strict";
import { connect } from "node:net";
import type { Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { TEST_KEY, testServices } from "../support/test-app.js";

/**
 * What one client can hold of a server: a request trickled byte by byte is cut with 408 once
 * the request timeout passes, and past the connection cap a new connection is answered 503 and
 * closed. Over real sockets, since both live below Fastify's request handling.
 */
describe("per-client limits of the HTTP server", () => {
  const app = buildApp(testServices(), {
    logger: pino({ level: "silent" }),
    bodyLimit: 65536,
    trustProxy: false,
    requestTimeoutMs: 1000,
    headersTimeoutMs: 1000,
    connectionsPerClient: 3,
  });
  let port = 0;
  before(async () => {
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  /** Everything the server sends on `socket` until it closes it (or 15 s pass: a failure). */
  function untilClosed(socket: Socket): Promise<string> {
    return new Promise((resolve, reject) => {
      let received = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the server kept the connection open; got: ${received.slice(0, 200)}`));
      }, 15_000);
      socket.on("data", (chunk) => (received += chunk.toString("latin1")));
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.on("error", () => {});
    });
  }

  const opened = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(socket));
      socket.on("error", reject);
    });

  test("a body trickled one byte at a time is cut with 408 request_timeout", async () => {
    const socket = await opened();
    const answer = untilClosed(socket);
    socket.write(
      `POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(" "), 200);
    try {
      const received = await answer;
      assert.match(received, /^HTTP\/1\.1 408 /);
      assert.match(received, /"error":"request_timeout"/);
    } finally {
      clearInterval(trickle);
    }
  });

  test("headers never finished are cut too", async () => {
    const socket = await opened();
    const answer = untilClosed(socket);
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    assert.match(await answer, /^HTTP\/1\.1 408 /);
  });

  test("past the cap a client's new connection gets 503 overloaded; a freed slot is usable again", async () => {
    const held = await Promise.all([opened(), opened(), opened()]);
    const extra = await opened();
    const refused = await untilClosed(extra);
    assert.match(refused, /^HTTP\/1\.1 503 /);
    assert.match(refused, /"error":"overloaded"/);
    const closed = new Promise((resolve) => held[0]!.once("close", resolve));
    held[0]!.destroy();
    await closed;
    // The server sees the close a moment after the client: retry briefly until the slot is free.
    let answered = "";
    for (let i = 0; i < 50 && !/^HTTP\/1\.1 200 /.test(answered); i++) {
      const socket = await opened();
      const answer = untilClosed(socket);
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      answered = await answer;
    }
    assert.match(answered, /^HTTP\/1\.1 200 /);
    for (const socket of held) socket.destroy();
  });
});
