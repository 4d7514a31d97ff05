import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { pino } from "pino";
import { buildApp } from "../../src/http/app.js";
import { auth, testServices } from "../support/test-app.js";

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
  assert.equal((await parse()).statusCode, 200);

  busyWait(400);
  // The sampler's timer is overdue and due before this one, so it runs first: its mean delay over
  // the interval now holds the 400 ms stall, and stays so until its next sample.
  await sleep(1);
  const shed = await parse();
  assert.equal(shed.statusCode, 503, shed.body);
  assert.equal((JSON.parse(shed.body) as { error: string }).error, "overloaded");
  assert.equal(shed.headers.get("retry-after"), "1");
  // The shed request was neither parsed nor billed (one parse and one usage record so far: the first).
  await sleep(50);
  assert.equal(parsed, 1);
  assert.equal(services.usage.records.size, 1);

  let recovered = false;
  for (let attempt = 0; attempt < 30 && !recovered; attempt++) {
    await sleep(100);
    recovered = (await parse()).statusCode === 200;
  }
  assert.ok(recovered, "answers again once the loop keeps up");
  await app.close();
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
