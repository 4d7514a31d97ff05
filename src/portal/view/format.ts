/** How the portal writes times and dates: always UTC, the clock budgets and billing use. */
export function formatTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function formatDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2026-11-01` → `November 2026`. */
export function formatMonth(month: string): string {
  const date = new Date(`${month}T00:00:00Z`);
  return date.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** `2026-11-20` → `Nov 20`. */
export function formatShortDay(day: string): string {
  const [, month, date] = day.split("-");
  return `${MONTHS[Number(month) - 1] ?? ""} ${Number(date)}`;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
