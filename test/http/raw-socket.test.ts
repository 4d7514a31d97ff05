import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { TEST_KEY, testApp } from "../support/test-app.js";
import { socketTransport } from "../support/transport.js";

/** What only a raw socket can send: bytes Node's HTTP parser refuses, and bodies never sent. */
describe("raw HTTP over a socket", () => {
  let port = 0;
  let close: () => Promise<void> = async () => {};
  before(async () => {
    const transport = await socketTransport(testApp());
    port = transport.port;
    close = () => transport.close();
  });
  after(() => close());

  /** Writes `request` and resolves with everything the server sends until it closes or `until` matches. */
  function raw(request: string | Buffer, until?: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let received = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no complete answer; got: ${received.slice(0, 200)}`));
      }, 3000);
      const finish = () => {
        clearTimeout(timer);
        socket.destroy();
        resolve(received);
      };
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        if (until?.test(received)) finish();
      });
      socket.on("end", finish);
      socket.on("error", finish);
      socket.write(request);
    });
  }

  const status = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as { error: string };

  test("CONNECT gets the plain-text 404 of a method a path does not have", async () => {
    const answer = await raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    assert.equal(status(answer), 404);
    assert.match(answer, /content-type: text\/plain/i);
    assert.ok(answer.endsWith("\r\n\r\nNot Found\n"));
  });

  test("an unknown method gets a JSON 400, not a crash", async () => {
    const answer = await raw("FROB /v1/verify/parse HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.equal(status(answer), 400);
    assert.equal(body(answer).error, "bad_request");
  });

  test("a malformed header line gets a JSON 400", async () => {
    const answer = await raw("POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n");
    assert.equal(status(answer), 400);
    assert.equal(body(answer).error, "bad_request");
  });

  test("a body announced larger than the limit gets 413 at once: the server reads no further", async () => {
    const head = `POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"line":"`;
    const answer = await raw(head, /\r\n\r\n\{.*\}/s);
    assert.equal(status(answer), 413);
    assert.equal(body(answer).error, "body_too_large");
  });

  test("a chunked body growing past the limit gets 413", async () => {
    const chunk = "x".repeat(30_000);
    const size = chunk.length.toString(16);
    const head = `POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await raw(
      `${head}${size}\r\n${chunk}\r\n${size}\r\n${chunk}\r\n${size}\r\n${chunk}\r\n0\r\n\r\n`,
      /\r\n\r\n\{.*\}/s,
    );
    assert.equal(status(answer), 413);
  });

  test("the key is checked before the body size: no key and a huge body gets 401", async () => {
    const answer = await raw(
      "POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n",
      /\r\n\r\n\{.*\}/s,
    );
    assert.equal(status(answer), 401);
  });

  test("non-ASCII bytes in the Authorization header get 401 JSON", async () => {
    const request = Buffer.concat([
      Buffer.from("POST /v1/verify/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_"),
      Buffer.from([0xc3, 0xa9, 0xff]),
      Buffer.from("\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
    ]);
    const answer = await raw(request);
    assert.equal(status(answer), 401);
    assert.equal(body(answer).error, "invalid_api_key");
  });
});
