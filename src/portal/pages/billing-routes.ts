import type { FastifyInstance, FastifyReply } from "fastify";
import { OPERATIONS } from "../../accounts/accounts.js";
import { budgetMeter } from "../view/budget-meter.js";
import { formatCount, formatMonth } from "../view/format.js";
import { html } from "../view/html.js";
import type { Html } from "../view/html.js";
import { dataTable, tableRow } from "../view/data-table.js";
import { csrfField, notice } from "../view/layout.js";
import { currencySymbol, formatMoney, moneyInputValue, parseMoney } from "../view/money.js";
import { OPERATION_LABELS } from "../view/operations.js";
import { requireForm, requireUser, sendPage } from "../portal-context.js";
import type { PortalContext, SignedInSession } from "../portal-context.js";

const MONTHS_SHOWN = 12;

function budgetForm(
  context: PortalContext,
  session: SignedInSession,
  budget: number | null,
  typed?: string,
): Html {
  const clear =
    budget === null
      ? ""
      : html`<form method="post" action="/portal/billing/budget" class="inline-form">
          ${csrfField(session)}<input type="hidden" name="action" value="clear" />
          <button type="submit" class="secondary">Clear budget</button>
        </form>`;
  return html`<form method="post" action="/portal/billing/budget" class="inline-form">
      ${csrfField(session)}<input type="hidden" name="action" value="set" />
      <label for="budget">Monthly budget (${currencySymbol(context.currency)})</label>
      <input
        id="budget"
        name="budget"
        inputmode="decimal"
        required
        value="${typed ?? (budget === null ? "" : moneyInputValue(budget))}"
        placeholder="e.g. 250.00"
        aria-describedby="budget-help"
      />
      <button type="submit" class="primary">${budget === null ? "Set budget" : "Change budget"}</button>
    </form>
    ${clear}
    <p id="budget-help" class="help">
      Once this calendar month's spend (UTC) reaches the budget, API requests get 402
      <code>budget_exceeded</code> until the budget is raised or cleared, or the month ends. Spend is counted
      a moment after the requests that cause it.
    </p>`;
}

async function renderBilling(
  context: PortalContext,
  reply: FastifyReply,
  session: SignedInSession,
  extra: { status?: number; top?: Html; typed?: string } = {},
): Promise<FastifyReply> {
  const teamId = session.user.teamId;
  const now = context.now();
  const [billing, months] = await Promise.all([
    context.accounts.billing(teamId),
    context.accounts.monthlySpend(teamId, MONTHS_SHOWN, now),
  ]);
  const money = (micros: number) => formatMoney(micros, context.currency);
  const credit = html`<p class="figure${billing.creditMicros <= 0 ? " bad-text" : ""}">
      ${money(billing.creditMicros)}
    </p>
    <p class="help">
      ${billing.creditMicros <= 0 ? html`Used up: API requests get 402 <code>insufficient_credit</code>. Contact support to add credit.` : "Prepaid credit left. Each billed request draws on it."}
    </p>`;
  return sendPage(context, reply, extra.status ?? 200, {
    title: "Billing",
    session,
    active: "/portal/billing",
    body: html`${extra.top ?? ""}
      <div class="cards">
        <section class="card stat">
          <h2>Credit balance</h2>
          ${credit}
        </section>
        <section class="card stat">
          <h2>This month</h2>
          ${budgetMeter(billing, context.currency)}
        </section>
      </div>
      <section class="card" aria-labelledby="budget-title">
        <h2 id="budget-title">Monthly budget</h2>
        ${budgetForm(context, session, billing.budgetMicros, extra.typed)}
      </section>
      <section aria-labelledby="months-title">
        <h2 id="months-title">Spend per month</h2>
        ${dataTable({
          columns: [
            { label: "Month" },
            { label: "Billed requests", numeric: true },
            { label: "Spend", numeric: true },
          ],
          rows: months.map((month) =>
            tableRow(formatMonth(month.month), [formatCount(month.requests), money(month.spendMicros)]),
          ),
        })}
      </section>
      <section aria-labelledby="prices-title">
        <h2 id="prices-title">Prices</h2>
        ${dataTable({
          columns: [{ label: "Operation" }, { label: "Per billed request", numeric: true }],
          rows: OPERATIONS.map((op) => tableRow(OPERATION_LABELS[op], [money(context.prices[op])])),
        })}
        <p class="help">Only answers with status 200 are billed; errors never are.</p>
      </section>`,
  });
}

export function registerBillingRoutes(app: FastifyInstance, context: PortalContext): void {
  app.get("/billing", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    if (!session) return reply;
    const query = request.query as Record<string, string | undefined>;
    const messages: Record<string, string> = { set: "Budget saved.", cleared: "Budget cleared." };
    const saved = messages[query.saved ?? ""];
    return renderBilling(context, reply, session, saved ? { top: notice("success", saved) } : {});
  });

  app.post("/billing/budget", async (request, reply) => {
    const posted = await requireForm(context, request, reply);
    if (!posted) return reply;
    const teamId = posted.session.user.teamId;
    if (posted.form.get("action") === "clear") {
      await context.accounts.setBudget(teamId, null);
      return reply.redirect("/portal/billing?saved=cleared", 303);
    }
    const typed = posted.form.get("budget") ?? "";
    const micros = parseMoney(typed);
    if (micros === null) {
      const top = notice("error", "Enter the budget as an amount such as 250 or 250.00.");
      return renderBilling(context, reply, posted.session, { status: 422, top, typed });
    }
    await context.accounts.setBudget(teamId, micros);
    return reply.redirect("/portal/billing?saved=set", 303);
  });
}
