import type { Database } from "../../db/database.js";
import { toNumber } from "../../db/database.js";
import { grantFrom, LEASE_TTL_MS } from "../credit-leases.js";
import type { LeaseGrant, LeaseRequest, LeaseSource } from "../credit-leases.js";
import type { PendingSpend } from "../ledger/pending-spend.js";
import { monthAt } from "./account-changes.js";
import { readStandings } from "./team-standing.js";

/** A holder's row: what it holds for the team now, renewed. */
const UPSERT_LEASE = `
  INSERT INTO credit_leases (team_id, holder, micros, renewed_at) VALUES ($1, $2, $3, now())
  ON CONFLICT (team_id, holder) DO UPDATE SET micros = excluded.micros, renewed_at = excluded.renewed_at`;

/**
 * Credit leases in the accounts database (credit-leases.ts): one transaction per grant, holding
 * the team's advisory lock so grants for one team are made one at a time, each seeing every
 * lease before it. What is left for a holder is the team's credit left (and budget left) minus
 * what the other holders reserved and have not billed; spend durable but not yet in the
 * database (the embedded usage journal, `pendingSpend`) counts as spent.
 */
export class SqlLeaseSource implements LeaseSource {
  constructor(
    private readonly db: Database,
    private readonly pendingSpend?: PendingSpend,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(request: LeaseRequest): Promise<LeaseGrant> {
    return this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(3, hashtext($1))", [request.teamId]);
      const month = monthAt(this.now());
      const [team] = await readStandings(tx, month, request.teamId);
      if (team === undefined) return { grantedMicros: 0, refusal: "insufficient_credit" } as const;
      // Leases of holders gone without giving them back end here, once their time is up.
      await tx.query(
        "DELETE FROM credit_leases WHERE team_id = $1 AND renewed_at <= now() - make_interval(secs => $2)",
        [request.teamId, LEASE_TTL_MS / 1000],
      );
      const [others] = await tx.query<{ micros: unknown }>(
        "SELECT coalesce(sum(micros), 0) AS micros FROM credit_leases WHERE team_id = $1 AND holder <> $2",
        [request.teamId, request.holder],
      );
      const pending = this.pendingSpend?.of(request.teamId, month) ?? { total: 0, month: 0 };
      const spent = {
        creditMicros: team.creditMicros - pending.total,
        budgetMicros: team.budgetMicros,
        monthSpendMicros: team.monthSpendMicros + pending.month,
      };
      const grant = grantFrom(spent, toNumber(others?.micros), request);
      if (grant.refusal === undefined)
        await tx.query(UPSERT_LEASE, [
          request.teamId,
          request.holder,
          request.outstandingMicros + grant.grantedMicros,
        ]);
      return grant;
    });
  }

  async settle(teamId: string, holder: string, outstandingMicros: number): Promise<void> {
    if (outstandingMicros <= 0) {
      await this.db.query("DELETE FROM credit_leases WHERE team_id = $1 AND holder = $2", [teamId, holder]);
      return;
    }
    await this.db.query(UPSERT_LEASE, [teamId, holder, outstandingMicros]);
  }
}
