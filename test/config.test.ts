import assert from "node:assert/strict";
import { resolve } from "node:path";
import { test } from "node:test";
import { ConfigError, describeConfig, loadConfig } from "../src/config.js";

test("defaults: 127.0.0.1:8080, ./var, 64 KiB bodies", () => {
  const config = loadConfig({});
  assert.equal(config.PORT, 8080);
  assert.equal(config.HOST, "127.0.0.1");
  assert.equal(config.DATA_DIR, resolve("./var"));
  assert.equal(config.BODY_LIMIT_BYTES, 65536);
  assert.equal(config.TLS_CERT, undefined);
  assert.equal(config.TRUST_PROXY, false);
});

test("values from the environment are parsed; empty means default", () => {
  const config = loadConfig({
    PORT: "9000",
    HOST: "0.0.0.0",
    TRUST_PROXY: "10.0.0.5, 10.1.0.0/16",
    DEMO_API_KEY: "sk_x",
    LOG_LEVEL: "",
  });
  assert.equal(config.PORT, 9000);
  assert.deepEqual(config.TRUST_PROXY, { addresses: ["10.0.0.5", "10.1.0.0/16"] });
  assert.equal(config.DEMO_API_KEY, "sk_x");
  assert.equal(config.LOG_LEVEL, "info");
});

test("every bad variable is reported at once", () => {
  assert.throws(
    () => loadConfig({ PORT: "http", BODY_LIMIT_BYTES: "-1", TRUST_PROXY: "maybe" }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /PORT/.test(error.message) &&
      /BODY_LIMIT_BYTES/.test(error.message) &&
      /TRUST_PROXY/.test(error.message),
  );
});

test("TLS_CERT and TLS_KEY go together", () => {
  assert.throws(() => loadConfig({ TLS_CERT: "cert.pem" }), /TLS_CERT and TLS_KEY/);
});

test("the documented table names every variable with its default", () => {
  const table = describeConfig();
  for (const name of ["PORT", "HOST", "DATA_DIR", "TLS_CERT", "TLS_KEY", "DEMO_API_KEY"])
    assert.match(table, new RegExp(name));
  assert.match(table, /\[8080\]/);
});

test("values are checked before anything starts, each message naming its variable", () => {
  const problem = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      return error instanceof ConfigError ? error.message : "not a ConfigError";
    }
    return "accepted";
  };
  assert.match(problem({ LOG_LEVEL: "verbose" }), /LOG_LEVEL must be one of fatal, error, warn, info/);
  assert.match(problem({ DATABASE_URL: "notaurl" }), /DATABASE_URL must be a PostgreSQL URL \(postgres:/);
  assert.match(problem({ DATABASE_URL: "mysql://db/x" }), /DATABASE_URL must be a PostgreSQL URL/);
  assert.match(problem({ REDIS_URL: "127.0.0.1:6379" }), /REDIS_URL must be a Redis URL/);
  assert.match(
    problem({ INDEX: "s3://" }),
    /INDEX must be a directory, file:\/\/\/DIR or s3:\/\/BUCKET\/PREFIX/,
  );
  assert.match(problem({ INDEX: "http://example.com/index" }), /INDEX must be/);
  assert.match(problem({ S3_ENDPOINT: "minio:9000" }), /S3_ENDPOINT must be an HTTP URL/);
  assert.match(problem({ ACCESS_LOG: "sometimes" }), /ACCESS_LOG must be on, off or sample:N/);
  assert.equal(loadConfig({ ACCESS_LOG: "sample:10" }).ACCESS_LOG, 10);
  assert.equal(loadConfig({}).ACCESS_LOG, 1);
  // A password in a refused URL is never repeated.
  const message = problem({ DATABASE_URL: "postgres://situs:hunter2@" });
  assert.doesNotMatch(message, /hunter2/);
  assert.match(message, /situs:\*\*\*@/);
  const accepted: Record<string, string>[] = [
    { DATABASE_URL: "postgres://situs:pw@db.internal:5432/situs" },
    { REDIS_URL: "rediss://cache:6380" },
    { INDEX: "s3://bucket/prefix" },
    { INDEX: "/var/lib/situs/index" },
    { S3_ENDPOINT: "http://127.0.0.1:9000" },
    { LOG_LEVEL: "debug" },
  ];
  for (const env of accepted) assert.equal(problem(env), "accepted", JSON.stringify(env));
});
