import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { SitusClientOptions } from "../../packages/client/src/index.js";
import { createSitusClient, SitusError } from "../../packages/client/src/index.js";
import type { ServiceProcess } from "../support/service-process.js";
import { startService } from "../support/service-process.js";

const KEY = "sk_client_test_key_0123456789abcdefgh";

/**
 * A proxy in front of the real service that counts requests and requests in flight, and answers
 * the first `failures` requests itself with `failStatus` (the faults the client must retry).
 */
class FaultProxy {
  requests = 0;
  inFlight = 0;
  maxInFlight = 0;
  failures = 0;
  failStatus = 503;
  private readonly server = createServer((req, res) => this.handle(req, res));

  constructor(private readonly target: URL) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.requests++;
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    res.on("close", () => this.inFlight--);
    if (this.failures > 0) {
      this.failures--;
      req.resume();
      const error = this.failStatus === 500 ? "internal_error" : "unavailable";
      res.writeHead(this.failStatus, { "content-type": "application/json", "retry-after": "0" });
      res.end(JSON.stringify({ error, message: "injected" }));
      return;
    }
    const upstream = httpRequest(
      {
        host: this.target.hostname,
        port: this.target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  }
}

describe("the TypeScript client against a running service", () => {
  let service: ServiceProcess;
  let proxy: FaultProxy;
  let base: string;
  const client = (options: Partial<SitusClientOptions> = {}) =>
    createSitusClient({ baseUrl: base, apiKey: KEY, retryDelayMs: 1, ...options });

  before(async () => {
    service = await startService({ DEMO_API_KEY: KEY });
    proxy = new FaultProxy(new URL(service.url));
    base = await proxy.start();
  });
  after(async () => {
    await proxy?.close();
    await service?.stop();
  });

  test("parse, lookup and lookup by ID answer typed results", async () => {
    const situs = client();
    const parsed = await situs.parse("101 Cypress Ct, Springfield IL 62701");
    assert.equal(parsed.type, "street");
    assert.equal(parsed.components.streetName, "CYPRESS");
    const found = await situs.lookup(parsed);
    assert.equal(found.status, "matched");
    assert.match(found.service_id ?? "", /^adr_/);
    const record = await situs.lookupById(found.service_id!);
    assert.equal(record.status, "active");
    assert.equal(record.apn, found.apn);
  });

  test("an error answer is a SitusError with the status, the code and the request ID; 4xx is never retried", async () => {
    proxy.requests = 0;
    const tooLong = await client()
      .parse("9".repeat(300))
      .catch((error: unknown) => error);
    assert.ok(tooLong instanceof SitusError);
    assert.equal(tooLong.status, 413);
    assert.equal(tooLong.code, "line_too_long");
    assert.equal(tooLong.body?.max, 256);
    assert.match(tooLong.requestId ?? "", /^req_/);
    const badKey = await createSitusClient({ baseUrl: base, apiKey: "sk_nobody", retryDelayMs: 1 })
      .parse("1 Main St")
      .catch((error: unknown) => error);
    assert.ok(badKey instanceof SitusError);
    assert.equal(badKey.code, "invalid_api_key");
    assert.equal(proxy.requests, 2, "one request each");
  });

  test("503 and 500 are retried with backoff until an answer; then the error", async () => {
    proxy.requests = 0;
    proxy.failures = 2;
    proxy.failStatus = 503;
    assert.equal((await client().parse("PO Box 12, Springfield IL 62701")).type, "po_box");
    assert.equal(proxy.requests, 3);
    proxy.requests = 0;
    proxy.failures = 10;
    proxy.failStatus = 500;
    const failed = await client({ retries: 2 })
      .lookupById("adr_01M8JHN64P3VWM7CC57GMPMNEZ")
      .catch((error: unknown) => error);
    assert.ok(failed instanceof SitusError);
    assert.equal(failed.code, "internal_error");
    assert.equal(proxy.requests, 3, "the first attempt and two retries");
    proxy.failures = 0;
  });

  test("a connection that fails is retried", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let calls = 0;
    const situs = createSitusClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      retries: 2,
      retryDelayMs: 1,
      fetch: (input, init) => (calls++, fetch(input, init)),
    });
    await assert.rejects(situs.parse("1 Main St"));
    assert.equal(calls, 3);
  });

  test("parseMany and lookupMany answer in input order, with at most `concurrency` in flight", async () => {
    proxy.maxInFlight = 0;
    const lines = Array.from({ length: 24 }, (_, i) => `${100 + i} Cypress Ct, Springfield IL 62701`);
    lines[5] = "x".repeat(300);
    const outcomes = await client().parseMany(lines, { concurrency: 4 });
    assert.equal(outcomes.length, lines.length);
    outcomes.forEach((outcome, i) => {
      if (i === 5)
        assert.ok(
          !outcome.ok && outcome.error instanceof SitusError && outcome.error.code === "line_too_long",
        );
      else assert.ok(outcome.ok && outcome.value.input === lines[i], `line ${i}`);
    });
    assert.ok(proxy.maxInFlight <= 4 && proxy.maxInFlight >= 2, `in flight: ${proxy.maxInFlight}`);
    const looked = await client().lookupMany(
      [
        { addressNumber: "101", streetName: "Cypress", streetSuffix: "Ct", zip5: "62701" },
        { streetName: "Cypress" },
      ],
      { concurrency: 2 },
    );
    assert.ok(looked[0]?.ok && looked[0].value.status === "matched");
    assert.ok(!looked[1]?.ok && (looked[1]?.error as SitusError).code === "location_required");
  });
});
