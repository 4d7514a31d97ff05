import type { UsageRecord } from "../accounts.js";
import { monthOf } from "./account-changes.js";

/**
 * Spend that is durable (journaled) but not yet in the database, by team and month. The account
 * cache adds it to what it reads, so a standing re-read from the database between two applies of
 * the usage journal does not forget requests already answered.
 */
export class PendingSpend {
  private readonly byTeam = new Map<string, Map<string, number>>();

  add(records: readonly UsageRecord[], sign: 1 | -1 = 1): void {
    for (const record of records) {
      const months = this.byTeam.get(record.teamId) ?? new Map<string, number>();
      const month = monthOf(record.at);
      const micros = (months.get(month) ?? 0) + sign * record.priceMicros;
      if (micros === 0) months.delete(month);
      else months.set(month, micros);
      if (months.size === 0) this.byTeam.delete(record.teamId);
      else this.byTeam.set(record.teamId, months);
    }
  }

  remove(records: readonly UsageRecord[]): void {
    this.add(records, -1);
  }

  /** Pending spend of `teamId` over all months, and in `month`. */
  of(teamId: string, month: string): { total: number; month: number } {
    const months = this.byTeam.get(teamId);
    if (!months) return { total: 0, month: 0 };
    let total = 0;
    for (const micros of months.values()) total += micros;
    return { total, month: months.get(month) ?? 0 };
  }
}
