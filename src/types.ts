/** Public types of gate-ladder: the config a repo writes, the plan, the verdicts and the ledger row. */
import type { ChangeList, ChangedPath, ScopeHit } from './git/change-list.js';
import type { TierPrediction } from './ledger/predict.js';

export type { TierPrediction } from './ledger/predict.js';

export type { ChangedPath, ScopeHit } from './git/change-list.js';

/** What a gate concluded. `caught`: the patch is wrong. `error`: the harness could not give a verdict. */
export type Verdict = 'pass' | 'caught' | 'error';

/** Which entry point produced a run. `manual` covers `gate-ladder run --base/--head` (also CI); `judge` a candidate patch judged by `gate-ladder judge` or the MCP server. */
export type HookName = 'pre-push' | 'pre-commit' | 'manual' | 'replay' | 'seed' | 'judge';

/** Runners whose exit codes, output and reports gate-ladder knows how to read: one record each in src/runners/. */
import type { RunnerName } from './config/runner-names.js';

export type { RunnerName };

/** Whose fault an `error` is: the patch's (a file it changed cannot load, the tier's script it removed) or the harness's (the tier, its config, what it needs). */
export type ErrorCause = 'patch' | 'harness';

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

/** Which runner profile read a gate's output, and why (the config's `runner`, or what the command runs). */
export interface RunnerInfo {
  runner?: RunnerName;
  why: string;
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

/** A tier with every default filled in. */
export interface ResolvedTier
  extends Required<Omit<TierConfig, 'env' | 'cwd' | 'runner' | 'junit' | 'lintStaged' | 'report' | 'allowNoTests' | 'cache' | 'retries'>> {
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

/** A diff's changes: as objects, or as git's listing (large diffs are routed without splitting it). */
export type Changes = readonly ChangedPath[] | ChangeList;

export interface PlannedTier {
  tier: ResolvedTier;
  run: boolean;
  /** Why it does not run: t0-scope routed past it, the tier is not configured for this hook, GATE_LADDER_SKIP names it, its `{changed}` list is empty, or `select` skipped it. */
  skip?: 'scope' | 'hook' | 'env' | 'changed' | 'select';
  /** The tier's predicted catch chance for this patch (config `order: 'predicted'` or `select`). */
  p?: number;
  /** Human reason when skipped (e.g. `test-adjacent: tests/x.py matches **\/tests/**`). */
  reason?: string;
  /** The tier's `run` with its `{changed}` placeholders expanded for this change (route/changed.ts); absent when it has none. */
  command?: string | string[];
}

export interface Plan {
  /** The touched paths, at most MAX_FILES_PER_ROW of them (as many as a ledger row keeps). */
  files: string[];
  /** How many paths the change touches. */
  fileCount: number;
  hits: ScopeHit[];
  tiers: PlannedTier[];
  /** The changed paths the judged commit still has (no deleted ones), worked out when first asked: `{changed}` and GATE_LADDER_CHANGED. */
  present?: () => readonly string[];
  /** Config `order: 'predicted'` or `select`: the order chosen and why, and what selection skipped (ledger/predict.ts). */
  order?: PlanOrder;
}

/** The order a plan's tiers run in, as the ledger rows and `--json` record it. */
export interface PlanOrder {
  order: 'fixed' | 'predicted';
  why: string;
  /** Why the listed order ran: the config asks for it, a calibration run, or too little history to predict from. */
  because?: 'config' | 'calibration' | 'history';
  /** Each running tier's predicted catch, expected seconds and evidence (absent while the history is too thin). */
  predictions?: TierPrediction[];
  /** Tiers `select` skipped, and their predicted catch chances summed. */
  selected?: { risk: number; skipped: string[]; residual: number };
  /** Why `select` did not act on this run (a CI run, a calibration run, thin history). */
  selectOff?: string;
}

/** The record one gate run produces. Always filled in; only the CLI turns it into an exit code. */
export interface GateResult {
  tier: string;
  verdict: Verdict;
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  timedOut: boolean;
  /** Why the verdict is `error` (or a note on `caught`), in words. */
  reason?: string;
  /** Last part of the gate's output, for messages. */
  tail: string;
  /** `output: 'summary'`: the file holding the gate's whole output (under the git dir). */
  log?: string;
  /** `output: 'summary'`: how many lines the gate printed (the log's lines). */
  outputLines?: number;
  /** A blocked tier under `output: 'summary'`: the lines of its output worth one screen (escaped when shown), and how many lines they stand for. */
  screen?: { lines: string[]; shown: number };
  /** Frozen tests whose failures were forgiven, if any. */
  frozen?: string[];
  /** Per-test outcomes from a JUnit report, if the tier has one. */
  tests?: TestOutcome[];
  /** Ids of the tests the report lists as failed or errored (frozen ones included). */
  failed?: string[];
  /** The failed tests that made a `caught` verdict (frozen ones left out), with where and what their JUnit report says: for CI annotations. */
  failures?: TestFailure[];
  /** Extra lines for the user: frozen failures forgiven, expired freezes, a missing report. */
  notes?: string[];
  /** The runner profile that read the output, and why. */
  runner?: RunnerInfo;
  /** The command could not run at this commit (missing script, package.json or command). */
  inapplicable?: boolean;
  /** An `error`'s cause (verdict/fault.ts): the patch's when the failing file or removed script is one it changed. */
  cause?: ErrorCause;
  /** The changed file that cannot load, or the package.json that lost the tier's script (`cause: 'patch'`). */
  causeFile?: string;
  /** The npm script the patch removed, when that is the error. */
  causeScript?: string;
  /** Ids several test cases of the report shared (the report named no file). */
  dup?: string[];
  /** The first attempt, when the tier was retried (`retries`). */
  retried?: { verdict: Verdict; failed?: string[]; seconds: number };
}

/** A failed test as its JUnit report tells it: the file and line (when the report or its stack names them) and its message. */
export interface TestFailure {
  id: string;
  /** The title path (`math > adds`), without the file. */
  title: string;
  /** Repository-relative, when the report names a file inside the repository. */
  file?: string;
  line?: number;
  message: string;
}

export interface TestOutcome {
  /** File plus title path, normalized per runner (e.g. `test/a.test.ts::math > adds`). */
  id: string;
  outcome: 'pass' | 'fail' | 'skip';
}

/**
 * One line of `tests.jsonl` beside the ledger: one tier's per-test outcomes in one run, joinable with
 * the ledger rows on `run` + `tier`. `source: "seed"` / `"stryker"` lines are sensitivity evidence
 * (their `fail` tests caught a seeded bug or killed a mutant), never flakiness history.
 */
export interface TestRecord {
  ts: string;
  run: string;
  tier: string;
  hook: HookName;
  patch: string;
  source?: string;
  /** The tree the tier ran on (absent in records written before it was kept: `patch` stands for it). */
  tree?: string;
  /** A hash of the tier's command (history.ts `commandKey`): outcomes under another command are not the same code. */
  cmd?: string;
  /** 2 for a tier's retry (`retries: 1`). */
  attempt?: number;
  /** Ids that several test cases of the report shared (see junit.ts). */
  dup?: string[];
  /** Seed evidence: the seeded change (its parent's tree and its own), so a repeated seed credits nothing new. */
  change?: string;
  pass: string[];
  fail: string[];
  skip: string[];
  [extra: string]: unknown;
}

/** One entry of the committed `.gate-ladder/freezes.json`. */
export interface Freeze {
  test: string;
  /** The tier whose history made it eligible; it forgives failures in that tier only. Absent (older freezes): every tier. */
  tier?: string;
  flip_rate: number;
  runs: number;
  flips: number;
  /** Seeded bugs and mutants this test caught when it was frozen. */
  evidence: number;
  /** `Name <email>` from git config. */
  by: string;
  /** ISO time the freeze was made. */
  at: string;
  /** `YYYY-MM-DD`: from this day on the freeze no longer counts. */
  expires: string;
  /** What must be true to unfreeze (e.g. "passes 50 runs in a row after the retry fix"). */
  reentry: string;
}

/** One line of the ledger: one tier a patch reached. */
export interface LedgerRow {
  ts: string;
  run: string;
  hook: HookName;
  patch: string;
  base: string | null;
  ref?: string;
  tier: string;
  verdict: Verdict;
  seconds: number;
  exit: number | null;
  reason?: string;
  files: string[];
  /** Total changed paths; `files` holds at most the first 1000. */
  files_count: number;
  /** True when t0-scope skipped a tier of this run. */
  routed: boolean;
  /** Tiers t0-scope skipped in this run. */
  skipped?: string[];
  /** Tiers GATE_LADDER_SKIP kept from running in this run (not t0-scope's doing: the report can tell them apart). */
  skipped_by_env?: string[];
  /** Tiers skipped because no changed path matched their `{changed:GLOB}` (nothing for them to check). */
  skipped_no_changed?: string[];
  source?: string;
  /** Replay: `false` on the one `(apply)` row of a patch that did not apply; not a catch, not an error (docs/replay.md). */
  applied?: boolean;
  /** Replay: hash of the resolved config and mode a patch was replayed under; with `patch` and `base`, the resume key. */
  config_hash?: string;
  /** Replay: `network` when each gate ran without network access. */
  isolate?: 'network';
  isolation?: 'worktree' | 'none';
  calibration?: boolean;
  cached?: boolean;
  cache_run?: string;
  frozen?: string[];
  /** The first attempt of a tier retried (`retries: 1`): its verdict, failed tests (at most 100) and seconds. */
  retried?: { verdict: Verdict; failed?: string[]; seconds: number };
  /** Failed tests of this tier (at most the first 100); the full outcomes are in tests.jsonl. */
  failed?: string[];
  /**
   * A `caught` row: the failed tests that made it, where and what (from the JUnit report, else the runner's
   * output): at most the first 10, each message's first line cut to 200 characters.
   */
  failed_tests?: { id: string; file?: string; line?: number; message: string }[];
  /** Not written: per-test outcomes live in `tests.jsonl` beside the ledger (see TestRecord). */
  tests?: TestOutcome[];
  /** The runner profile that read the gate's output (the config's, or detected from the command). */
  runner?: RunnerName;
  /** Replay: `false` when the tier's command cannot run at this commit (its script or runner is absent): counted apart, like `applied: false`. */
  applicable?: boolean;
  /** An `error` row: `patch` when a file the change touched cannot load or the change removed the tier's script, else `harness` (docs/ledger.md). */
  error_cause?: ErrorCause;
  /** With `error_cause: 'patch'`: the changed file that failed (a test file, a config, package.json). */
  error_file?: string;
  /** Config `order: 'predicted'` or `select`: the order the run's tiers ran in (`fixed` when the history was too thin). */
  order?: 'fixed' | 'predicted';
  /** Why the listed order ran (`order: 'fixed'`): `config`, `calibration` or `history` (too few calibration runs). */
  order_why?: 'config' | 'calibration' | 'history';
  /** This tier's place in that order (1: first). */
  position?: number;
  /** This tier's predicted catch chance for the patch. */
  p?: number;
  /** Tiers `select` skipped in this run, and their predicted catches summed. */
  skipped_by_select?: string[];
  residual_risk?: number;
  [extra: string]: unknown;
}

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
