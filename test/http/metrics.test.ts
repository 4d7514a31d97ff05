import assert from "node:assert/strict";
import { test } from "node:test";
import { freePort, startService } from "../support/service-process.js";

const KEY = "sk_test_metrics0123456789abcdefghijklmno";

test("METRICS_PORT serves Prometheus metrics of the requests, billing, index and Node", async () => {
  const metricsPort = await freePort();
  const service = await startService({ DEMO_API_KEY: KEY, METRICS_PORT: String(metricsPort) });
  try {
    const parse = (key: string) =>
      fetch(`${service.url}/v1/verify/parse`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ line: "123 Main St Springfield IL 62701" }),
      });
    for (let i = 0; i < 3; i++) assert.equal((await parse(KEY)).status, 200);
    assert.equal((await parse("sk_test_not_a_key_0123456789abcdefghijk")).status, 401);
    assert.equal((await fetch(`${service.url}/metrics`)).status, 404, "the API's port has no metrics");
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
    const text = await response.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    assert.equal(
      value(/situs_http_requests_total\{route="\/v1\/verify\/parse",status="200",error=""\} (\d+)/),
      3,
    );
    assert.equal(
      value(
        /situs_http_requests_total\{route="\/v1\/verify\/parse",status="401",error="invalid_api_key"\} (\d+)/,
      ),
      1,
    );
    assert.equal(value(/situs_billed_requests_total\{operation="parse"\} (\d+)/), 3);
    assert.equal(value(/situs_http_request_duration_seconds_count\{route="\/v1\/verify\/parse"\} (\d+)/), 4);
    assert.equal(value(/situs_index_build_info\{build_id="b_[0-9A-Z]{26}"\} (\d+)/), 1);
    assert.ok(value(/^situs_index_build_age_seconds (\S+)$/m) >= 0);
    assert.ok(value(/^situs_chunk_cache_bytes (\d+)$/m) >= 0);
    assert.match(text, /^situs_shed_requests_total 0$/m);
    assert.match(text, /^nodejs_eventloop_lag_seconds /m);
    assert.ok(value(/^situs_usage_backlog_rows (\d+)$/m) >= 0);
    assert.ok(value(/^situs_usage_ledger_lag_seconds (\S+)$/m) >= 0);
  } finally {
    await service.stop();
  }
});

test("with WORKERS=2, one scrape counts every worker's requests", async () => {
  const metricsPort = await freePort();
  const service = await startService({
    DEMO_API_KEY: KEY,
    METRICS_PORT: String(metricsPort),
    WORKERS: "2",
  });
  try {
    // Each request on a new connection: the primary hands connections to the workers in turn.
    const requests = 12;
    for (let i = 0; i < requests; i++) {
      const response = await fetch(`${service.url}/v1/verify/parse`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY}`,
          "content-type": "application/json",
          connection: "close",
        },
        body: JSON.stringify({ line: `${i + 1} Main St Springfield IL 62701` }),
      });
      assert.equal(response.status, 200);
    }
    for (let scrape = 0; scrape < 2; scrape++) {
      // A worker starved of CPU by the rest of a loaded machine may miss prom-client's 5 s to
      // answer the primary: such a scrape fails whole, and is asked again, as Prometheus would.
      let text = "";
      for (let attempt = 0; attempt < 3; attempt++) {
        text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        if (!/Operation timed out/.test(text)) break;
      }
      const count = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
      assert.equal(count(/situs_billed_requests_total\{operation="parse"\} (\d+)/), requests, text);
      assert.equal(count(/situs_index_build_info\{build_id="b_[0-9A-Z]{26}"\} (\d+)/), 1);
      assert.ok(count(/^situs_usage_backlog_rows (\d+)$/m) >= 0, "the primary's ledger, which it holds");
    }
  } finally {
    await service.stop();
  }
});
