/** The config as a run uses it: every default filled in (load.ts `resolveConfig` makes it; the config cache keeps it). */
import type { FreezePolicy, Isolation, LintStagedOptions, OutputMode, ReportPolicy, TierConfig, TierReport } from '../types.js';
import type { RunnerName } from './runner-names.js';

/** A tier with every default filled in. */
export interface ResolvedTier
  extends Required<
    Omit<TierConfig, 'env' | 'cwd' | 'runner' | 'junit' | 'lintStaged' | 'report' | 'allowNoTests' | 'cache' | 'retries' | 'paths'>
  > {
  /** For a lintStaged tier, `'lint-staged'` (what it amounts to on the command line). */
  run: string | string[];
  /** Set when the tier runs lint-staged through its API. */
  lintStaged?: LintStagedOptions;
  env: Record<string, string>;
  cwd: string;
  runner?: RunnerName;
  junit?: string;
  /** The report the gate writes (`junit` included). */
  report?: TierReport;
  allowNoTests?: boolean;
  /** Set (to false) only when the tier opts out of the tree cache. */
  cache?: false;
  /** Set only when the config asks for retries (1). */
  retries?: number;
  /** Set only when the config names `paths`: the globs a changed path must match for the tier to run. */
  paths?: string[];
  /**
   * Set when the config lists no `caught`: the runner's own failure codes apply then, the detected
   * runner's when the tier names none (`cargo test` exits 101 for a failed test whether or not
   * `runner: 'cargo'` is written).
   */
  caughtByRunner?: true;
}

export interface ResolvedConfig {
  scope: string[];
  tiers: ResolvedTier[];
  ledger?: string;
  base?: string;
  isolation: Isolation;
  calibrate: number;
  calibrateHooks: boolean;
  cache: boolean;
  output: OutputMode;
  runOnEmpty: boolean;
  freeze: Required<FreezePolicy>;
  report: Required<ReportPolicy>;
  /** Absent: `fixed`. */
  order?: 'fixed' | 'predicted';
  select?: { risk: number };
}
