import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import pino from "pino";
import { buildApp } from "../../src/http/app.js";
import { LogEvery } from "../../src/http/log-every.js";
import { auth, testServices } from "../support/test-app.js";

test("one line per kind per interval, the next saying how many were left out", () => {
  let now = 0;
  const limiter = new LogEvery(1000, () => now);
  assert.equal(limiter.take("db"), 0);
  assert.equal(limiter.take("db"), undefined);
  assert.equal(limiter.take("db"), undefined);
  assert.equal(limiter.take("index"), 0, "another kind has its own allowance");
  now = 999;
  assert.equal(limiter.take("db"), undefined);
  now = 1000;
  assert.equal(limiter.take("db"), 3, "three left out since the last line");
  now = 5000;
  assert.equal(limiter.take("db"), 0);
});

test("an outage of the usage ledger logs one line a second, not one per request", async () => {
  const lines: Array<{ msg: string; suppressed?: number }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const usage = {
    record: () => Promise.reject(new Error("the ledger's database is down (log-every test)")),
    close: async () => {},
  };
  const app = buildApp(testServices({ usage }), {
    logger: pino({ level: "error" }, sink),
    bodyLimit: 65536,
    trustProxy: false,
  });
  const started = Date.now();
  for (let i = 0; i < 40; i++) {
    const response = await app.inject({
      method: "POST",
      url: "/v1/verify/parse",
      headers: { ...auth, "content-type": "application/json" },
      payload: { line: "123 Main St" },
    });
    assert.equal(response.statusCode, 503);
  }
  const seconds = Math.ceil((Date.now() - started) / 1000);
  await app.close();
  const withheld = lines.filter((line) => line.msg === "usage record not durable; answer withheld");
  // One line in each second the failures lasted (at most), however many failures there were.
  assert.ok(
    withheld.length >= 1 && withheld.length <= seconds + 1,
    `${withheld.length} lines in ${seconds} s`,
  );
  assert.ok(withheld.length < 40);
});
