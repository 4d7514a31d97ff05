import type { TeamStanding } from "../accounts.js";
import { toNumber } from "../../db/database.js";
import type { Queryable } from "../../db/database.js";

export interface TeamSummary extends TeamStanding {
  name: string;
}

/**
 * A team's standing as billing sees it. Credit left is derived, never decremented in place:
 * granted credit minus the spend of every month. The hot path of billing then only adds to
 * `monthly_spend` rows (the trigger of migration 2), and a team row is written only by
 * the operator.
 */
const STANDING = `
  SELECT t.id, t.name, t.status, t.budget_micros,
         t.credit_granted_micros
           - COALESCE((SELECT sum(s.spend_micros) FROM monthly_spend s WHERE s.team_id = t.id), 0) AS credit_micros,
         (SELECT sum(m.spend_micros) FROM monthly_spend m WHERE m.team_id = t.id AND m.month = $1::date)
           AS month_spend_micros
    FROM teams t`;

type StandingRow = {
  id: string;
  name: string;
  status: "active" | "paused";
  budget_micros: unknown;
  credit_micros: unknown;
  month_spend_micros: unknown;
};

/** Standings with month spend of `month` (`YYYY-MM-01`); `teamId` narrows to one team. */
export async function readStandings(db: Queryable, month: string, teamId?: string): Promise<TeamSummary[]> {
  const rows = await db.query<StandingRow>(
    teamId === undefined ? `${STANDING} ORDER BY t.created_at, t.id` : `${STANDING} WHERE t.id = $2`,
    teamId === undefined ? [month] : [month, teamId],
  );
  return rows.map(standingOf);
}

function standingOf(row: StandingRow): TeamSummary {
  return {
    teamId: row.id,
    name: row.name,
    status: row.status,
    creditMicros: toNumber(row.credit_micros),
    budgetMicros: row.budget_micros === null ? null : toNumber(row.budget_micros),
    monthSpendMicros: toNumber(row.month_spend_micros),
  };
}

/**
 * A key that is not revoked, by the hash of its secret, with its team's standing (month spend of
 * `month`), in one statement: an API key's check is one read of the database, whatever it finds.
 */
export async function readKeyWithStanding(
  db: Queryable,
  hash: string,
  month: string,
): Promise<{ keyId: string; keyPrefix: string; teamId: string; team: TeamSummary | null } | null> {
  const [row] = await db.query<
    { key_id: string; display_prefix: string; team_id: string } & {
      [K in keyof StandingRow]: StandingRow[K] | null;
    }
  >(
    `SELECT k.id AS key_id, k.display_prefix, k.team_id, s.*
       FROM api_keys k
       LEFT JOIN LATERAL (${STANDING} WHERE t.id = k.team_id) s ON true
      WHERE k.hash = $2 AND k.revoked_at IS NULL`,
    [month, hash],
  );
  if (row === undefined) return null;
  return {
    keyId: row.key_id,
    keyPrefix: row.display_prefix,
    teamId: row.team_id,
    team: row.id === null ? null : standingOf(row as StandingRow),
  };
}
