/**
 * The report's section on tests (pure), the one model every format prints (text, markdown, JSON and
 * HTML): per tier, passes a freeze granted and passes on retry counted apart from plain passes, the
 * flaky tests (outcome changed on the same code) each judged by the freeze predicate, the broken ones
 * (failed every run), and the freezes with their expiry and re-entry condition. Kept apart from
 * figures.ts: it reads the per-test history and the freezes file as well as the ledger rows.
 */
import { fixed3, freezeEligible, isActive, lastFrozenDay, type Freeze } from '../evidence/freeze.js';
import type { HistoryState } from '../evidence/history.js';
import type { FreezePolicy, HookName } from '../types.js';
import { shown } from '../util/escape.js';
import { mdHtml } from './escape.js';
import type { FoldRow } from './figures.js';

/** A test whose outcome changed between runs of the same code, and what the freeze predicate says of it. */
export interface FlakyTest {
  id: string;
  runs: number;
  fails: number;
  flips: number;
  same_code_runs: number;
  /** flips ÷ same-code runs, to three decimals (the predicate's own figure). */
  flip_rate: number;
  /** Seeded bugs and killed mutants it caught: sensitivity evidence. */
  evidence: number;
  /** The predicate's verdict: may be frozen (`gate-ladder flaky freeze`), and why or why not. */
  eligible: boolean;
  reason: string;
}

export interface TierTests {
  tier: string;
  /** Ladder pass rows (as in the tier table), split: plain, granted by a freeze, passed on a retry. */
  passes: number;
  plain_passes: number;
  frozen_passes: number;
  retried_passes: number;
  /** Tests with run history in this tier. */
  tests: number;
  /** Tests whose outcome changed between runs of the same code: those that may be frozen first, then most flips (at most `max`). */
  flaky: FlakyTest[];
  flaky_count: number;
  /** How many of the flaky tests the predicate lets freeze. */
  eligible_count: number;
  /** Tests that failed every one of at least `minRuns` runs (never flaky: broken). */
  broken: { id: string; runs: number }[];
  broken_count: number;
}

export interface TestsSection {
  tiers: TierTests[];
  freezes: (Freeze & { active: boolean; frozen_through: string; counts_again_from: string })[];
  /** The UTC day freezes were judged against. */
  today: string;
}

interface Counts {
  passes: number;
  frozen: number;
  retried: number;
}

export interface TestsFoldOptions {
  since?: Date;
  hook?: HookName;
}

const byFlakiness = (a: FlakyTest, b: FlakyTest): number =>
  Number(b.eligible) - Number(a.eligible) || b.flips - a.flips || b.flip_rate - a.flip_rate || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Counts pass rows the way the tier table does (no seed, calibration, cached, unapplied or filtered rows), split by what granted them. */
export function testsFold(opts: TestsFoldOptions = {}) {
  const byTier = new Map<string, Counts>();
  const since = opts.since?.getTime();
  const add = (row: FoldRow & { frozen?: unknown; retried?: unknown }): void => {
    if (opts.hook !== undefined && row.hook !== opts.hook) return;
    if (since !== undefined && !(typeof row.ts === 'string' && Date.parse(row.ts) >= since)) return;
    if (row.source === 'seed' || row.hook === 'seed' || row.applied === false || row.calibration === true || row.cached === true) return;
    if (row.verdict !== 'pass') return;
    let c = byTier.get(row.tier);
    if (c === undefined) byTier.set(row.tier, (c = { passes: 0, frozen: 0, retried: 0 }));
    c.passes++;
    if (Array.isArray(row.frozen) && row.frozen.length > 0) c.frozen++;
    else if (row.retried !== undefined && row.retried !== null) c.retried++;
  };
  const finish = (
    tiers: readonly string[],
    history: HistoryState | undefined,
    freezes: readonly Freeze[],
    today: string,
    policy: Required<Pick<FreezePolicy, 'minRuns' | 'minFlipRate'>>,
    max = 20,
  ): TestsSection => {
    const names = [...tiers, ...[...byTier.keys(), ...(history ? [...history.tiers.keys()] : [])].filter((t) => !tiers.includes(t))];
    const out: TierTests[] = [];
    for (const tier of [...new Set(names)]) {
      const c = byTier.get(tier) ?? { passes: 0, frozen: 0, retried: 0 };
      const flaky: FlakyTest[] = [];
      const broken: TierTests['broken'] = [];
      let tests = 0;
      for (const [id, t] of history?.tiers.get(tier)?.tests ?? []) {
        if (t.runs === 0) continue;
        tests++;
        const evidence = history!.evidence.get(id)?.size ?? 0;
        const e = freezeEligible(
          { runs: t.runs, fails: t.fails, sameCodeRuns: t.sameCodeRuns, flips: t.flips, evidence, ambiguous: t.ambiguous === true },
          policy,
        );
        if (e.broken) broken.push({ id, runs: t.runs });
        else if (t.flips > 0 && e.flipRate !== null) {
          flaky.push({
            id,
            runs: t.runs,
            fails: t.fails,
            flips: t.flips,
            same_code_runs: t.sameCodeRuns,
            flip_rate: Number(fixed3(e.flipRate)),
            evidence,
            eligible: e.eligible,
            reason: e.reason,
          });
        }
      }
      flaky.sort(byFlakiness);
      broken.sort((a, b) => b.runs - a.runs || (a.id < b.id ? -1 : 1));
      // A tier with no per-test history (no report) has only plain passes to show: the tier table has them.
      const recorded = history?.tiers.has(tier) === true;
      if (!recorded && c.frozen === 0 && c.retried === 0 && !freezes.some((f) => f.tier === tier)) continue;
      out.push({
        tier,
        passes: c.passes,
        plain_passes: c.passes - c.frozen - c.retried,
        frozen_passes: c.frozen,
        retried_passes: c.retried,
        tests,
        flaky: flaky.slice(0, max),
        flaky_count: flaky.length,
        eligible_count: flaky.filter((f) => f.eligible).length,
        broken: broken.slice(0, max),
        broken_count: broken.length,
      });
    }
    const frozen = [...freezes]
      .sort((a, b) => (a.expires < b.expires ? -1 : a.expires > b.expires ? 1 : 0))
      .map((f) => ({ ...f, active: isActive(f, today), frozen_through: lastFrozenDay(f), counts_again_from: f.expires }));
    return { tiers: out, freezes: frozen, today };
  };
  return { add, finish };
}

const esc = shown;
const passes = (n: number) => `${n} ${n === 1 ? 'pass' : 'passes'}`;

/** The section as lines of text or markdown, to follow the rest of the report. Pure. */
export function renderTestsSection(s: TestsSection, markdown: boolean): string {
  const out: string[] = [''];
  const heading = (text: string) => out.push(markdown ? `## ${mdHtml(text)}` : `${text}:`);
  const item = (text: string, depth = 1) =>
    out.push(markdown ? `${'  '.repeat(depth - 1)}- ${mdHtml(text)}` : `${'  '.repeat(depth)}${text}`);
  heading('tests (flips count only between runs of the same code)');
  if (s.tiers.length === 0) item('no per-test history: give a tier `runner` and `junit` (docs/flaky.md)');
  for (const t of s.tiers) {
    item(
      `${esc(t.tier)}: ${passes(t.passes)}: ${t.plain_passes} plain, ${t.frozen_passes} granted by a freeze, ${t.retried_passes} on a retry`,
    );
    item(
      `flaky (outcome changed on the same code): ${t.flaky_count === 0 ? 'none' : `${t.flaky_count}, ${t.eligible_count} of them may be frozen`}`,
      2,
    );
    for (const f of t.flaky)
      item(`${esc(f.id)}: ${f.flips} flips in ${f.same_code_runs} same-code runs (${f.flip_rate}); ${esc(f.reason)}`, 3);
    if (t.flaky_count > t.flaky.length) item(`... and ${t.flaky_count - t.flaky.length} more (gate-ladder flaky)`, 3);
    item(`broken (failed every run): ${t.broken_count === 0 ? 'none' : t.broken_count}`, 2);
    for (const b of t.broken) item(`${esc(b.id)}: failed all ${b.runs} runs; fix it or delete it`, 3);
    if (t.broken_count > t.broken.length) item(`... and ${t.broken_count - t.broken.length} more (gate-ladder flaky)`, 3);
  }
  heading('freezes (.gate-ladder/freezes.json)');
  if (s.freezes.length === 0) item('none');
  for (const f of s.freezes) {
    const when = f.active
      ? `frozen through ${f.frozen_through} UTC, counts again from ${f.counts_again_from} UTC`
      : `EXPIRED: counts again since ${f.counts_again_from} UTC`;
    item(`${esc(f.test)}${f.tier ? ` [${esc(f.tier)}]` : ''}: ${when}; re-entry: ${esc(f.reentry)}`);
  }
  return `${out.join('\n')}\n`;
}
