import { html } from "./html.js";
import type { Html } from "./html.js";
import { formatMoney } from "./money.js";
import type { TeamBilling } from "../../accounts/team-accounts.js";

/**
 * This month's spend against the monthly budget, as text and a bar. At or past the budget the
 * API answers 402 `budget_exceeded` (SPEC.md "All errors"), which the bar says in words too.
 * The bar is SVG, not a styled width: the portal's CSP allows no inline styles.
 */
export function budgetMeter(billing: TeamBilling, currency: string): Html {
  const spend = formatMoney(billing.monthSpendMicros, currency);
  if (billing.budgetMicros === null) {
    return html`<p class="figure">${spend}</p>
      <p class="help">spent this month; no monthly budget set.</p>`;
  }
  const budget = formatMoney(billing.budgetMicros, currency);
  const ratio = billing.budgetMicros === 0 ? 1 : billing.monthSpendMicros / billing.budgetMicros;
  const percent = Math.min(100, Math.round(ratio * 100));
  const state = ratio >= 1 ? "over" : ratio >= 0.8 ? "near" : "ok";
  const warning =
    ratio >= 1
      ? html`<p class="meter-note over" role="status">
          Budget reached: API requests get 402 <code>budget_exceeded</code> until it is raised or cleared, or
          the month ends.
        </p>`
      : "";
  return html`<p class="figure">${spend} <span class="of">of ${budget}</span></p>
    <div
      class="meter ${state}"
      role="meter"
      aria-label="Spend this month against the budget"
      aria-valuemin="0"
      aria-valuemax="100"
      aria-valuenow="${percent}"
      aria-valuetext="${spend} of ${budget} (${percent}%)"
    >
      <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
        <rect width="${percent}" height="10" />
      </svg>
    </div>
    ${warning}`;
}
