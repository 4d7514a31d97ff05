/**
 * What applying the usage journal costs the embedded database: CPU per usage row of
 * `billJournal` (the journal's tuples checked and copied into usage_records as they are, month
 * spend updated by the trigger), with PGlite in this thread so every microsecond is counted. In
 * the service this runs on PGlite's own thread, which shares the machine's cores with the one
 * answering.
 *   node dist/tools/bench/bench-journal-apply.js [--rows 4000] [--rounds 25]
 * Prints the median and the best round, after two unmeasured rounds.
 */
import type { UsageRecord } from "../../src/accounts/accounts.js";
import { migrate } from "../../src/db/migrate.js";
import { SERVICE_MIGRATIONS } from "../../src/app/service-migrations.js";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { ensureDemoTeam, DEMO_TEAM_ID } from "../../src/app/demo-team.js";
import { billJournal, encodeJournal } from "../../src/accounts/ledger/usage-journal.js";
import { flag } from "./bench-support.js";

const rows = Number(flag("rows", "4000"));
const rounds = Number(flag("rounds", "25"));

const db = await PgliteDatabase.open(undefined);
try {
  await migrate(db, SERVICE_MIGRATIONS);
  await ensureDemoTeam(db);
  let sequence = 0;
  const journal = (): Buffer => {
    const now = Date.now();
    const records: UsageRecord[] = [];
    for (let i = 0; i < rows; i++) {
      sequence++;
      records.push({
        requestId: `req_bench${String(sequence).padStart(20, "0")}`,
        teamId: DEMO_TEAM_ID,
        keyId: "key_bench",
        operation: "parse",
        priceMicros: 100,
        at: new Date(now + i),
        log: { method: "POST", path: "/v1/parse", latencyMs: 0.125 },
      });
    }
    return encodeJournal(records);
  };
  const perRow: number[] = [];
  for (let round = 0; round < rounds + 2; round++) {
    const bytes = journal();
    const start = process.cpuUsage();
    await billJournal(db, bytes, 2000);
    const used = process.cpuUsage(start);
    if (round >= 2) perRow.push((used.user + used.system) / rows);
  }
  perRow.sort((a, b) => a - b);
  const [billed] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM usage_records");
  process.stdout.write(
    `journal applied to PGlite: ${perRow[perRow.length >> 1]!.toFixed(2)} µs of CPU per usage row median, ` +
      `${perRow[0]!.toFixed(2)} best (${rounds} rounds of ${rows} rows; ${billed?.n} rows billed)\n`,
  );
} finally {
  await db.close();
}
