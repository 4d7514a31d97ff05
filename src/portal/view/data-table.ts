import { escapeHtml, html, Html } from "./html.js";
import type { HtmlValue } from "./html.js";

/**
 * The portal's tables: one shell for all (caption, header cells with `scope`, numbers
 * right-aligned, a message when there are no rows). Rows are the pages'; each of their cells gets
 * its column's name as `data-label`, so on a phone the stylesheet shows every row of a table of
 * words as a card of labelled values instead of a table wider than the screen; tables of numbers
 * keep their columns and scroll inside their box.
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
  const labels = spec.columns.map((column) => (typeof column.label === "string" ? column.label : ""));
  const body =
    spec.rows.length > 0 || spec.empty === undefined
      ? spec.rows.map((row) => labelledCells(row, labels))
      : html`<tr>
          <td colspan="${spec.columns.length}" class="empty">${spec.empty}</td>
        </tr>`;
  // Tables of words (keys, logs) become cards on a phone; tables of numbers scroll in their box.
  const cards = spec.columns.slice(1).some((column) => column.numeric !== true);
  return html`<div class="table-wrap${cards ? " cards" : ""}">
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

/** `row` with `data-label` on its cells, in column order (cells never nest in the portal's rows). */
function labelledCells(row: Html, labels: readonly string[]): Html {
  let column = 0;
  return new Html(
    row.text.replace(/<(td|th)(?=[\s>])/g, (cell) => {
      const label = labels[column++] ?? "";
      return label === "" ? cell : `${cell} data-label="${escapeHtml(label)}"`;
    }),
  );
}
