import { html } from "./html.js";
import type { Html, HtmlValue } from "./html.js";

/**
 * The portal's tables: one shell for all (scrolling box on narrow screens, caption, header cells
 * with `scope`, numbers right-aligned, a message when there are no rows). Rows are the pages'.
 */
export interface Column {
  label: HtmlValue;
  numeric?: boolean;
}

export interface TableSpec {
  columns: Column[];
  rows: Html[];
  caption?: string;
  className?: string;
  /** Shown in one cell across the table when `rows` is empty. */
  empty?: HtmlValue;
}

export function dataTable(spec: TableSpec): Html {
  const head = spec.columns.map(
    (column) => html`<th scope="col" ${column.numeric ? html` class="num"` : ""}>${column.label}</th>`,
  );
  const body =
    spec.rows.length > 0 || spec.empty === undefined
      ? spec.rows
      : html`<tr>
          <td colspan="${spec.columns.length}" class="empty">${spec.empty}</td>
        </tr>`;
  return html`<div class="table-wrap">
    <table${spec.className ? html` class="${spec.className}"` : ""}>
      ${
        spec.caption
          ? html`<caption>
              ${spec.caption}
            </caption>`
          : ""
      }
      <thead><tr>${head}</tr></thead>
      <tbody>${body}</tbody>
    </table>
  </div>`;
}

/** A row headed by its first cell; the other cells are numbers when `numeric`. */
export function tableRow(header: HtmlValue, cells: HtmlValue[], numeric = true): Html {
  return html`<tr>
    <th scope="row">${header}</th>
    ${cells.map((cell) => html`<td${numeric ? html` class="num"` : ""}>${cell}</td>`)}
  </tr>`;
}
