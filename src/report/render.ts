import { shown } from '../util/escape.js';
import { reportMsg } from '../util/messages.js';
import type { Report } from '../types.js';

export type ReportFormat = 'table' | 'markdown';

/** The tier table's columns, named as in the JSON. */
export const TIER_COLUMNS = ['tier', 'runs', 'caught', 'errors', 'passes', 'median_s', 'total_s', 'yield', 'error_rate'] as const;

/** A figure as text: the JSON's number unchanged, `-` for null. */
export const cell = (v: string | number | null): string => (v === null ? '-' : shown(String(v)));

/** The report as aligned text for a terminal, or as markdown. Same figures as the JSON. Pure. */
export function renderReport(r: Report, format: ReportFormat, ledger?: string): string {
  const md = format === 'markdown';
  const rows = r.tiers.map((t) => TIER_COLUMNS.map((c) => cell(t[c])));
  const out: string[] = [];
  const heading = (text: string) => out.push('', md ? `## ${text}` : `${text}:`);
  const item = (text: string) => out.push(md ? `- ${text}` : `  ${text}`);

  out.push(md ? '# gate-ladder report' : 'gate-ladder report');
  item(reportMsg.summary(r, ledger));
  item(reportMsg.excluded(r.excluded));

  heading('tiers (ladder order; yield = caught per second)');
  out.push(...(md ? markdownTable([...TIER_COLUMNS], rows) : textTable([...TIER_COLUMNS], rows)));

  heading('t0-scope (routes, never catches)');
  if (r.scope.past.length === 0) item(reportMsg.noRoutes());
  for (const p of r.scope.past) item(reportMsg.routedPast(p));
  if (r.scope.past.length > 0) item(reportMsg.routedTotal(r.scope));

  heading(reportMsg.overlapHeading(r.overlap.runs));
  if (r.overlap.pairs.length === 0) item(reportMsg.noCalibration());
  for (const p of r.overlap.pairs) item(reportMsg.pair(p));

  heading('advice');
  if (r.advice.length === 0) item('none');
  for (const a of r.advice) item(`${a.kind}: ${a.text}`);
  return `${out.join('\n')}\n`;
}

function textTable(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}

function markdownTable(head: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head), `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(line)];
}
