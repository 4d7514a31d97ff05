import type { FastifyInstance } from "fastify";
import { OPERATIONS } from "../../accounts/accounts.js";
import { csvLine } from "../../csv.js";
import type { Operation } from "../../accounts/accounts.js";
import { budgetMeter } from "../view/budget-meter.js";
import { dataTable, tableRow } from "../view/data-table.js";
import { formatCount, formatShortDay } from "../view/format.js";
import { html } from "../view/html.js";
import type { Html } from "../view/html.js";
import { notice } from "../view/layout.js";
import { formatMoney } from "../view/money.js";
import { OPERATION_LABELS } from "../view/operations.js";
import { requireUser, sendPage } from "../portal-context.js";
import type { PortalContext } from "../portal-context.js";
import type { DailyUsage, HourlyUsage } from "../../accounts/team-accounts.js";
import { usageChart } from "../view/usage-chart.js";
import type { ChartDay } from "../view/usage-chart.js";
import { dayRange, presets } from "../view/usage-range.js";
import type { DayRange } from "../view/usage-range.js";

type Metric = "requests" | "spend";
const zero = (): Record<Operation, number> => ({ parse: 0, lookup: 0, lookup_by_id: 0 });

function byDay(range: DayRange, usage: DailyUsage[], metric: Metric): ChartDay[] {
  const days = new Map(range.days.map((day) => [day, zero()]));
  for (const row of usage) {
    const values = days.get(row.day);
    if (values) values[row.operation] += metric === "requests" ? row.requests : row.spendMicros;
  }
  return [...days].map(([day, values]) => ({ day, values }));
}

function totals(usage: DailyUsage[]): Record<Operation, { requests: number; spend: number }> {
  const sums = {
    parse: { requests: 0, spend: 0 },
    lookup: { requests: 0, spend: 0 },
    lookup_by_id: { requests: 0, spend: 0 },
  };
  for (const row of usage) {
    sums[row.operation].requests += row.requests;
    sums[row.operation].spend += row.spendMicros;
  }
  return sums;
}

function rangeForm(range: DayRange, metric: Metric, now: Date): Html {
  const links = presets(now).map(
    (preset) =>
      html`<a href="/portal/usage?from=${preset.from}&amp;to=${preset.to}&amp;metric=${metric}"
        >${preset.label}</a
      >`,
  );
  return html`<form method="get" action="/portal/usage" class="filters">
      <div>
        <label for="from">From</label
        ><input id="from" name="from" type="date" value="${range.from}" required />
      </div>
      <div>
        <label for="to">To</label><input id="to" name="to" type="date" value="${range.to}" required />
      </div>
      <div>
        <label for="metric">Chart</label
        ><select id="metric" name="metric">
          <option value="requests" ${metric === "requests" ? html` selected` : ""}>Requests</option>
          <option value="spend" ${metric === "spend" ? html` selected` : ""}>Spend</option>
        </select>
      </div>
      <div class="actions"><button type="submit" class="primary">Show</button></div>
    </form>
    <p class="presets">${links}</p>`;
}

function dayTable(days: ChartDay[], spend: ChartDay[], errors: Map<string, number>, currency: string): Html {
  const rows = [...days].reverse().map((day, index) => {
    const money = spend[days.length - 1 - index]?.values ?? zero();
    const total = OPERATIONS.reduce((sum, op) => sum + money[op], 0);
    return tableRow(formatShortDay(day.day), [
      ...OPERATIONS.map((op) => formatCount(day.values[op])),
      formatCount(errors.get(day.day) ?? 0),
      formatMoney(total, currency),
    ]);
  });
  return dataTable({
    caption: "Billed requests per day and operation (newest first), refused requests, and spend",
    columns: [
      { label: "Day" },
      ...OPERATIONS.map((op) => ({ label: OPERATION_LABELS[op], numeric: true })),
      { label: "Errors", numeric: true },
      { label: "Spend", numeric: true },
    ],
    rows,
  });
}

export function registerUsageRoutes(app: FastifyInstance, context: PortalContext): void {
  /** Billed requests and spend per UTC day and operation of the range, as CSV. */
  app.get("/usage.csv", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    if (!session) return reply;
    const range = dayRange(request.query as Record<string, string | undefined>, context.now());
    const usage = await context.accounts.dailyUsage(session.user.teamId, range.from, range.end);
    const lines = [
      csvLine(["day", "operation", "billed_requests", `spend_${context.currency.toLowerCase()}`]),
      ...usage.map((row) =>
        csvLine([row.day, row.operation, String(row.requests), (row.spendMicros / 1_000_000).toFixed(6)]),
      ),
    ];
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="situs-usage-${range.from}-${range.to}.csv"`)
      .send(`${lines.join("\n")}\n`);
  });

  app.get("/usage", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    if (!session) return reply;
    const query = request.query as Record<string, string | undefined>;
    const now = context.now();
    const range = dayRange(query, now);
    const metric: Metric = query.metric === "spend" ? "spend" : "requests";
    const teamId = session.user.teamId;
    const today = now.toISOString().slice(0, 10);
    const [usage, errors, billing, hours] = await Promise.all([
      context.accounts.dailyUsage(teamId, range.from, range.end),
      context.accounts.dailyErrors(teamId, range.from, range.end),
      context.accounts.billing(teamId),
      context.accounts.hourlyUsage(teamId, today),
    ]);
    const sums = totals(usage);
    const money = (micros: number) => formatMoney(micros, context.currency);
    const requestDays = byDay(range, usage, "requests");
    const spendDays = byDay(range, usage, "spend");
    const totalRequests = OPERATIONS.reduce((sum, op) => sum + sums[op].requests, 0);
    const totalSpend = OPERATIONS.reduce((sum, op) => sum + sums[op].spend, 0);
    const caption = `${metric === "requests" ? "Billed requests" : "Spend"} per day by operation, ${formatShortDay(range.from)} to ${formatShortDay(range.to)}`;
    return sendPage(context, reply, 200, {
      title: "Usage",
      session,
      active: "/portal/usage",
      body: html`${range.adjusted ? notice("info", "That range could not be shown; showing the last 30 days instead (ranges are at most 366 days).") : ""}
        ${rangeForm(range, metric, now)}
        <p class="help">
          <a href="/portal/usage.csv?from=${range.from}&amp;to=${range.to}">Download this range as CSV</a>
        </p>
        ${totalRequests === 0 && billing.monthSpendMicros === 0 ? firstCall(`${request.protocol}://${request.host}`) : ""}
        <div class="cards">
          <section class="card stat">
            <h2>Billed requests</h2>
            <p class="figure">${formatCount(totalRequests)}</p>
            <p class="help">in the range shown</p>
          </section>
          <section class="card stat">
            <h2>Spend</h2>
            <p class="figure">${money(totalSpend)}</p>
            <p class="help">in the range shown</p>
          </section>
          <section class="card stat">
            <h2>This month</h2>
            ${budgetMeter(billing, context.currency)}
            <p class="help"><a href="/portal/billing">Budget and billing</a></p>
          </section>
        </div>
        ${
          metric === "requests"
            ? usageChart(requestDays, caption, formatCount, true)
            : usageChart(spendDays, caption, money)
        }
        <section aria-labelledby="ops-title">
          <h2 id="ops-title">By operation</h2>
          ${dataTable({
            columns: [
              { label: "Operation" },
              { label: "Billed requests", numeric: true },
              { label: "Spend", numeric: true },
              { label: "Price each", numeric: true },
            ],
            rows: OPERATIONS.map((op) =>
              tableRow(OPERATION_LABELS[op], [
                formatCount(sums[op].requests),
                money(sums[op].spend),
                money(context.prices[op]),
              ]),
            ),
          })}
        </section>
        <section aria-labelledby="today-title">
          <h2 id="today-title">Today by hour (UTC)</h2>
          ${hourTable(hours, now.getUTCHours(), money)}
        </section>
        <section aria-labelledby="days-title">
          <h2 id="days-title">By day</h2>
          ${dayTable(requestDays, spendDays, errors, context.currency)}
        </section>`,
    });
  });
}

/** Today's hours up to the current one, newest first: billed requests and spend (none: 0). */
function hourTable(
  hours: readonly HourlyUsage[],
  currentHour: number,
  money: (micros: number) => string,
): Html {
  const byHour = new Map(hours.map((hour) => [hour.hour, hour]));
  const rows: Html[] = [];
  for (let hour = currentHour; hour >= 0; hour--) {
    const seen = byHour.get(hour);
    const label = `${String(hour).padStart(2, "0")}:00`;
    rows.push(tableRow(label, [formatCount(seen?.requests ?? 0), money(seen?.spendMicros ?? 0)]));
  }
  return dataTable({
    caption: "Billed requests and spend in each hour of today so far, newest first",
    columns: [
      { label: "Hour" },
      { label: "Billed requests", numeric: true },
      { label: "Spend", numeric: true },
    ],
    rows,
  });
}

/** What a team with no billed request yet sees first: how to make one. */
function firstCall(origin: string): Html {
  const body = `{"line": "1600 Pennsylvania Ave NW, Washington, DC 20500"}`;
  return html`<section class="card first-call">
    <h2>Make a first call</h2>
    <p>
      Create a key on <a href="/portal/keys">API keys</a>, put it in place of <code>YOUR_KEY</code>, and run:
    </p>
    <pre><code>curl -s -X POST ${origin}/v1/verify/parse \\
  -H "Authorization: Bearer YOUR_KEY" -H "Content-Type: application/json" \\
  -d '${body}'</code></pre>
    <p class="help">
      The call shows here within a second. Every operation, with examples, is in
      <a href="/docs">the API reference</a> (<a href="/openapi.json">OpenAPI document</a>).
    </p>
  </section>`;
}
