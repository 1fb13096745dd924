/** The report's figures (figures.ts makes them from the ledger, advice.ts adds the advice; render.ts, html.ts and `report --json` show them). Types only. */

/** One tier's line of the report. Only ladder rows count: not calibration, cached, seed or unapplied rows. */
export interface TierFigures {
  tier: string;
  runs: number;
  /** First rejections: a row exists only for tiers a patch reached. */
  caught: number;
  errors: number;
  passes: number;
  /** `null` when the tier has no runs. */
  median_s: number | null;
  total_s: number;
  /** Catches per second, caught ÷ total_s; `null` when total_s is 0 (no runs, or only zero-second rows). */
  yield: number | null;
  /** errors ÷ runs; `null` when the tier has no runs. */
  error_rate: number | null;
  /** Of `errors`, those the patch caused (a file it changed cannot load, or it removed the tier's script): not the tier's trouble. */
  patch_errors?: number;
  /** Replay rows whose patch did not apply: neither catches nor errors. */
  not_applied: number;
  /** Rows where the tier's command could not run at that commit (`applicable: false`, reason `not applicable at this commit: ...`): neither catches nor errors. */
  not_applicable: number;
}

/** What t0-scope saved: patches (distinct runs) it routed past each tier, priced at that tier's median. */
export interface ScopeFigures {
  patches: number;
  past: { tier: string; patches: number; median_s: number | null; saved_s: number | null }[];
  saved_s: number;
}

/** From calibration runs, where every tier ran on the same patch: who caught what. */
export interface PairOverlap {
  earlier: string;
  later: string;
  /** Calibration runs in which both tiers gave a pass-or-caught verdict. */
  patches: number;
  both: number;
  only_earlier: number;
  only_later: number;
  neither: number;
}

export interface OrderFigures {
  /** Tiers with runs, in ladder order, then as ascending cost ÷ catch probability would run them. */
  current: string[];
  recommended: string[];
  /** Expected seconds per patch (sum of each tier's mean seconds times the chance the patch reaches it). */
  current_s: number | null;
  recommended_s: number | null;
  /** Tiers without runs: not priced, left out of both orders. */
  unranked: string[];
  /** Each ranked tier's mean seconds per run, catch probability and their ratio (`null`: never catches). */
  priced: { tier: string; mean_s: number; p: number; ratio: number | null }[];
  /**
   * How the expected seconds were found: `calibration`, exactly, by replaying calibration runs (every tier ran on
   * the same patch) under each order; `independence`, from each tier's mean seconds and catch rate, assuming tiers
   * fail independently (no calibration run covers every ranked tier).
   */
  method: 'calibration' | 'independence';
  /** Calibration runs replayed (those with a verdict, or a t0-scope skip, for every ranked tier); 0 for `independence`. */
  calibration_runs: number;
}

/** Per tier, per week or month (from `ts`): the tier figures' rows over time. */
export interface TrendFigures {
  unit: 'week' | 'month';
  /** First day of each period (`YYYY-MM-DD`), oldest first, without gaps. */
  periods: string[];
  tiers: { tier: string; runs: number[]; caught: number[]; total_s: number[]; yield: (number | null)[]; catch_rate: (number | null)[] }[];
  /** Older periods left out (at most 60 are kept). */
  dropped: number;
}

/** Patch attempts per month: the rate the ordering advice is about. */
export interface RateFigures {
  attempts: number;
  /** First and last day with a counted row (`YYYY-MM-DD`); `null` without one. */
  first: string | null;
  last: string | null;
  /** Days from first to last, inclusive, ÷ 30.4375; at least 1. */
  months: number;
  per_month: number;
}

/** Seeded bugs (`seed` rows): how many each tier caught. */
export interface SeedFigures {
  /** Seed runs (distinct `run`), and how many of them some tier caught. */
  runs: number;
  caught: number;
  tiers: { tier: string; runs: number; caught: number; errors: number }[];
}

export type AdviceKind = 'too-few-attempts' | 'short-feedback' | 'contract-check' | 'decorative' | 'errors' | 'order';

export interface Advice {
  kind: AdviceKind;
  text: string;
  /** The numbers behind the advice. */
  figures: Record<string, number | string | null>;
}

export interface Report {
  tiers: TierFigures[];
  scope: ScopeFigures;
  /** Calibration runs; `counted_rows`: their rows up to the first non-pass, counted as the ladder run they extend. */
  overlap: { runs: number; counted_rows: number; pairs: PairOverlap[] };
  order: OrderFigures;
  advice: Advice[];
  /** Distinct ladder runs counted (patch attempts), calibration runs included. */
  attempts: number;
  /** Rows read, and rows read but not counted in the tier figures, by why. */
  rows: number;
  excluded: { filtered: number; calibration: number; cached: number; seed: number; not_applied: number; not_applicable: number };
  /** The counted `error` rows by cause: the patches' (`error_cause: 'patch'`) and the harness's (the rest). They count in the tiers' errors alike. */
  errors: { patch: number; harness: number };
  skipped_lines: number;
  /** Tiers with rows that the config no longer has: their figures, apart from the ladder. */
  retired: TierFigures[];
  trend: TrendFigures;
  rate: RateFigures;
  seeds: SeedFigures;
}
