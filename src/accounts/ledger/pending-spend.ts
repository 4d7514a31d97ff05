import type { UsageRecord } from "../accounts.js";
import { monthOf } from "../sql/account-changes.js";

/** Spend by team and month: what one usage journal holds. */
export class SpendTally {
  private readonly byTeam = new Map<string, Map<string, number>>();

  add(records: readonly UsageRecord[]): void {
    for (const record of records) {
      let months = this.byTeam.get(record.teamId);
      if (months === undefined) this.byTeam.set(record.teamId, (months = new Map()));
      const month = monthOf(record.at);
      months.set(month, (months.get(month) ?? 0) + record.priceMicros);
    }
  }

  /** Adds this tally's spend of `teamId` to `sum`: over all months, and in `month`. */
  addTo(sum: { total: number; month: number }, teamId: string, month: string): void {
    const months = this.byTeam.get(teamId);
    if (months === undefined) return;
    for (const [at, micros] of months) {
      sum.total += micros;
      if (at === month) sum.month += micros;
    }
  }
}

/**
 * Spend that is durable (journaled) but not yet in the database, by team and month: the sum of
 * the tallies of the journals not yet applied. The account cache adds it to what it reads, so a
 * standing re-read from the database between two applies of the usage journal does not forget
 * requests already answered.
 */
export class PendingSpend {
  private readonly tallies = new Set<SpendTally>();

  /** A new tally counted as pending until it is settled. */
  open(): SpendTally {
    const tally = new SpendTally();
    this.tallies.add(tally);
    return tally;
  }

  /** The tally's spend is in the database now: it is no longer pending. */
  settle(tally: SpendTally): void {
    this.tallies.delete(tally);
  }

  /** Pending spend of `teamId` over all months, and in `month`. */
  of(teamId: string, month: string): { total: number; month: number } {
    const sum = { total: 0, month: 0 };
    for (const tally of this.tallies) tally.addTo(sum, teamId, month);
    return sum;
  }
}
