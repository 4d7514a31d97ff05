import { OPERATIONS } from "../../accounts/accounts.js";
import type { Operation } from "../../accounts/accounts.js";
import { formatShortDay } from "./format.js";
import { html } from "./html.js";
import type { Html } from "./html.js";
import { OPERATION_LABELS } from "./operations.js";

/**
 * The usage chart: stacked bars per day and operation, drawn on the server as inline SVG (no
 * script, no chart library, a few kilobytes however slow the connection). Each bar segment has
 * a <title> (a tooltip, read by screen readers); the table under the chart holds the same data.
 */
export interface ChartDay {
  day: string;
  values: Record<Operation, number>;
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 56, right: 8, top: 12, bottom: 28 };

/** A round axis maximum at or above `max` (1, 2 or 5 times a power of ten). */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

function gridLines(top: number, format: (value: number) => string): Html[] {
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  return [0, 0.25, 0.5, 0.75, 1].map((fraction) => {
    const y = PAD.top + plotHeight * (1 - fraction);
    return html`<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}" /><text
        class="axis"
        x="${PAD.left - 6}"
        y="${y + 4}"
        text-anchor="end"
        >${format(top * fraction)}</text
      >`;
  });
}

function bars(days: ChartDay[], top: number, format: (value: number) => string): Html[] {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const labelEvery = Math.ceil(days.length / 8);
  return days.map((day, index) => {
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    let base = HEIGHT - PAD.bottom;
    const segments = OPERATIONS.map((operation) => {
      const value = day.values[operation];
      if (value <= 0) return "";
      const height = (value / top) * plotHeight;
      base -= height;
      return html`<rect
        class="op-${operation}"
        x="${x.toFixed(1)}"
        y="${base.toFixed(1)}"
        width="${barWidth.toFixed(1)}"
        height="${height.toFixed(1)}"
        ><title>${formatShortDay(day.day)}: ${OPERATION_LABELS[operation]} ${format(value)}</title></rect
      >`;
    });
    const label =
      index % labelEvery === 0
        ? html`<text class="axis" x="${(x + barWidth / 2).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle"
            >${formatShortDay(day.day)}</text
          >`
        : "";
    return html`<g>${segments}${label}</g>`;
  });
}

/** `counts`: the values are whole requests, so the axis never shows fractions. */
export function usageChart(
  days: ChartDay[],
  caption: string,
  format: (value: number) => string,
  counts = false,
): Html {
  const max = Math.max(0, ...days.map((day) => OPERATIONS.reduce((sum, op) => sum + day.values[op], 0)));
  // Four gridlines at round steps; whole steps for counts.
  const step = niceCeiling(max / 4);
  const top = 4 * (counts ? Math.max(1, Math.ceil(step)) : step);
  const legend = OPERATIONS.map(
    (operation) =>
      html`<li>
        <span class="swatch op-${operation}" aria-hidden="true"></span>${OPERATION_LABELS[operation]}
      </li>`,
  );
  return html`<figure class="chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-caption">
      ${gridLines(top, format)}${bars(days, top, format)}
    </svg>
    <figcaption id="chart-caption">${caption}</figcaption>
    <ul class="legend">
      ${legend}
    </ul>
  </figure>`;
}
