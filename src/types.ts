/**
 * The public types of gate-ladder: what a repository writes in gate-ladder.config.ts, and what the
 * library (src/index.ts) exports for it. Every internal model lives beside its owner (the resolved
 * config in config/, the plan in route/, a gate's result in gates/, the ledger row in ledger/, the
 * evidence in evidence/, the report's figures in report/). Types only; the one import is the runners'
 * names a tier's `runner` takes (test/unit/layers.test.ts keeps it so).
 */
import type { RunnerName } from './config/runner-names.js';

export type { RunnerName };

/** Which entry point produced a run. `manual` covers `gate-ladder run --base/--head` (also CI); `judge` a candidate patch judged by `gate-ladder judge` or the MCP server. */
export type HookName = 'pre-push' | 'pre-commit' | 'manual' | 'replay' | 'seed' | 'judge';

export type Isolation = 'auto' | 'worktree' | 'none';

/**
 * lint-staged's own options a `lintStaged` tier may set (see lint-staged's README). Stashing and the hiding of
 * unstaged changes stay on: that is the point of running it.
 */
export interface LintStagedOptions {
  /** Path (relative to the repository root) of a lint-staged config; default: lint-staged's own search. */
  configPath?: string;
  /** The lint-staged config itself (glob → commands), instead of a file. */
  config?: Record<string, unknown> | ((files: readonly string[]) => unknown);
  /** Hide every unstaged change, not only those in partially staged files. Default false. */
  hideUnstaged?: boolean;
  concurrent?: boolean | number;
  continueOnError?: boolean;
  relative?: boolean;
  verbose?: boolean;
  /** Fail (a `caught`) when a task modifies files, instead of staging the modifications. */
  failOnChanges?: boolean;
  allowEmpty?: boolean;
}

export interface TierConfig {
  /** Unique name, shown in messages and stored in the ledger (e.g. `t1-properties`). */
  name: string;
  /**
   * A command string, run by the shell like an npm script, or an argv array, run without a shell. Required unless `lintStaged`.
   * `{changed}` (or `{changed:GLOB}`) in it stands for the changed paths still at the judged commit, each one argument;
   * a tier whose list is empty is skipped (route/changed.ts).
   */
  run?: string | string[];
  /**
   * Instead of `run`: run lint-staged through its API on the staged files (pre-commit only). A task failing is
   * `caught`; lint-staged unable to run (no config, a git error) is `error`. Needs `lint-staged` 16 installed.
   */
  lintStaged?: true | LintStagedOptions;
  /** Seconds before the gate's whole process tree is killed and the tier is an `error`. Default 600. */
  timeout?: number;
  /** Extra environment for the gate. */
  env?: Record<string, string>;
  /** Working directory, relative to the repository root. */
  cwd?: string;
  /** Exit codes that mean "a test failed". Default `[1]`; anything else non-zero is an `error`. */
  caught?: number[];
  /** Skip this tier when t0-scope finds a test-adjacent path (a property tier cannot vouch then). */
  skipWhenTestAdjacent?: boolean;
  /**
   * Run this tier only when the change touches a path matching one of these globs (picomatch, relative to
   * the repository root; `!glob` leaves paths out), e.g. `['src/**', 'test/**', 'package.json']`: a
   * docs-only push then skips it. Default: every change.
   */
  paths?: string[];
  /** Which hooks run this tier. Default: `['pre-push', 'manual', 'replay', 'seed']`; `['pre-commit']` for lintStaged. */
  hooks?: HookName[];
  /** The test runner behind the command, for its exit-code meanings and report format. */
  runner?: RunnerName;
  /** Path (relative to cwd) where the gate writes a JUnit XML report. */
  junit?: string;
  /** A report file the gate writes, read instead of its output text (`junit: PATH` is `{ format: 'junit', path: PATH }`). */
  report?: TierReport;
  /** A run with zero tests is a pass, not an error ("no tests ran"). Default false. */
  allowNoTests?: boolean;
  /**
   * `false`: never reuse a pass of this tier from the tree cache (its verdict depends on more than the
   * pushed tree: the commit message, the date, the network...). Default `true`.
   */
  cache?: boolean;
  /**
   * Runs a gate whose tests failed (`caught`) once more on the same code (0 or 1). A pass on the retry
   * is a pass, and the flip is recorded in the per-test history as a same-code run. Default 0.
   */
  retries?: number;
}

/** Report files gate-ladder reads: JUnit XML, jest's `--json`, vitest's json reporter (the same shape), `go test -json` lines. */
export type ReportFormat = 'junit' | 'jest-json' | 'vitest-json' | 'go-json';

export interface TierReport {
  format: ReportFormat;
  /** Relative to the tier's cwd. */
  path: string;
}

export interface FreezePolicy {
  /** Fewer runs than this: "insufficient history". Default 20. */
  minRuns?: number;
  /** Flip rate below this: "not actually flaky". Default 0.02. */
  minFlipRate?: number;
  /** Furthest a freeze may expire, in days from today. Default 90. */
  maxExpiryDays?: number;
}

export interface ReportPolicy {
  /** Fewer attempts than this and the report says ratios are noise. Default 30. */
  minAttempts?: number;
}

export interface GateLadderConfig {
  /** Test-adjacent path globs. Replaces the defaults when given; spread `defaultScope` to extend. */
  scope?: string[];
  /** The gates, in cost order (cheapest first). */
  tiers: TierConfig[];
  /** Ledger path relative to the repository root. Default `<git common dir>/gate-ladder/ledger.jsonl`. */
  ledger?: string;
  /** Base for a new branch's range (e.g. `origin/main`). Default: the remote's HEAD. */
  base?: string;
  /**
   * Where gates run. `auto` (default): in a temporary worktree at the pushed commit (or the staged tree) when the
   * working tree differs from it, else in place. `worktree`: always a temporary worktree. `none`: always in place.
   */
  isolation?: Isolation;
  /** Fraction of manual/CI runs that run every tier (calibration). Default 0. */
  calibrate?: number;
  /** Let hooks calibrate too (they slow the push). Default false. */
  calibrateHooks?: boolean;
  /** Reuse a pass for a tree that already passed under the same config. Default true. */
  cache?: boolean;
  /**
   * Gates' own output during a run (a push, a commit, a manual run; `run --output` or GATE_LADDER_OUTPUT
   * override it for one run). `summary` (default): held, written whole to a log file under the git dir, and for a
   * tier that does not pass one screen is shown: the verdict, at most about 40 lines chosen from the output (the
   * runner's summary, the failures, each failed test named), the log's path, the verdict again. `all`: as it
   * comes. `failures`: held back, and shown whole only for a tier that does not pass (like lefthook's `output`
   * setting). Held output is piped, so runners see no terminal.
   */
  output?: OutputMode;
  /** Run the tiers on an empty change (no path differs from its base). Default false: nothing to judge, nothing runs. */
  runOnEmpty?: boolean;
  freeze?: FreezePolicy;
  report?: ReportPolicy;
  /**
   * The order tiers run in. `fixed` (default): as listed. `predicted`: per patch, by each tier's predicted catch
   * per expected second, from the ledger's history of the paths it touches (docs/config.md); the listed order until
   * the ledger holds 20 calibration runs. Ordering only: no tier is skipped.
   */
  order?: 'fixed' | 'predicted';
  /**
   * Opt-in selection: a tier whose predicted catch for this patch is under `risk` may be skipped (never on
   * `gate-ladder ci` runs, never on calibration runs). Needs the same 20 calibration runs.
   */
  select?: { risk: number };
}

/** How gates' output is shown during a run (config `output`). */
export type OutputMode = 'summary' | 'all' | 'failures';
