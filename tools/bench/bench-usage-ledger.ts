import { GroupCommitUsageLedger } from "../../src/accounts/ledger/group-commit-ledger.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { PostgresDatabase } from "../../src/db/postgres-database.js";
import { AccountAdmin } from "../../src/accounts/sql/account-admin.js";
import { newRequestId } from "../../src/ids.js";
import { flag, scratchDatabase } from "./bench-support.js";

/**
 * Usage ledger throughput on PostgreSQL: billed requests per second through group commit, with
 * `--concurrency` requests waiting at any time (as many as a busy replica has in flight), each
 * resolved only once its row is committed.
 *   node dist/tools/bench/bench-usage-ledger.js [--url postgres://…/test] [--records 200000]
 *        [--concurrency 2000] [--teams 10] [--window 2] [--in-flight 4]
 */
const url = flag("url", process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
const records = Number(flag("records", "200000"));
const concurrency = Number(flag("concurrency", "2000"));
const teamCount = Number(flag("teams", "10"));
const windowMs = Number(flag("window", "2"));

const scratch = await scratchDatabase(url);
const db = new PostgresDatabase({ url: scratch.url, timeoutMs: 10_000, poolSize: 8 });
try {
  await migrate(db, SERVICE_MIGRATIONS);
  const admin = new AccountAdmin(db);
  const teams = await Promise.all(Array.from({ length: teamCount }, () => admin.createTeam("bench", 1e15)));
  const ledger = new GroupCommitUsageLedger(db, {
    windowMs,
    maxBatch: 2000,
    maxInFlight: Number(flag("in-flight", "4")),
  });
  let next = 0;
  const worker = async () => {
    while (next < records) {
      const i = next++;
      await ledger.record({
        requestId: newRequestId(),
        teamId: teams[i % teamCount]!,
        keyId: "key_bench",
        operation: "parse",
        priceMicros: 1000,
        at: new Date(),
        log: { method: "POST", path: "/v1/verify/parse", latencyMs: 0.4 }, // as the edge sends it
      });
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await ledger.close();
  const [row] = await db.query<{ n: unknown }>("SELECT count(*) AS n FROM usage_records");
  console.log(
    `usage ledger on PostgreSQL: ${records} billed requests in ${seconds.toFixed(2)} s = ` +
      `${Math.round(records / seconds)} per second (concurrency ${concurrency}, ${teamCount} teams, ` +
      `window ${windowMs} ms); rows written ${Number(row?.n)}`,
  );
} finally {
  await db.close();
  await scratch.drop();
}
