/**
 * `gate-ladder ci`'s markdown: the verdicts of this job and the ledger's figures per tier, for a
 * GitHub step summary (or any file `--summary` names). Everything from outside (tier names, refs,
 * reasons, test names, messages) goes through `mdText`. Pure.
 */
import { mdText, printable } from './escape.js';
import type { GateResult } from '../gates/result.js';
import type { TestFailure } from '../evidence/junit.js';
import type { TierFigures } from './model.js';
import type { Verdict } from '../ledger/row.js';

/** One judged target, as `run` reports it (the fields the summary reads). */
export interface SummaryTarget {
  ref: string;
  head: string;
  base: string;
  files: number;
  plan: { tier: string; run: boolean; reason?: string }[];
  verdict?: Verdict;
  results?: readonly GateResult[];
  skipped?: string;
}

export interface SummaryInput {
  exit: number;
  /** How the range was chosen (ciMsg.how*). */
  how: string;
  targets: readonly SummaryTarget[];
  /** The ledger's figures per tier (after this job's rows); empty when it could not be read. */
  figures: readonly TierFigures[];
  /** Failed tests listed at most. */
  maxFailures?: number;
}

const HEADLINE: Record<number, string> = {
  0: 'passed',
  1: 'check failed: a tier caught a problem (exit 1)',
  2: 'check failed: no verdict, the check itself did not complete (exit 2)',
  130: 'interrupted (exit 130)',
};

const short = (sha: string) => (/^[0-9a-f]{40,64}$/.test(sha) ? sha.slice(0, 12) : sha);
// A code span shows `<` as itself; a backtick or a line break would end it, so neither gets in.
const code = (s: string) => `\`${printable(s).replace(/`/g, "'")}\``;
const seconds = (s: number) => s.toFixed(1);
const fig = (v: number | null) => (v === null ? '-' : String(v));

/** The step summary: headline, range, tiers table, failed tests, ledger figures. Pure. */
export function ciSummary(input: SummaryInput): string {
  const out: string[] = [`## gate-ladder: ${HEADLINE[input.exit] ?? `exit ${input.exit}`}`, ''];
  out.push(`${mdText(input.how)}.`, '');
  const max = input.maxFailures ?? 50;
  for (const t of input.targets) {
    if (t.skipped !== undefined) {
      out.push(`${mdText(t.ref)}: ${mdText(t.skipped)}.`, '');
      continue;
    }
    out.push(
      `${mdText(t.ref)} at ${code(short(t.head))} against ${code(short(t.base))}: ${t.files} changed path${t.files === 1 ? '' : 's'}.`,
      '',
    );
    if (t.plan.length === 0) continue;
    out.push('| tier | verdict | seconds | caught / error reason |', '| --- | --- | ---: | --- |');
    const results = new Map((t.results ?? []).map((r) => [r.tier, r]));
    for (const p of t.plan) {
      const r = results.get(p.tier);
      if (r) out.push(row([mdText(r.tier), r.verdict === 'pass' ? 'pass' : `**${r.verdict}**`, seconds(r.seconds), why(r)]));
      else
        out.push(
          row([mdText(p.tier), 'not run', '', p.run ? 'not reached: an earlier tier stopped the ladder' : mdText(p.reason ?? 'skipped')]),
        );
    }
    out.push('');
    const failures = (t.results ?? []).flatMap((r) => (r.failures ?? []).map((f) => ({ tier: r.tier, f })));
    if (failures.length > 0) {
      out.push('**Failed tests**', '');
      for (const { tier, f } of failures.slice(0, max)) out.push(`- ${failureLine(tier, f)}`);
      if (failures.length > max) out.push(`- … and ${failures.length - max} more (the job's log lists them)`);
      out.push('');
    }
  }
  if (input.figures.length > 0) {
    out.push(
      '### Ledger figures per tier',
      '',
      '| tier | runs | caught | errors | median s | total s | yield (caught/s) | error rate |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const f of input.figures)
      out.push(
        row([
          mdText(f.tier),
          String(f.runs),
          String(f.caught),
          String(f.errors),
          fig(f.median_s),
          String(f.total_s),
          fig(f.yield),
          fig(f.error_rate),
        ]),
      );
    out.push('', 'Calibration, cached and seeded rows are not counted; `gate-ladder report` has the rest.', '');
  }
  return `${out.join('\n')}\n`;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

/** The reason column: an error's reason, a catch's failed tests or reason. */
function why(r: GateResult): string {
  if (r.verdict === 'pass') return r.reason ? mdText(r.reason) : '';
  // The failed tests a report lists, else those the runner's output names (with how many failed in all).
  const ids = r.failed && r.failed.length > 0 ? r.failed : (r.failures ?? []).map((f) => f.id);
  if (r.verdict === 'caught' && ids.length > 0) {
    const n = r.failed && r.failed.length > 0 ? ids.length : Math.max(ids.length, r.failuresTotal ?? 0);
    const names = ids.slice(0, 3).map(mdText).join(', ');
    return `${n} failed test${n === 1 ? '' : 's'}: ${names}${n > 3 ? ', …' : ''}`;
  }
  return mdText(r.reason ?? (r.verdict === 'caught' ? `exit ${r.exitCode}` : 'harness error'));
}

function failureLine(tier: string, f: TestFailure): string {
  const where = f.file ? `${code(f.line !== undefined ? `${f.file}:${f.line}` : f.file)} ` : '';
  const message = f.message.split('\n')[0]!.slice(0, 300);
  return `${where}${mdText(f.title)} (${mdText(tier)}): ${mdText(message)}`;
}
