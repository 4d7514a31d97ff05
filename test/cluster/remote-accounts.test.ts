import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, test } from "node:test";
import {
  MemoryAccountStore,
  MemoryKeyGuessLimiter,
  MemoryLeaseSource,
  MemoryRequestLog,
  MemoryUsageLedger,
} from "../../src/accounts/memory-accounts.js";
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { hostAccounts } from "../../src/cluster/accounts-host.js";
import type { HostedAccounts } from "../../src/cluster/accounts-host.js";
import {
  ACCOUNTS_SERVICE,
  RemoteAccountStore,
  RemoteKeyGuessLimiter,
  RemoteRequestLog,
  RemoteUsageLedger,
  VERDICT_TTL_MS,
} from "../../src/cluster/remote-accounts.js";
import { RpcClient } from "../../src/cluster/rpc.js";
import type { Channel } from "../../src/cluster/rpc.js";

/** Two ends of an IPC channel in one process; messages cross as JSON, asynchronously, like IPC. */
function channelPair(): [Channel & { closed: boolean }, Channel & { closed: boolean }] {
  const make = () =>
    Object.assign(new EventEmitter(), { closed: false }) as EventEmitter & Channel & { closed: boolean };
  const left = make();
  const right = make();
  const link = (from: typeof left, to: typeof right) => {
    from.send = (message: unknown, callback?: (error: Error | null) => void) => {
      if (from.closed) {
        setImmediate(() => callback?.(new Error("closed")));
        return false;
      }
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      setImmediate(() => {
        to.emit("message", copy);
        callback?.(null);
      });
      return true;
    };
  };
  link(left, right);
  link(right, left);
  return [left, right];
}

interface Hosted {
  accounts: MemoryAccountStore;
  usage: MemoryUsageLedger;
  requestLog: MemoryRequestLog;
  keyGuesses: MemoryKeyGuessLimiter;
  leaseSource: MemoryLeaseSource;
}

function hosted(): Hosted {
  const accounts = new MemoryAccountStore();
  accounts.addTeam({ teamId: "team_a" });
  accounts.addKey("team_a", "sk_valid", "key_a");
  return {
    accounts,
    usage: new MemoryUsageLedger(),
    requestLog: new MemoryRequestLog(),
    keyGuesses: new MemoryKeyGuessLimiter(2),
    leaseSource: new MemoryLeaseSource(accounts),
  };
}

function worker(primarySide: Channel, workerSide: Channel, services: Hosted) {
  const host: HostedAccounts = { accounts: services, keyGuesses: services.keyGuesses };
  hostAccounts(primarySide, host);
  return new RpcClient(workerSide, ACCOUNTS_SERVICE, 500);
}

const usage = (requestId: string): UsageRecord => ({
  requestId,
  teamId: "team_a",
  keyId: "key_a",
  operation: "parse",
  priceMicros: 1000,
  at: new Date("2026-11-20T12:00:00Z"),
});

/** Waits for a condition that messages crossing the channel make true (bounded: fails the test after 5 s). */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition() && waited < 5000; waited += 5) await sleep(5);
}

describe("accounts over IPC", () => {
  test("authenticate answers like the hosted store, and caches verdicts for a bounded time", async () => {
    const services = hosted();
    const [primary, child] = channelPair();
    const store = new RemoteAccountStore(worker(primary, child, services));
    assert.equal((await store.authenticate("sk_valid"))?.key.teamId, "team_a");
    assert.equal(await store.authenticate("sk_nope"), null);
    services.accounts.revokeKey("sk_valid");
    assert.ok(await store.authenticate("sk_valid"), "cached verdict within the TTL");
    await sleep(VERDICT_TTL_MS + 20);
    assert.equal(await store.authenticate("sk_valid"), null, "revocation seen once the TTL passes");
  });

  test("usage records are batched, resolve when durable on the primary, revive dates, dedupe by request ID", async () => {
    const services = hosted();
    const [primary, child] = channelPair();
    const ledger = new RemoteUsageLedger(worker(primary, child, services));
    await Promise.all([
      ledger.record(usage("req_1")),
      ledger.record(usage("req_2")),
      ledger.record(usage("req_1")),
    ]);
    assert.deepEqual([...services.usage.records.keys()], ["req_1", "req_2"]);
    assert.ok(services.usage.records.get("req_1")!.at instanceof Date);
  });

  test("a usage record the primary cannot make durable rejects its request only", async () => {
    const services = hosted();
    services.usage.record = async (record) => {
      if (record.requestId === "req_bad") throw new Error("disk full");
    };
    const [primary, child] = channelPair();
    const ledger = new RemoteUsageLedger(worker(primary, child, services));
    const [good, bad] = await Promise.allSettled([
      ledger.record(usage("req_ok")),
      ledger.record(usage("req_bad")),
    ]);
    assert.equal(good.status, "fulfilled");
    assert.equal(bad.status, "rejected");
  });

  test("a primary that is gone fails calls (so the edge answers 503), it does not hang", async () => {
    const [primary, child] = channelPair();
    const rpc = worker(primary, child, hosted());
    child.closed = true;
    await assert.rejects(new RemoteAccountStore(rpc).authenticate("sk_valid"), /closed/);
    await assert.rejects(new RemoteUsageLedger(rpc).record(usage("req_x")), /closed/);
  });

  test("a primary that does not answer times out", async () => {
    const [, child] = channelPair(); // nothing hosts the service
    const rpc = new RpcClient(child, ACCOUNTS_SERVICE, 50);
    await assert.rejects(rpc.call("authenticate", "sk"), /not answered/);
  });

  test("a primary that hosts only the limiter answers limiter calls and refuses the rest", async () => {
    const services = hosted();
    const [primary, child] = channelPair();
    hostAccounts(primary, { keyGuesses: services.keyGuesses });
    const rpc = new RpcClient(child, ACCOUNTS_SERVICE, 500);
    assert.equal(await new RemoteKeyGuessLimiter(rpc).noteUnrecognized("10.0.0.9", "h"), false);
    await assert.rejects(new RemoteAccountStore(rpc).authenticate("sk_valid"), /unknown method/);
  });

  test("two workers share one unknown-key count", async () => {
    const services = hosted(); // limit 2 different keys a minute
    const [primaryA, childA] = channelPair();
    const [primaryB, childB] = channelPair();
    const a = new RemoteKeyGuessLimiter(worker(primaryA, childA, services));
    const b = new RemoteKeyGuessLimiter(worker(primaryB, childB, services));
    assert.equal(await a.noteUnrecognized("10.0.0.1", "h1"), false);
    assert.equal(await b.noteUnrecognized("10.0.0.1", "h2"), false);
    assert.equal(await a.noteUnrecognized("10.0.0.1", "h3"), true);
  });

  test("request-log entries reach the primary in batches, on close at the latest", async () => {
    const services = hosted();
    const [primary, child] = channelPair();
    const log = new RemoteRequestLog(worker(primary, child, services), 10_000, 3);
    const entry = {
      ...usage("req_l"),
      method: "POST",
      path: "/v1/verify/parse",
      status: 200,
      errorCode: null,
      latencyMs: 1,
    };
    for (const id of ["a", "b", "c", "d"]) log.append({ ...entry, requestId: `req_${id}` });
    await until(() => services.requestLog.entries.length === 3);
    assert.equal(services.requestLog.entries.length, 3, "a full batch is sent at once, the rest waits");
    await log.close();
    await until(() => services.requestLog.entries.length === 4);
    assert.ok(services.requestLog.entries[0]!.at instanceof Date);
  });
});
