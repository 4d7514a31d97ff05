import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PostgresDatabase } from "../../src/db/postgres-database.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { DEMO_TEAM_ID } from "../../src/app/demo-team.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { openBlobStore } from "../../src/parcels/store/open-blob-store.js";
import { NGINX_BINARY, nginxInstalled, startNginx } from "../../tools/scale-out/nginx.js";
import type { NginxProcess } from "../../tools/scale-out/nginx.js";
import { watchReadiness } from "../../tools/scale-out/readiness.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { freshPostgres, REDIS_URL, serverSkip } from "../support/databases.js";
import { startS3 } from "../support/s3.js";
import type { LocalS3 } from "../support/s3.js";
import { freePort, startService } from "../support/service-process.js";
import type { ServiceProcess } from "../support/service-process.js";
import { temporaryDir, writeCanonical } from "../parcels/index-fixtures.js";

/**
 * The scale-out deployment of docs/scale-out.md on one machine: three replicas behind Debian's
 * nginx (deploy/nginx/situs.conf.template), sharing one PostgreSQL, one Redis and one index in an
 * S3-compatible store (s3rver). CI installs nginx (.ci/run); elsewhere the suite skips without it.
 */
function nginxSkip(): false | string {
  if (nginxInstalled()) return false;
  const message = `needs nginx at ${NGINX_BINARY} (apt-get install nginx-light)`;
  if (process.env.CI === "true") throw new Error(`${message}, and CI=true: the tests must not skip`);
  return message;
}

const skip = nginxSkip() || (await serverSkip("PostgreSQL")) || (await serverSkip("Redis"));
const KEY = `sk_scaleout_${randomBytes(12).toString("hex")}`;
const INDEX = "s3://situs-index/parcels";
const PARSE_PRICE = 1000;
const LOOKUP_PRICE = 5000;

const parcel = (apn: string, addressNumber: string, streetName: string) => ({
  apn,
  fips: "06001",
  addressNumber,
  streetName,
  streetSuffix: "ST",
  city: "BERKELEY",
  state: "CA",
  zip5: "94704",
  lat: "37.87",
  lon: "-122.26",
});
const FIRST_BUILD = [parcel("1", "10", "MAIN"), parcel("2", "12", "MAIN"), parcel("3", "20", "OAK")];

interface Answer {
  status: number;
  requestId: string | null;
  body: Record<string, unknown> | null;
}

async function call(base: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // nginx's own error pages are HTML.
  }
  return { status: response.status, requestId: response.headers.get("x-request-id"), body: parsed };
}

/** The status of a parse POSTed from the local address `from` (127.0.0.0/8 is all this host's). */
function postFrom(from: string, base: string, headers: Record<string, string>): Promise<number> {
  return postThrough(false, base, headers, from);
}

function postThrough(
  agent: Agent | false,
  base: string,
  headers: Record<string, string>,
  from = "127.0.0.1",
): Promise<number> {
  const body = JSON.stringify({ line: "1 Main St, Berkeley CA 94704" });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}/v1/verify/parse`,
      {
        method: "POST",
        localAddress: from,
        agent,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const lookupOf = (addressNumber: string, streetName: string) => ({
  components: { addressNumber, streetName, streetSuffix: "ST", zip5: "94704" },
});

describe("replicas behind nginx sharing PostgreSQL, Redis and an index in S3", { skip }, () => {
  let dir: string;
  let s3: LocalS3;
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  let db: PostgresDatabase;
  let replicas: ServiceProcess[] = [];
  let nginx: NginxProcess;
  let balancer: string;
  let env: Record<string, string>;
  const cleanups: Array<() => void> = [];

  const publish = async (name: string, rows: ReturnType<typeof parcel>[]) => {
    const store = openBlobStore(INDEX, s3.env);
    const file = writeCanonical(join(dir, name), rows);
    return (await ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }] })).buildId;
  };

  before(async () => {
    dir = temporaryDir({ after: (fn) => cleanups.push(fn) });
    s3 = await startS3(join(dir, "s3"));
    await s3.createBucket("situs-index");
    await publish("v1.csv", FIRST_BUILD);
    database = await freshPostgres();
    env = {
      ...s3.env,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `situs-test:${randomBytes(6).toString("hex")}:`,
      DEMO_API_KEY: KEY,
      INDEX,
      INDEX_REFRESH_MS: "200",
      TRUST_PROXY: "loopback",
      PRICE_PARSE_MICROS: String(PARSE_PRICE),
      PRICE_LOOKUP_MICROS: String(LOOKUP_PRICE),
      // Three replicas, their database and the load share two cores here.
      SHED_EVENT_LOOP_DELAY_MS: "0",
      KEY_CHECK_TIMEOUT_MS: "20000",
      DATABASE_TIMEOUT_MS: "20000",
    };
    // One replica first: it runs the migrations and creates the demo team the others find.
    replicas = [await startService(env)];
    replicas.push(...(await Promise.all([startService(env), startService(env)])));
    db = new PostgresDatabase({ url: database.url, timeoutMs: 10_000 });
    const port = await freePort();
    const prefix = join(dir, "nginx");
    mkdirSync(prefix);
    nginx = await startNginx(
      { listen: `127.0.0.1:${port}`, prefix, upstreams: replicas.map((r) => `127.0.0.1:${r.port}`) },
      port,
    );
    balancer = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.kill()));
    await db?.close();
    await database?.drop();
    await s3?.close();
    for (const cleanup of cleanups) cleanup();
  });

  test("every replica answers through the balancer, with the balancer's request ID", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call(balancer, "/v1/verify/lookup", lookupOf("10", "MAIN"))),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.body?.status, "matched");
      assert.match(answer.requestId ?? "", /^req_[0-9a-f]{26}$/, "nginx's request ID, trusted");
    }
  });

  test("a newly published build is picked up by every replica", async () => {
    for (const replica of replicas) {
      const before = await call(replica.url, "/v1/verify/lookup", lookupOf("30", "ELM"));
      assert.equal(before.body?.status, "not_found");
    }
    await publish("v2.csv", [...FIRST_BUILD, parcel("4", "30", "ELM")]);
    const deadline = Date.now() + 20_000;
    for (const replica of replicas) {
      for (;;) {
        const answer = await call(replica.url, "/v1/verify/lookup", lookupOf("30", "ELM"));
        if (answer.body?.status === "matched") break;
        assert.ok(Date.now() < deadline, `replica on ${replica.port} still serves the old build`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const through = await call(balancer, "/v1/verify/lookup", lookupOf("30", "ELM"));
    assert.equal(through.body?.status, "matched");
  });

  test("with /readyz checks nginx sends nothing to a replica whose database is gone, then takes it back", async () => {
    const proxy = new TcpProxy("127.0.0.1", 5432);
    await proxy.start();
    const proxied = new URL(database.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const flaky = await startService({
      ...env,
      DATABASE_URL: proxied.toString(),
      DATABASE_TIMEOUT_MS: "2000",
      KEY_CHECK_TIMEOUT_MS: "2000",
    });
    const port = await freePort();
    const prefix = join(dir, "nginx-readiness");
    mkdirSync(prefix);
    const upstreams = [`127.0.0.1:${replicas[0]!.port}`, `127.0.0.1:${flaky.port}`];
    const settings = { listen: `127.0.0.1:${port}`, prefix, upstreams };
    const checked = await startNginx(settings, port);
    const watch = watchReadiness({
      upstreams,
      everyMs: 100,
      timeoutMs: 5000,
      apply: (down) => checked.reconfigure({ ...settings, down }),
    });
    const roundsUntil = async (done: () => boolean) => {
      for (let round = 0; round < 100 && !done(); round++) await watch.nextRound();
      assert.ok(done(), "the readiness checks saw the change");
    };
    /**
     * Parses through this nginx until `count` in a row answer 200: its old workers finish first,
     * closing their keep-alive connections (a request on one that closes fails and starts over).
     */
    const steady = async (count: number) => {
      const deadline = Date.now() + 20_000;
      const parse = () =>
        call(`http://127.0.0.1:${port}`, "/v1/verify/parse", { line: "10 Main St" }).then(
          (answer) => answer.status,
          () => 0,
        );
      for (let run = 0; run < count;) {
        assert.ok(Date.now() < deadline, `${count} answers in a row were 200`);
        run = (await parse()) === 200 ? run + 1 : 0;
      }
    };
    try {
      await watch.nextRound();
      assert.deepEqual([...watch.down], []);
      proxy.refuse(); // the flaky replica's PostgreSQL is gone: its /readyz answers 503
      await roundsUntil(() => watch.down.has(upstreams[1]!));
      assert.deepEqual([...watch.down], [upstreams[1]]);
      await steady(10);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(`http://127.0.0.1:${port}`, "/v1/verify/parse", { line: "12 Main St" }),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(20).fill(200),
        "every request goes to the ready replica",
      );
      proxy.restore();
      await roundsUntil(() => watch.down.size === 0);
      await steady(10);
    } finally {
      watch.stop();
      await checked.stop();
      await flaky.kill();
      await proxy.stop();
    }
  });

  test("a client naming its own address in X-Forwarded-For is limited all the same", async () => {
    // From 127.0.0.2, so the limit this test reaches leaves the other tests' 127.0.0.1 alone.
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      statuses.push(
        await postFrom("127.0.0.2", balancer, {
          authorization: `Bearer sk_guess_${randomBytes(16).toString("hex")}`,
          "x-forwarded-for": `198.51.100.${i + 1}`,
        }),
      );
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(5).fill(429), "the 11th different key of one client gets 429");
    assert.equal((await call(balancer, "/v1/verify/parse", { line: "1 Main St" })).status, 200);
  });

  test("256 connections on a balance worth 10 parses: at most a few answers past zero", async (t) => {
    const admin = new AccountAdmin(db);
    const teamId = await admin.createTeam("small balance", 10 * PARSE_PRICE);
    const { secret } = await admin.createKey(teamId, "k");
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    const statuses: number[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 256 }, () =>
            postThrough(agent, balancer, { authorization: `Bearer ${secret}` }),
          ),
        );
        statuses.push(...answers);
      }
    } finally {
      agent.destroy();
    }
    const ok = statuses.filter((status) => status === 200).length;
    t.diagnostic(`200s ${ok} of ${statuses.length}`);
    assert.ok(ok >= 1 && ok <= 25, `${ok} answers on a balance worth 10`);
    assert.deepEqual(new Set(statuses.filter((status) => status !== 200)), new Set([402]));
    const team = await admin.team(teamId);
    assert.equal(team.creditMicros, (10 - ok) * PARSE_PRICE, "every answer billed");
  });

  test("a replica killed under load: the others keep answering, nothing billed twice or lost", async (t) => {
    const already = new Set(
      (await db.query<{ request_id: string }>("SELECT request_id FROM usage_records")).map(
        (row) => row.request_id,
      ),
    );
    const ok = new Map<string, number>();
    const refused: string[] = [];
    let failed = 0;
    let okAfterKill = 0;
    let killed = false;
    let stop = false;
    const client = async (worker: number) => {
      for (let i = 0; !stop; i++) {
        const lookup = (worker + i) % 2 === 0;
        const answer = await (
          lookup
            ? call(balancer, "/v1/verify/lookup", lookupOf("12", "MAIN"))
            : call(balancer, "/v1/verify/parse", { line: "12 Main St, Berkeley CA 94704" })
        ).catch(() => null);
        if (answer === null || answer.requestId === null) failed++;
        else if (answer.status === 200) {
          assert.ok(!ok.has(answer.requestId), "one request ID per answer");
          ok.set(answer.requestId, lookup ? LOOKUP_PRICE : PARSE_PRICE);
          if (killed) okAfterKill++;
        } else refused.push(answer.requestId);
      }
    };
    const clients = Promise.all(Array.from({ length: 16 }, (_, worker) => client(worker)));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await replicas[0]!.kill();
    killed = true;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop = true;
    await clients;
    // The survivors write what they hold; the balancer keeps the killed one out meanwhile.
    await Promise.all(replicas.slice(1).map((replica) => replica.stop()));

    const rows = (
      await db.query<{ request_id: string; price_micros: string }>(
        "SELECT request_id, price_micros FROM usage_records WHERE NOT voided",
      )
    ).filter((row) => !already.has(row.request_id));
    const billed = new Map(rows.map((row) => [row.request_id, Number(row.price_micros)]));
    t.diagnostic(
      `200s ${ok.size} (${okAfterKill} after the kill), refused ${refused.length}, failed ${failed}, billed ${billed.size}`,
    );
    assert.ok(ok.size > 50, `only ${ok.size} answers`);
    assert.ok(okAfterKill > 20, `only ${okAfterKill} answers after the kill`);
    assert.deepEqual(
      [...ok.keys()].filter((id) => billed.get(id) !== ok.get(id)),
      [],
      "every 200 received is billed once, at its price",
    );
    assert.deepEqual(
      refused.filter((id) => billed.has(id)),
      [],
      "no error is billed",
    );
    // nginx retries a request whose replica died on another one under the same request ID, so a
    // row committed by the killed replica is answered by a survivor and billed once: the rows
    // billed are exactly the 200s received, and no client request fails.
    assert.equal(failed, 0, "every request is answered, by a survivor when its replica died");
    assert.deepEqual(
      [...billed.keys()].filter((id) => !ok.has(id)),
      [],
      "nothing billed without a 200 received",
    );
    assert.equal(billed.size, ok.size);
    const spend = await db.query<{ spend: string }>(
      "SELECT coalesce(sum(spend_micros), 0) AS spend FROM monthly_spend WHERE team_id = $1",
      [DEMO_TEAM_ID],
    );
    const total = await db.query<{ total: string }>(
      "SELECT coalesce(sum(price_micros), 0) AS total FROM usage_records WHERE team_id = $1 AND NOT voided",
      [DEMO_TEAM_ID],
    );
    assert.equal(Number(spend[0]!.spend), Number(total[0]!.total), "month spend is the sum of billed rows");
  });
});
