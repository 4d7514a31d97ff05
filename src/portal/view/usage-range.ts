/**
 * The date range of the Usage page: whole UTC days, `from` and `to` both included, at most
 * 366 days; the last 30 days by default. Bad, reversed or too long input falls back to that
 * default (the last 30 days to today, whatever part of the input was good) and says so, rather
 * than failing the page.
 */
export interface DayRange {
  from: string;
  to: string;
  /** Every day of the range in order, `YYYY-MM-DD`. */
  days: string[];
  /** The day after `to` (the query's exclusive end). */
  end: string;
  adjusted: boolean;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function parseDay(value: string | undefined): number | null {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || dayOf(ms) !== value ? null : ms;
}

export function dayRange(query: { from?: string; to?: string }, now: Date): DayRange {
  const today = parseDay(dayOf(now.getTime())) ?? 0;
  let from = parseDay(query.from);
  let to = parseDay(query.to);
  const given = query.from !== undefined || query.to !== undefined;
  let adjusted =
    given && ((query.from !== undefined && from === null) || (query.to !== undefined && to === null));
  to ??= today;
  from ??= to - 29 * DAY_MS;
  if (from > to || (to - from) / DAY_MS + 1 > MAX_DAYS) adjusted = true;
  // A range that could not be shown falls back to exactly what the page then says: the last 30 days.
  if (adjusted) {
    to = today;
    from = today - 29 * DAY_MS;
  }
  const days: string[] = [];
  for (let ms = from; ms <= to; ms += DAY_MS) days.push(dayOf(ms));
  return { from: dayOf(from), to: dayOf(to), days, end: dayOf(to + DAY_MS), adjusted };
}

/** Presets: the last 7 and 30 days, this month and last month (UTC). */
export function presets(now: Date): Array<{ label: string; from: string; to: string }> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  return [
    { label: "Last 7 days", from: dayOf(today - 6 * DAY_MS), to: dayOf(today) },
    { label: "Last 30 days", from: dayOf(today - 29 * DAY_MS), to: dayOf(today) },
    { label: "This month", from: dayOf(monthStart), to: dayOf(today) },
    { label: "Last month", from: dayOf(lastMonthStart), to: dayOf(monthStart - DAY_MS) },
  ];
}
