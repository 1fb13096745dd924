import { type AdvicePolicy, advise } from './advice.js';
import { DistinctCounter } from './distinct.js';
import {
  MAX_EXACT_TIERS,
  bestOrder,
  bestReplayOrder,
  costRatio,
  expectedSeconds,
  replaySeconds,
  type PricedTier,
  type ReplayRun,
} from './order.js';
import { Seconds, ms, sig } from './seconds.js';
import { MONTH_DAYS, Trend, daysBetween } from './trend.js';
import type { HookName } from '../types.js';
import type { OrderFigures, PairOverlap, RateFigures, Report, ScopeFigures, SeedFigures, TierFigures } from './model.js';
import type { Verdict } from '../ledger/row.js';

export { ms, sig };

/**
 * The reason an `error` row starts with when its tier had nothing to judge at that commit (a runner profile
 * found no tests of its kind there). Such rows are counted apart (`not_applicable`), never as errors or runs.
 */
export const NOT_APPLICABLE_PREFIX = 'not applicable at this commit:';

/** An `error` row that says its tier did not apply at the commit: counted apart from errors. */
export function isNotApplicable(row: Pick<FoldRow, 'verdict' | 'reason' | 'applicable'>): boolean {
  if (row.applicable === false) return true;
  return row.verdict === 'error' && typeof row.reason === 'string' && row.reason.startsWith(NOT_APPLICABLE_PREFIX);
}

export interface ReportOptions extends Partial<AdvicePolicy> {
  /** Ladder order from the config. Given, tiers with rows but not in it are retired; else every tier seen counts, in the order first seen. */
  tiers?: readonly string[];
  /** Count only rows at or after this time. */
  since?: Date;
  /** Count only rows written by this hook. */
  hook?: HookName;
  /**
   * The tiers of the ladder whose order is priced (the config's tiers that run on `hook`, or without one
   * those that run on more than pre-commit): a pre-commit-only tier is the commit ladder's. Not given: a tier whose counted rows all
   * came from pre-commit is left out of the push ladder's order.
   */
  ladder?: readonly string[];
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
  error_cause?: unknown;
  skipped?: unknown;
  reason?: unknown;
}

/** The origin a row's figures come from: the one a sync stamped on it, else this clone's (`local`). Pure. */
export function rowOrigin(row: object, local: string): string {
  const origin = (row as { origin?: unknown }).origin;
  return typeof origin === 'string' && origin !== '' ? origin : local;
}

/** One origin's share of the report: its rows and its tiers' figures (`report --by-origin`). */
export interface OriginFigures {
  origin: string;
  rows: number;
  /** Rows of this origin the last sync refused (src/ledger/row-check.ts). */
  refused: number;
  tiers: TierFigures[];
}

/**
 * The report fold split by origin: each origin's rows folded apart, so one origin's figures can be
 * seen (and, with `--exclude-origin`, left out) next to the others'. Pure.
 */
export function originFold(opts: ReportOptions, local: string) {
  const folds = new Map<string, { fold: ReportFold; rows: number }>();
  return {
    add(row: FoldRow): void {
      const o = rowOrigin(row, local);
      let f = folds.get(o);
      if (f === undefined) folds.set(o, (f = { fold: reportFold(opts), rows: 0 }));
      f.rows++;
      f.fold.add(row);
    },
    finish(refused: Readonly<Record<string, { rows: number }>> = {}): OriginFigures[] {
      const names = [...new Set([...folds.keys(), ...Object.keys(refused)])].sort((a, b) =>
        a === local ? -1 : b === local ? 1 : a < b ? -1 : a > b ? 1 : 0,
      );
      return names.map((origin) => {
        const f = folds.get(origin);
        return {
          origin,
          rows: f?.rows ?? 0,
          refused: refused[origin]?.rows ?? 0,
          tiers: f === undefined ? [] : f.fold.finish().tiers.filter((t) => t.runs > 0),
        };
      });
    },
  };
}

/** Folds rows one at a time; holds per-tier counters and seconds, never the rows. */
export interface ReportFold {
  add(row: FoldRow): void;
  finish(skippedLines?: number): Report;
}

interface TierAcc {
  caught: number;
  errors: number;
  patchErrors: number;
  passes: number;
  total: number;
  seconds: Seconds;
  notApplied: number;
  notApplicable: number;
  /** Runs t0-scope routed past this tier. */
  routedPast: DistinctCounter;
  /** Counted rows a pre-commit hook wrote, of all counted (`runs`): all of them, the tier is the commit ladder's. */
  preCommit: number;
}

/** One calibration run: each tier's verdict and seconds, the tiers t0-scope routed past, and whether its ladder prefix has ended. */
export interface CalibrationRun {
  verdicts: Map<string, { verdict: Verdict; seconds: number }>;
  skipped: readonly string[];
  stopped: boolean;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Everything the fold holds between rows: counters and seconds per tier, never the rows. */
interface FoldState {
  accs: Map<string, TierAcc>;
  /** The tiers in the order first seen (the config's first). */
  order: string[];
  attempts: DistinctCounter;
  routedRuns: DistinctCounter;
  calibration: Map<string, CalibrationRun>;
  seeds: ReturnType<typeof seedFold>;
  trend: Trend;
  excluded: Report['excluded'];
  /** The counted errors by cause: the tiers' figures count both alike. */
  errors: Report['errors'];
  since: number | undefined;
  rows: number;
  countedCalibration: number;
  lastRun: string | undefined;
  lastRouted: string | undefined;
}

/** The report as a pure fold: `add` every row, then `finish`. */
export function reportFold(opts: ReportOptions = {}): ReportFold {
  const s: FoldState = {
    accs: new Map(),
    order: [],
    attempts: new DistinctCounter(),
    routedRuns: new DistinctCounter(),
    calibration: new Map(),
    seeds: seedFold(),
    trend: new Trend(),
    excluded: { filtered: 0, calibration: 0, cached: 0, seed: 0, not_applied: 0, not_applicable: 0 },
    errors: { patch: 0, harness: 0 },
    since: opts.since?.getTime(),
    rows: 0,
    countedCalibration: 0,
    lastRun: undefined,
    lastRouted: undefined,
  };
  for (const name of opts.tiers ?? []) tierAcc(s, name);
  return { add: (row) => addRow(s, opts, row), finish: (skippedLines = 0) => finishReport(s, opts, skippedLines) };
}

/** The tier's counters, made the first time the tier is seen. */
function tierAcc(s: FoldState, name: string): TierAcc {
  let a = s.accs.get(name);
  if (a === undefined) {
    a = {
      caught: 0,
      errors: 0,
      passes: 0,
      total: 0,
      seconds: new Seconds(),
      notApplied: 0,
      notApplicable: 0,
      patchErrors: 0,
      routedPast: new DistinctCounter(),
      preCommit: 0,
    };
    s.accs.set(name, a);
    s.order.push(name);
  }
  return a;
}

/** The tiers t0-scope routed past in a run, counted once per run. */
function routed(s: FoldState, run: string, skipped: unknown): void {
  if (!Array.isArray(skipped) || run === s.lastRouted) return;
  s.lastRouted = run;
  for (const name of strings(skipped)) {
    s.routedRuns.add(run);
    tierAcc(s, name).routedPast.add(run);
  }
}

/** One row: left out (filtered, a seeded bug, a patch that did not apply, cached, not applicable) or counted. */
function addRow(s: FoldState, opts: ReportOptions, row: FoldRow): void {
  s.rows++;
  if (
    (opts.hook !== undefined && row.hook !== opts.hook) ||
    (s.since !== undefined && !(typeof row.ts === 'string' && Date.parse(row.ts) >= s.since))
  ) {
    s.excluded.filtered++;
    return;
  }
  const run = typeof row.run === 'string' ? row.run : row.patch;
  // Seeded bugs are evidence of what each tier can catch, not patch attempts.
  if (row.source === 'seed' || row.hook === 'seed') {
    s.excluded.seed++;
    s.seeds.add(run, row);
    return;
  }
  // A patch that did not apply is no tier's attempt: it never creates a tier line.
  if (row.applied === false) {
    const known = s.accs.get(row.tier);
    if (known !== undefined) known.notApplied++;
    s.excluded.not_applied++;
    return;
  }
  const a = tierAcc(s, row.tier);
  const notApplicable = isNotApplicable(row);
  if (row.calibration === true && calibrationStopped(s, run, row, notApplicable)) {
    s.excluded.calibration++;
    return;
  }
  if (row.cached === true) {
    s.excluded.cached++;
    return;
  }
  if (notApplicable) {
    a.notApplicable++;
    s.excluded.not_applicable++;
    return;
  }
  if (row.calibration === true) s.countedCalibration++;
  else routed(s, run, row.skipped);
  if (row.hook === 'pre-commit') a.preCommit++;
  countRow(s, a, run, row);
}

/**
 * A calibration row kept in its run (for the overlap and the exact order); true when the ladder would
 * have stopped before it (past the first non-pass), so it feeds those only.
 */
function calibrationStopped(s: FoldState, run: string, row: FoldRow, notApplicable: boolean): boolean {
  let c = s.calibration.get(run);
  if (c === undefined) s.calibration.set(run, (c = { verdicts: new Map(), skipped: strings(row.skipped), stopped: false }));
  c.verdicts.set(row.tier, { verdict: notApplicable ? 'error' : row.verdict, seconds: row.seconds });
  routed(s, run, row.skipped);
  if (c.stopped) return true;
  if (row.verdict !== 'pass') c.stopped = true;
  return false;
}

/** A counted row: its run's attempt, its tier's verdict and seconds, the trend. */
function countRow(s: FoldState, a: TierAcc, run: string, row: FoldRow): void {
  // A run's rows are usually adjacent: skip hashing the same run id again.
  if (run !== s.lastRun) {
    s.attempts.add(run);
    s.lastRun = run;
  }
  if (row.verdict === 'caught') a.caught++;
  else if (row.verdict === 'error') {
    a.errors++;
    if (row.error_cause === 'patch') {
      s.errors.patch++;
      a.patchErrors++;
    } else s.errors.harness++;
  } else a.passes++;
  a.total += row.seconds;
  a.seconds.push(row.seconds);
  s.trend.add(row.ts, row.tier, row.verdict === 'caught', row.seconds);
}

/** The report from the fold's counters: each tier's figures, scope, overlap, order, advice, trend and seeds. */
function finishReport(s: FoldState, opts: ReportOptions, skippedLines: number): Report {
  const current = opts.tiers === undefined ? undefined : new Set(opts.tiers);
  const all = s.order.map((name) => figures(name, s.accs.get(name)!));
  const tiers = all.filter((t) => current === undefined || current.has(t.tier));
  const retired = all.filter((t) => current !== undefined && !current.has(t.tier));
  const scope = scopeFigures(s.order, s.accs, all, s.routedRuns.size);
  const pairs = overlap(
    tiers.map((t) => t.tier),
    s.calibration,
  );
  const priced = priceOrder(orderable(tiers, s, opts), s.calibration);
  const rate = rateFigures(s.attempts.size, s.trend.first, s.trend.latest);
  const overlapFigures = { runs: s.calibration.size, counted_rows: s.countedCalibration, pairs };
  const base = { tiers, scope, overlap: overlapFigures, order: priced, attempts: s.attempts.size, rate };
  const advice = s.rows - s.excluded.filtered === 0 ? [] : advise(base, opts);
  return {
    tiers,
    scope,
    overlap: overlapFigures,
    order: priced,
    advice,
    attempts: s.attempts.size,
    rows: s.rows,
    excluded: s.excluded,
    errors: s.errors,
    skipped_lines: skippedLines,
    retired,
    trend: s.trend.finish(tiers.filter((t) => t.runs > 0).map((t) => t.tier)),
    rate,
    seeds: s.seeds.finish(s.order),
  };
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
    patch_errors: a.patchErrors,
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
function overlap(order: string[], calibration: Map<string, CalibrationRun>): PairOverlap[] {
  const pairs: PairOverlap[] = [];
  const judged = (c: CalibrationRun, name: string): boolean | undefined => {
    const v = c.verdicts.get(name)?.verdict;
    return v === 'caught' ? true : v === 'pass' ? false : undefined;
  };
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) {
      const p: PairOverlap = { earlier: order[i]!, later: order[j]!, patches: 0, both: 0, only_earlier: 0, only_later: 0, neither: 0 };
      for (const c of calibration.values()) {
        const e = judged(c, p.earlier);
        const l = judged(c, p.later);
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

/** Patch attempts per month over the days with counted rows (at least one month). */
function rateFigures(attempts: number, first: string | null, last: string | null): RateFigures {
  const days = first === null || last === null ? 0 : daysBetween(first, last);
  const months = Math.max(1, days / MONTH_DAYS);
  return { attempts, first, last, months: Number(months.toFixed(2)), per_month: sig(attempts / months) };
}

/**
 * Calibration runs as the exact evaluation reads them, over `names` (in that order): only runs with a verdict,
 * or a t0-scope skip, for every one of them.
 */
export function replayRuns(names: readonly string[], calibration: Iterable<CalibrationRun>): ReplayRun[] {
  const out: ReplayRun[] = [];
  next: for (const c of calibration) {
    let pass = 0;
    const seconds: number[] = [];
    for (let i = 0; i < names.length; i++) {
      const v = c.verdicts.get(names[i]!);
      if (v !== undefined) {
        seconds.push(v.seconds);
        if (v.verdict === 'pass') pass |= 1 << i;
      } else if (c.skipped.includes(names[i]!)) {
        seconds.push(0);
        pass |= 1 << i;
      } else continue next;
    }
    out.push({ pass, seconds });
  }
  return out;
}

/** The tiers of the ladder whose order is priced: the push ladder's, unless `hook` names another (ReportOptions.ladder). */
function orderable(tiers: TierFigures[], s: FoldState, opts: ReportOptions): TierFigures[] {
  if (opts.ladder !== undefined) {
    const ladder = new Set(opts.ladder);
    return tiers.filter((t) => ladder.has(t.tier));
  }
  if (opts.hook !== undefined) return tiers;
  return tiers.filter((t) => {
    const a = s.accs.get(t.tier);
    return a === undefined || a.preCommit === 0 || a.preCommit < t.runs;
  });
}

/**
 * The current order against the cheapest. Exactly, from calibration runs, when some calibration run covers every
 * tier to order; otherwise estimated from each tier's mean seconds (expectations add means) and catch rate,
 * assuming tiers fail independently.
 */
function priceOrder(tiers: TierFigures[], calibration: Map<string, CalibrationRun>): OrderFigures {
  const ranked: PricedTier[] = tiers
    .filter((t) => t.runs > 0)
    .map((t) => ({ tier: t.tier, cost: t.total_s / t.runs, p: t.caught / t.runs }));
  const priced = ranked.map((t) => ({ tier: t.tier, mean_s: ms(t.cost), p: sig(t.p), ratio: t.p === 0 ? null : ms(costRatio(t)) }));
  const calibrated = new Set<string>();
  for (const c of calibration.values()) for (const name of c.verdicts.keys()) calibrated.add(name);
  const names = tiers.filter((t) => t.runs > 0 || calibrated.has(t.tier)).map((t) => t.tier);
  const replay = names.length > 0 && names.length <= MAX_EXACT_TIERS ? replayRuns(names, calibration.values()) : [];
  if (replay.length > 0) {
    const current = names.map((_, i) => i);
    const best = bestReplayOrder(names.length, replay);
    const currentS = ms(replaySeconds(current, replay));
    const bestS = ms(replaySeconds(best, replay));
    const cheaper = bestS < currentS;
    return {
      current: names,
      recommended: (cheaper ? best : current).map((i) => names[i]!),
      current_s: currentS,
      recommended_s: cheaper ? bestS : currentS,
      unranked: tiers.filter((t) => !names.includes(t.tier)).map((t) => t.tier),
      priced,
      method: 'calibration',
      calibration_runs: replay.length,
    };
  }
  const best = bestOrder(ranked);
  const some = ranked.length > 0;
  return {
    current: ranked.map((t) => t.tier),
    recommended: best.map((t) => t.tier),
    current_s: some ? ms(expectedSeconds(ranked)) : null,
    recommended_s: some ? ms(expectedSeconds(best)) : null,
    unranked: tiers.filter((t) => t.runs === 0).map((t) => t.tier),
    priced,
    method: 'independence',
    calibration_runs: 0,
  };
}

/** Seeded bugs: per tier, seed runs it ran in and caught; per run, whether any tier caught it. */
function seedFold() {
  const runs = new Map<string, boolean>();
  const tiers = new Map<string, { runs: number; caught: number; errors: number }>();
  return {
    add(run: string, row: FoldRow): void {
      let t = tiers.get(row.tier);
      if (t === undefined) tiers.set(row.tier, (t = { runs: 0, caught: 0, errors: 0 }));
      t.runs++;
      if (row.verdict === 'caught') t.caught++;
      if (row.verdict === 'error') t.errors++;
      runs.set(run, runs.get(run) === true || row.verdict === 'caught');
    },
    /** Tiers in ladder order, then any other tier seen only in seed rows. */
    finish(order: readonly string[]): SeedFigures {
      const names = [...order.filter((n) => tiers.has(n)), ...[...tiers.keys()].filter((n) => !order.includes(n))];
      let caught = 0;
      for (const c of runs.values()) if (c) caught++;
      return { runs: runs.size, caught, tiers: names.map((tier) => ({ tier, ...tiers.get(tier)! })) };
    },
  };
}
