import { type AdvicePolicy, advise } from './advice.js';
import { DistinctCounter } from './distinct.js';
import { Seconds } from './seconds.js';
import { bestOrder, costRatio, expectedSeconds, type PricedTier } from './order.js';
import type { HookName, OrderFigures, PairOverlap, Report, ScopeFigures, TierFigures, Verdict } from '../types.js';

export interface ReportOptions extends Partial<AdvicePolicy> {
  /** Ladder order from the config; tiers seen only in the ledger follow, in the order first seen. */
  tiers?: readonly string[];
  /** Count only rows at or after this time. */
  since?: Date;
  /** Count only rows written by this hook. */
  hook?: HookName;
}

/** What the fold reads of a row (a `LedgerRow` has all of it). */
export interface FoldRow {
  patch: string;
  tier: string;
  verdict: Verdict;
  seconds: number;
  ts?: unknown;
  run?: unknown;
  hook?: unknown;
  source?: unknown;
  calibration?: unknown;
  cached?: unknown;
  applied?: unknown;
  applicable?: unknown;
  skipped?: unknown;
}

/** Folds rows one at a time; holds per-tier counters and seconds, never the rows. */
export interface ReportFold {
  add(row: FoldRow): void;
  finish(skippedLines?: number): Report;
}

interface TierAcc {
  caught: number;
  errors: number;
  passes: number;
  total: number;
  seconds: Seconds;
  notApplied: number;
  notApplicable: number;
  /** Runs t0-scope routed past this tier. */
  routedPast: DistinctCounter;
}

/** Seconds to the millisecond; rates and yields to four significant digits. */
export const ms = (x: number): number => Math.round(x * 1000) / 1000;
export const sig = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));

/** The report as a pure fold: `add` every row, then `finish`. */
export function reportFold(opts: ReportOptions = {}): ReportFold {
  const accs = new Map<string, TierAcc>();
  const order: string[] = [];
  const tier = (name: string): TierAcc => {
    let a = accs.get(name);
    if (a === undefined) {
      a = { caught: 0, errors: 0, passes: 0, total: 0, seconds: new Seconds(), notApplied: 0, notApplicable: 0, routedPast: new DistinctCounter() };
      accs.set(name, a);
      order.push(name);
    }
    return a;
  };
  for (const name of opts.tiers ?? []) tier(name);
  const attempts = new DistinctCounter();
  const routedRuns = new DistinctCounter();
  /** Calibration run → tier → caught (true) or passed (false); errors are left out. */
  const calibration = new Map<string, Map<string, boolean>>();
  const excluded = { filtered: 0, calibration: 0, cached: 0, seed: 0, not_applied: 0, not_applicable: 0 };
  const since = opts.since?.getTime();
  let rows = 0;
  let lastRun: string | undefined;

  const add = (row: FoldRow): void => {
    rows++;
    if ((opts.hook !== undefined && row.hook !== opts.hook) || (since !== undefined && !(typeof row.ts === 'string' && Date.parse(row.ts) >= since))) {
      excluded.filtered++;
      return;
    }
    // Seeded bugs and patches that did not apply are no tier's attempt: they never create a tier line.
    if (row.source === 'seed' || row.hook === 'seed') {
      excluded.seed++;
      return;
    }
    if (row.applied === false) {
      const known = accs.get(row.tier);
      if (known !== undefined) known.notApplied++;
      excluded.not_applied++;
      return;
    }
    const a = tier(row.tier);
    // The tier's command could not run at that commit (its script or runner came later): no attempt of this tier.
    if (row.applicable === false) {
      a.notApplicable++;
      excluded.not_applicable++;
      return;
    }
    const run = typeof row.run === 'string' ? row.run : row.patch;
    if (row.calibration === true) {
      excluded.calibration++;
      if (row.verdict === 'error') return;
      let verdicts = calibration.get(run);
      if (verdicts === undefined) calibration.set(run, (verdicts = new Map()));
      verdicts.set(row.tier, row.verdict === 'caught');
      return;
    }
    if (row.cached === true) {
      excluded.cached++;
      return;
    }
    // A run's rows are usually adjacent: skip hashing the same run id again.
    if (run !== lastRun) {
      attempts.add(run);
      lastRun = run;
    }
    if (row.verdict === 'caught') a.caught++;
    else if (row.verdict === 'error') a.errors++;
    else a.passes++;
    a.total += row.seconds;
    a.seconds.push(row.seconds);
    if (Array.isArray(row.skipped)) {
      for (const name of row.skipped) {
        if (typeof name !== 'string') continue;
        routedRuns.add(run);
        tier(name).routedPast.add(run);
      }
    }
  };

  const finish = (skippedLines = 0): Report => {
    const tiers = order.map((name) => figures(name, accs.get(name)!));
    const scope = scopeFigures(order, accs, tiers, routedRuns.size);
    const pairs = overlap(order, calibration);
    const priced = priceOrder(tiers);
    const base = { tiers, scope, overlap: { runs: calibration.size, pairs }, order: priced, attempts: attempts.size };
    const advice = rows - excluded.filtered === 0 ? [] : advise(base, opts);
    return { ...base, advice, rows, excluded, skipped_lines: skippedLines };
  };
  return { add, finish };
}

/** The report over rows already in memory (tests, small ledgers). */
export function report(rows: Iterable<FoldRow>, opts: ReportOptions = {}, skippedLines = 0): Report {
  const fold = reportFold(opts);
  for (const row of rows) fold.add(row);
  return fold.finish(skippedLines);
}

function figures(name: string, a: TierAcc): TierFigures {
  const runs = a.seconds.n;
  const median = a.seconds.median();
  const total = ms(a.total);
  return {
    tier: name,
    runs,
    caught: a.caught,
    errors: a.errors,
    passes: a.passes,
    median_s: median === null ? null : ms(median),
    total_s: total,
    yield: total === 0 ? null : sig(a.caught / total),
    error_rate: runs === 0 ? null : sig(a.errors / runs),
    not_applied: a.notApplied,
    not_applicable: a.notApplicable,
  };
}

function scopeFigures(order: string[], accs: Map<string, TierAcc>, tiers: TierFigures[], patches: number): ScopeFigures {
  const past: ScopeFigures['past'] = [];
  order.forEach((name, i) => {
    const n = accs.get(name)!.routedPast.size;
    if (n === 0) return;
    const median = tiers[i]!.median_s;
    past.push({ tier: name, patches: n, median_s: median, saved_s: median === null ? null : ms(median * n) });
  });
  return { patches, past, saved_s: ms(past.reduce((s, p) => s + (p.saved_s ?? 0), 0)) };
}

/** For each pair of tiers (ladder order), over calibration runs where both gave a pass-or-caught verdict. */
function overlap(order: string[], calibration: Map<string, Map<string, boolean>>): PairOverlap[] {
  const pairs: PairOverlap[] = [];
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) {
      const p: PairOverlap = { earlier: order[i]!, later: order[j]!, patches: 0, both: 0, only_earlier: 0, only_later: 0, neither: 0 };
      for (const verdicts of calibration.values()) {
        const e = verdicts.get(p.earlier);
        const l = verdicts.get(p.later);
        if (e === undefined || l === undefined) continue;
        p.patches++;
        if (e && l) p.both++;
        else if (e) p.only_earlier++;
        else if (l) p.only_later++;
        else p.neither++;
      }
      if (p.patches > 0) pairs.push(p);
    }
  }
  return pairs;
}

/** Mean seconds per run is the cost (expectations add means); caught ÷ runs the catch probability. */
function priceOrder(tiers: TierFigures[]): OrderFigures {
  const ranked: PricedTier[] = tiers.filter((t) => t.runs > 0).map((t) => ({ tier: t.tier, cost: t.total_s / t.runs, p: t.caught / t.runs }));
  const best = bestOrder(ranked);
  const some = ranked.length > 0;
  return {
    current: ranked.map((t) => t.tier),
    recommended: best.map((t) => t.tier),
    current_s: some ? ms(expectedSeconds(ranked)) : null,
    recommended_s: some ? ms(expectedSeconds(best)) : null,
    unranked: tiers.filter((t) => t.runs === 0).map((t) => t.tier),
    priced: ranked.map((t) => ({ tier: t.tier, mean_s: ms(t.cost), p: sig(t.p), ratio: t.p === 0 ? null : ms(costRatio(t)) })),
  };
}
