/**
 * Small SVG charts for the HTML report: pure functions from figures to SVG text. Colours come from CSS classes
 * (`c0`…`c5`, set per light and dark mode by the page), every text is escaped, nothing is fetched.
 */
import { esc } from './escape.js';

export interface Series {
  name: string;
  values: readonly (number | null)[];
}

const W = 900;
const PAD = { left: 52, right: 16, top: 28, bottom: 34 };

/** A round number at or above `x` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten), for an axis. */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x * (1 - 1e-12)) return Number((m * p).toPrecision(2));
  return 10 * p;
}

/** An axis label: at most three significant digits, no trailing zeros. */
export const tick = (x: number): string => (x === 0 ? '0' : String(Number(x.toPrecision(3))));

const color = (i: number) => `c${i % 6}`;

function frame(height: number, label: string, body: string[]): string {
  return `<svg class="chart" viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">${body.join('')}</svg>`;
}

function yAxis(height: number, max: number, title: string): string[] {
  const bottom = height - PAD.bottom;
  const out: string[] = [];
  for (const f of [0, 0.5, 1]) {
    const y = bottom - f * (bottom - PAD.top);
    out.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"/>`);
    out.push(`<text class="tick" x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${esc(tick(max * f))}</text>`);
  }
  out.push(`<text class="axis" x="${PAD.left}" y="${PAD.top - 12}">${esc(title)}</text>`);
  return out;
}

function legend(names: readonly string[], height: number): string[] {
  let x = PAD.left;
  return names.map((n, i) => {
    const g = `<g class="${color(i)}"><rect x="${x}" y="${height - 12}" width="10" height="10"/><text class="tick" x="${x + 14}" y="${height - 3}">${esc(n)}</text></g>`;
    x += 24 + Math.min(n.length, 24) * 7;
    return g;
  });
}

/** Lines over periods (one per series), a gap where a value is null; each point has its value as a tooltip. */
export function lineChart(labels: readonly string[], series: readonly Series[], title: string, height = 220): string {
  const max = niceCeil(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const bottom = height - PAD.bottom - 16;
  const x = (i: number) => PAD.left + (labels.length <= 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (labels.length - 1));
  const y = (v: number) => bottom - (v / max) * (bottom - PAD.top);
  const body = yAxis(height - 16, max, title);
  const shown = new Set([0, labels.length >> 1, labels.length - 1]);
  labels.forEach((l, i) => {
    const anchor = i === 0 ? 'start' : i === labels.length - 1 ? 'end' : 'middle';
    if (shown.has(i)) body.push(`<text class="tick" x="${x(i)}" y="${bottom + 16}" text-anchor="${anchor}">${esc(l)}</text>`);
  });
  series.forEach((s, k) => {
    let d = '';
    let pen = 'M';
    const dots: string[] = [];
    s.values.forEach((v, i) => {
      if (v === null) {
        pen = 'M';
        return;
      }
      d += `${pen}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = 'L';
      dots.push(
        `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"><title>${esc(`${s.name} ${labels[i]}: ${v}`)}</title></circle>`,
      );
    });
    body.push(`<g class="${color(k)}" data-series="${esc(s.name)}"><path class="line" d="${d}"/>${dots.join('')}</g>`);
  });
  body.push(
    ...legend(
      series.map((s) => s.name),
      height,
    ),
  );
  return frame(height, title, body);
}

export interface Point {
  name: string;
  x: number;
  y: number;
}

/** One labelled dot per point: for each tier, its seconds (x) against its catches (y). */
export function scatterChart(points: readonly Point[], xTitle: string, yTitle: string, height = 260): string {
  const maxX = niceCeil(Math.max(0, ...points.map((p) => p.x)));
  const maxY = niceCeil(Math.max(0, ...points.map((p) => p.y)));
  const bottom = height - PAD.bottom;
  const x = (v: number) => PAD.left + (v / maxX) * (W - PAD.left - PAD.right - 90);
  const y = (v: number) => bottom - (v / maxY) * (bottom - PAD.top);
  const body = yAxis(height, maxY, yTitle);
  for (const f of [0, 0.5, 1])
    body.push(
      `<text class="tick" x="${x(maxX * f)}" y="${bottom + 16}" text-anchor="${f === 0 ? 'start' : 'middle'}">${esc(tick(maxX * f))}</text>`,
    );
  body.push(`<text class="axis" x="${W - PAD.right}" y="${height - 4}" text-anchor="end">${esc(xTitle)}</text>`);
  points.forEach((p, i) => {
    body.push(
      `<g class="${color(i)}" data-tier="${esc(p.name)}" data-x="${p.x}" data-y="${p.y}"><circle cx="${x(p.x).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="6"><title>${esc(`${p.name}: ${p.x} s, ${p.y} caught`)}</title></circle>` +
        `<text class="label" x="${(x(p.x) + 10).toFixed(1)}" y="${(y(p.y) + 4).toFixed(1)}">${esc(p.name)}</text></g>`,
    );
  });
  return frame(height, `${yTitle} against ${xTitle}`, body);
}

export interface Bar {
  name: string;
  value: number;
  /** Shown after the bar instead of the value. */
  text?: string;
}

/** Horizontal bars, one a row, scaled to the largest. */
export function barChart(bars: readonly Bar[], title: string): string {
  const row = 26;
  const height = PAD.top + bars.length * row + 8;
  const max = niceCeil(Math.max(0, ...bars.map((b) => b.value)));
  const left = 160;
  const width = W - left - 240;
  const body = [`<text class="axis" x="${PAD.left}" y="${PAD.top - 12}">${esc(title)}</text>`];
  bars.forEach((b, i) => {
    const y = PAD.top + i * row;
    const w = Math.max(1, (b.value / max) * width);
    body.push(
      `<g class="${color(i)}" data-bar="${esc(b.name)}"><text class="tick" x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(b.name)}</text>` +
        `<rect x="${left}" y="${y + 3}" width="${w.toFixed(1)}" height="16" rx="2"/><text class="tick" x="${(left + w + 6).toFixed(1)}" y="${y + 15}">${esc(b.text ?? tick(b.value))}</text></g>`,
    );
  });
  return frame(height, title, body);
}
