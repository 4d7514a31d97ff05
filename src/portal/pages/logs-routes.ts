import type { FastifyInstance } from "fastify";
import { OPERATIONS } from "../../accounts/accounts.js";
import { csvLine } from "../../csv.js";
import { ERROR_STATUS } from "../../errors.js";
import { dataTable } from "../view/data-table.js";
import { formatTime } from "../view/format.js";
import { html } from "../view/html.js";
import type { Html, HtmlValue } from "../view/html.js";
import { notice } from "../view/layout.js";
import { encodeCursor, filterParams, PAGE_SIZE, readLogQuery, toFilter } from "../view/logs-filter.js";
import type { LogQuery } from "../view/logs-filter.js";
import { OPERATION_LABELS, operationOfPath } from "../view/operations.js";
import { requireUser, sendPage } from "../portal-context.js";
import type { PortalContext } from "../portal-context.js";
import type { LogRow } from "../../accounts/team-accounts.js";

const STATUSES: ReadonlyArray<readonly [string, string]> = [
  ["2xx", "Success (2xx)"],
  ["4xx", "Refused (4xx)"],
  ["5xx", "Failed (5xx)"],
  ...[200, 400, 401, 402, 403, 404, 413, 422, 429, 500, 503].map(
    (code) => [String(code), String(code)] as const,
  ),
];

function options(choices: ReadonlyArray<readonly [string, string]>, selected: string, any: string): Html[] {
  return [
    html`<option value="">${any}</option>`,
    ...choices.map(
      ([value, label]) =>
        html`<option value="${value}" ${value === selected ? html` selected` : ""}>${label}</option>`,
    ),
  ];
}

function filterForm(query: LogQuery): Html {
  const errors = Object.keys(ERROR_STATUS).map((code) => [code, code] as const);
  const operations = OPERATIONS.map((op) => [op, OPERATION_LABELS[op]] as const);
  return html`<form
    method="get"
    action="/portal/logs"
    class="filters"
    role="search"
    aria-label="Filter request logs"
  >
    <div>
      <label for="status">Status</label
      ><select id="status" name="status">
        ${options(STATUSES, query.status, "Any status")}
      </select>
    </div>
    <div>
      <label for="error">Error code</label
      ><select id="error" name="error">
        ${options(errors, query.error, "Any error code")}
      </select>
    </div>
    <div>
      <label for="operation">Operation</label
      ><select id="operation" name="operation">
        ${options(operations, query.operation, "Any operation")}
      </select>
    </div>
    <div>
      <label for="from">From (UTC)</label
      ><input id="from" name="from" type="datetime-local" value="${query.from}" />
    </div>
    <div>
      <label for="to">Before (UTC)</label
      ><input id="to" name="to" type="datetime-local" value="${query.to}" />
    </div>
    <div class="wide">
      <label for="request_id">Request ID</label
      ><input
        id="request_id"
        name="request_id"
        value="${query.request_id}"
        placeholder="req_…"
        spellcheck="false"
        autocomplete="off"
      />
    </div>
    <div class="actions">
      <button type="submit" class="primary">Apply</button> <a href="/portal/logs" class="button">Reset</a>
    </div>
  </form>`;
}

function logRow(row: LogRow): Html {
  const operation = operationOfPath(row.path);
  const kind = row.status === 200 ? "ok" : row.status >= 500 ? "bad" : "warn";
  return html`<tr>
    <td class="nowrap">${formatTime(row.at)}</td>
    <td>${operation ? OPERATION_LABELS[operation] : html`<code>${row.method} ${row.path}</code>`}</td>
    <td><span class="badge ${kind}">${row.status}</span></td>
    <td>${row.errorCode ? html`<code>${row.errorCode}</code>` : html`<span class="muted">–</span>`}</td>
    <td class="num">${row.latencyMs.toFixed(1)} ms</td>
    <td>
      <a href="/portal/logs?request_id=${row.requestId}"><code class="id">${row.requestId}</code></a>
    </td>
  </tr>`;
}

/** One request's whole log entry (a request ID's page): every field, never a key. */
function requestDetails(row: LogRow): Html {
  const operation = operationOfPath(row.path);
  const fields: Array<[string, HtmlValue]> = [
    ["Request ID", html`<code>${row.requestId}</code>`],
    ["Time (UTC)", formatTime(row.at)],
    ["Operation", operation ? OPERATION_LABELS[operation] : "—"],
    ["Method and path", html`<code>${row.method} ${row.path}</code>`],
    ["Status", String(row.status)],
    ["Error code", row.errorCode ? html`<code>${row.errorCode}</code>` : "—"],
    ["Latency", `${row.latencyMs.toFixed(1)} ms`],
    ["Key", html`<code>${row.keyId}</code>`],
    ["Billed", row.status === 200 && operation ? "yes (every 200 of the API is billed once)" : "no"],
  ];
  return html`<section class="card request-details">
    <h2>Request details</h2>
    <dl>
      ${fields.map(
        ([name, value]) =>
          html`<dt>${name}</dt>
            <dd>${value}</dd>`,
      )}
    </dl>
  </section>`;
}

function pager(query: LogQuery, rows: LogRow[], more: boolean, paging: "before" | "after" | null): Html {
  const params = filterParams(query);
  const link = (name: "before" | "after", row: LogRow | undefined, label: string) => {
    if (!row) return "";
    const next = new URLSearchParams(params);
    next.set(name, encodeCursor(row));
    return html`<a class="button" href="/portal/logs?${next.toString()}">${label}</a>`;
  };
  // Newer rows exist when this page was reached by paging back, or paging forward found more.
  const hasNewer = paging === "before" || (paging === "after" && more);
  const hasOlder = paging === "after" || more;
  return html`<nav class="pager" aria-label="Pages">
    ${hasNewer ? html`<a class="button" href="/portal/logs?${params.toString()}">Newest</a>` : ""}
    ${hasNewer ? link("after", rows[0], "← Newer") : ""}
    ${hasOlder ? link("before", rows[rows.length - 1], "Older →") : ""}
  </nav>`;
}

export function registerLogRoutes(app: FastifyInstance, context: PortalContext): void {
  app.get("/logs", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    if (!session) return reply;
    const raw = request.query as Record<string, string | undefined>;
    const query = readLogQuery(raw);
    const filter = toFilter(query, raw);
    const found = await context.accounts.requestLogs(session.user.teamId, filter);
    const more = found.length > PAGE_SIZE;
    const rows = filter.after ? found.slice(-PAGE_SIZE) : found.slice(0, PAGE_SIZE);
    const paging = filter.before ? "before" : filter.after ? "after" : null;
    const empty = query.request_id
      ? "No request of this team has that ID (logs are kept for a limited time)."
      : "No requests match these filters.";
    return sendPage(context, reply, 200, {
      title: "Request logs",
      session,
      active: "/portal/logs",
      body: html`${filterForm(query)}
        ${query.request_id ? notice("info", html`Showing the request <code>${query.request_id}</code>.`) : ""}
        ${query.request_id && rows.length === 1 ? requestDetails(rows[0]!) : ""}
        ${dataTable({
          className: "logs",
          caption: `Requests made with this team's keys, newest first, ${PAGE_SIZE} a page`,
          columns: [
            { label: "Time (UTC)" },
            { label: "Operation" },
            { label: "Status" },
            { label: "Error code" },
            { label: "Latency", numeric: true },
            { label: "Request ID" },
          ],
          rows: rows.map(logRow),
          empty,
        })}
        ${pager(query, rows, more, paging)}
        <p class="help">
          <a href="/portal/logs.csv?${filterParams(query).toString()}">Download these requests as CSV</a> (up
          to ${EXPORT_ROWS.toLocaleString("en-US")}, newest first)
        </p>`,
    });
  });

  /** The requests the filters select, newest first, as CSV (the page's filters, no paging). */
  app.get("/logs.csv", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    if (!session) return reply;
    const raw = request.query as Record<string, string | undefined>;
    const { before: _before, after: _after, ...filter } = toFilter(readLogQuery(raw), raw);
    const rows = await context.accounts.requestLogs(session.user.teamId, { ...filter, limit: EXPORT_ROWS });
    const lines = [
      csvLine(["at", "request_id", "operation", "method", "path", "status", "error_code", "latency_ms"]),
      ...rows.map((row) =>
        csvLine([
          row.at.toISOString(),
          row.requestId,
          operationOfPath(row.path) ?? "",
          row.method,
          row.path,
          String(row.status),
          row.errorCode ?? "",
          row.latencyMs.toFixed(1),
        ]),
      ),
    ];
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="situs-request-logs.csv"')
      .send(`${lines.join("\n")}\n`);
  });
}

/** The most requests one CSV export holds. */
const EXPORT_ROWS = 10_000;
