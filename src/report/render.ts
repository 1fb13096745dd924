import { shown } from '../util/escape.js';
import { reportMsg } from './messages.js';
import { mdHtml, printable } from './escape.js';
import type { OriginFigures } from './figures.js';
import type { Report, TierFigures } from './model.js';

export type ReportFormat = 'table' | 'markdown';

/** The tier table's columns, named as in the JSON. */
export const TIER_COLUMNS = ['tier', 'runs', 'caught', 'errors', 'passes', 'median_s', 'total_s', 'yield', 'error_rate'] as const;

/** A figure as text: the JSON's number unchanged, `-` for null. */
export const cell = (v: string | number | null): string => (v === null ? '-' : shown(String(v)));

/** One period of one tier in the trend: `caught/runs yield`. */
export const trendCell = (caught: number, runs: number, y: number | null): string => (runs === 0 ? '-' : `${caught}/${runs} ${cell(y)}`);

/** The headings every format shows, in order (the HTML report uses the same, as section titles). */
export const SECTIONS = {
  tiers: 'tiers (ladder order; yield = caught per second)',
  retired: 'retired tiers',
  trend: 'over time',
  cost: 'seconds against catches',
  scope: 't0-scope (routes, never catches)',
  overlap: 'calibration overlap',
  order: 'order',
  seeds: 'seeded bugs per tier',
  tests: 'tests: flaky, broken and frozen (flips count only between runs of the same code)',
  advice: 'advice',
} as const;

/** The report as aligned text for a terminal, or as markdown (also for a CI summary). Same figures as the JSON. Pure. */
export function renderReport(r: Report, format: ReportFormat, ledger?: string): string {
  const md = format === 'markdown';
  const out: string[] = [];
  const heading = (text: string) => out.push('', md ? `## ${mdHtml(text)}` : `${text}:`);
  const item = (text: string) => out.push(md ? `- ${mdHtml(text)}` : `  ${printable(text)}`);
  const table = (head: string[], rows: string[][]) => out.push(...(md ? markdownTable(head, rows) : textTable(head, rows)));
  const tierRows = (tiers: TierFigures[]) => tiers.map((t) => TIER_COLUMNS.map((c) => printable(cell(t[c]))));

  out.push(md ? '# gate-ladder report' : 'gate-ladder report');
  item(reportMsg.summary(r, ledger));
  item(reportMsg.rate(r.rate));
  item(reportMsg.excluded(r.excluded, r.overlap.counted_rows));
  if (r.errors.patch + r.errors.harness > 0) item(reportMsg.errorCauses(r.errors));

  heading(SECTIONS.tiers);
  table([...TIER_COLUMNS], tierRows(r.tiers));

  if (r.retired.length > 0) {
    heading(SECTIONS.retired);
    item(reportMsg.retired(r.retired.map((t) => t.tier)));
    table([...TIER_COLUMNS], tierRows(r.retired));
  }

  heading(`${SECTIONS.trend} (per ${r.trend.unit}: caught/runs yield)`);
  if (r.trend.periods.length === 0 || r.trend.tiers.length === 0) item('no dated rows');
  else {
    const head = [r.trend.unit, ...r.trend.tiers.map((t) => printable(t.tier))];
    table(
      head,
      r.trend.periods.map((p, i) => [p, ...r.trend.tiers.map((t) => trendCell(t.caught[i]!, t.runs[i]!, t.yield[i]!))]),
    );
    if (r.trend.dropped > 0) item(`${r.trend.dropped} older ${r.trend.unit}s left out`);
  }

  heading(SECTIONS.cost);
  const ran = r.tiers.filter((t) => t.runs > 0);
  if (ran.length === 0) item('no runs');
  for (const t of ran) item(`${t.tier}: ${t.total_s} s for ${t.caught} caught (yield ${cell(t.yield)} per second)`);

  heading(SECTIONS.scope);
  if (r.scope.past.length === 0) item(reportMsg.noRoutes());
  for (const p of r.scope.past) item(reportMsg.routedPast(p));
  if (r.scope.past.length > 0) item(reportMsg.routedTotal(r.scope));

  heading(reportMsg.overlapHeading(r.overlap.runs));
  if (r.overlap.pairs.length === 0) item(reportMsg.noCalibration());
  for (const p of r.overlap.pairs) item(reportMsg.pair(p));

  heading(SECTIONS.order);
  const o = r.order;
  item(reportMsg.orderLine('current', o.current, o.current_s));
  item(reportMsg.orderLine('recommended', o.recommended, o.recommended_s));
  item(reportMsg.orderMethod(o));

  heading(SECTIONS.seeds);
  if (r.seeds.runs === 0) item(reportMsg.noSeeds());
  else {
    item(reportMsg.seedsLine(r.seeds));
    for (const t of r.seeds.tiers) item(reportMsg.seedTier(t));
  }

  // Flaky and frozen tests: in text and markdown, the tests section (report/tests-section.ts) follows.

  heading(SECTIONS.advice);
  if (r.advice.length === 0) item('none');
  for (const a of r.advice) item(`${a.kind}: ${a.text}`);
  return `${out.join('\n')}\n`;
}

/** `report --by-origin`: each origin's rows and tier figures, so one origin's share is visible. Pure. */
export function renderByOrigin(list: readonly OriginFigures[], format: ReportFormat): string {
  const md = format === 'markdown';
  const head = ['origin', ...TIER_COLUMNS];
  const rows: string[][] = [];
  for (const o of list) {
    if (o.tiers.length === 0)
      rows.push([printable(shown(o.origin)), ...TIER_COLUMNS.map((c) => (c === 'tier' ? '-' : c === 'runs' ? '0' : '-'))]);
    for (const t of o.tiers) rows.push([printable(shown(o.origin)), ...TIER_COLUMNS.map((c) => printable(cell(t[c])))]);
  }
  const notes = list.map(
    (o) => `${shown(o.origin)}: ${o.rows} row${o.rows === 1 ? '' : 's'}${o.refused > 0 ? `, ${o.refused} refused by the last sync` : ''}`,
  );
  const out = [
    '',
    md ? '## by origin' : 'by origin:',
    ...notes.map((n) => (md ? `- ${mdHtml(n)}` : `  ${printable(n)}`)),
    ...(md ? markdownTable(head, rows) : textTable(head, rows)),
  ];
  return `${out.join('\n')}\n`;
}

function textTable(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}

function markdownTable(head: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map((c) => mdHtml(c).replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head), `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(line)];
}
