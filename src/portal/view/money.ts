/**
 * Money is kept as integer micro-units (DECISIONS.md "Accounts and billing") and shown in the
 * configured currency (CURRENCY, ISO 4217, default USD). Amounts are shown with two decimals,
 * or with as many more (up to six) as needed not to hide a fraction of a cent: a month of three
 * parses at 0.001 each shows as $0.003, not $0.00.
 */
const MICROS_PER_UNIT = 1_000_000;

export function formatMoney(micros: number, currency: string): string {
  const cents = micros % 10_000 === 0;
  let digits = 2;
  if (!cents) {
    digits = 6;
    while (digits > 2 && micros % 10 ** (6 - digits + 1) === 0) digits--;
  }
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(micros / MICROS_PER_UNIT);
}

/** The symbol (or code) the currency is written with, for labels of inputs. */
export function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat("en-US", { style: "currency", currency }).formatToParts(0);
  return parts.find((part) => part.type === "currency")?.value ?? currency;
}

/**
 * Parses an amount typed by a person ("250", "1,250.50", "$12.5") into micro-units, exactly:
 * the decimal string is split, never passed through floating point. Null when it is not an
 * amount of at most two decimals between 0 and 1,000,000,000.
 */
export function parseMoney(typed: string): number | null {
  const cleaned = typed
    .trim()
    .replace(/^[^\d.-]+/, "") // a currency symbol goes; a minus sign stays, and fails below
    .replace(/,/g, "");
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match?.[1]) return null;
  const whole = Number(match[1]);
  if (whole > 1_000_000_000) return null;
  const fraction = Number((match[2] ?? "").padEnd(6, "0"));
  return whole * MICROS_PER_UNIT + fraction;
}

/** The amount as a plain decimal for an input's value ("12.50"). */
export function moneyInputValue(micros: number): string {
  return (micros / MICROS_PER_UNIT).toFixed(micros % 10_000 === 0 ? 2 : 6);
}
