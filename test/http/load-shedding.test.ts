import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { auth, testServices } from "../support/test-app.js";

/** A parse request on a connection of its own, and its answer, read when the server closes it. */
async function sendRaw(
  port: number,
  body: string,
): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = once(socket, "end");
  socket.write(
    `POST /v1/verify/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  await ended;
  const [head = "", ...rest] = Buffer.concat(chunks).toString().split("\r\n\r\n");
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { statusCode: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") };
}

function busyWait(milliseconds: number): void {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    // Blocks the event loop, as a flood of CPU-bound requests would.
  }
}

test("a lagging event loop gets 503 overloaded at once, with Retry-After, and the request goes no further; it recovers", async () => {
  const services = testServices();
  let parsed = 0;
  const parser = services.parser;
  services.parser = { parse: (line: string) => (parsed++, parser.parse(line)) } as typeof parser;
  const app = buildApp(services, {
    logger: pino({ level: "silent" }),
    bodyLimit: 65536,
    trustProxy: false,
    shedding: { maxEventLoopDelayMs: 50, sampleIntervalMs: 25 },
  });
  // Over a real socket: there an answer sent through Fastify leaves at the end of the turn, and a
  // shed request that carried on was parsed, billed and answered twice (the process then crashed).
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  const parse = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/verify/parse`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ line: "1 MAIN ST" }),
      signal: AbortSignal.timeout(5000),
    });
    return { statusCode: response.status, headers: response.headers, body: await response.text() };
  };
  /** Whether a parse is answered 200 within 3 s of tries (the sampler needs a while to catch up). */
  const answered = async (): Promise<boolean> => {
    for (let attempt = 0; attempt < 30; attempt++) {
      if ((await parse()).statusCode === 200) return true;
      await sleep(100);
    }
    return false;
  };
  try {
    // The first fetch loads its HTTP client, which on a busy machine can lag the loop past the bound.
    assert.ok(await answered(), "answers while the loop keeps up");
    const parsedBefore = parsed;
    const billedBefore = services.usage.records.size;

    // The loop lags 80 ms a turn while ten requests go, one after another, each on a fresh
    // connection: the sampler sees the lag and sheds them, or some of them (its samples and the
    // requests' arrival interleave as the machine schedules them).
    const lag = setInterval(() => busyWait(80), 1);
    const answers = [];
    try {
      for (let i = 0; i < 10; i++) answers.push(await sendRaw(port, JSON.stringify({ line: "1 MAIN ST" })));
    } finally {
      clearInterval(lag);
    }
    const shed = answers.filter((answer) => answer.statusCode === 503);
    const served = answers.filter((answer) => answer.statusCode === 200);
    assert.ok(shed.length > 0, "some requests were shed");
    assert.equal(shed.length + served.length, answers.length);
    assert.equal((JSON.parse(shed[0]!.body) as { error: string }).error, "overloaded");
    assert.equal(shed[0]!.headers["retry-after"], "1");
    // A shed request was neither parsed nor billed: only the served ones were.
    await sleep(50);
    assert.equal(parsed - parsedBefore, served.length);
    assert.equal(services.usage.records.size - billedBefore, served.length);

    assert.ok(await answered(), "answers again once the loop keeps up");
  } finally {
    await app.close();
  }
});

test("shedding is off when the bound is 0", async () => {
  const app = buildApp(testServices(), {
    logger: pino({ level: "silent" }),
    bodyLimit: 65536,
    trustProxy: false,
    shedding: { maxEventLoopDelayMs: 0 },
  });
  busyWait(100);
  const response = await app.inject({
    method: "POST",
    url: "/v1/verify/parse",
    headers: auth,
    payload: { line: "1" },
  });
  assert.equal(response.statusCode, 200);
  await app.close();
});
