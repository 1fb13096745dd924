/**
 * One line of the ledger (docs/ledger.md) and the words it records: a verdict and whose fault an error
 * is. The ledger owns the row's shape; the run makes rows (run/rows.ts), the report and replay read them.
 * Per-test outcomes are not in the row: they live in `tests.jsonl` beside it (evidence/history.ts `TestRecord`).
 */
import type { RunnerName } from '../config/runner-names.js';
import type { HookName } from '../types.js';

/** What a gate concluded. `caught`: the patch is wrong. `error`: the harness could not give a verdict. */
export type Verdict = 'pass' | 'caught' | 'error';

/** Whose fault an `error` is: the patch's (a file it changed cannot load, the tier's script it removed) or the harness's (the tier, its config, what it needs). */
export type ErrorCause = 'patch' | 'harness';

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
  /**
   * Failed tests of this tier (at most the first 100): every one its JUnit report lists, else, on a `caught` row,
   * those the runner's output names (at most 50 are read); the full outcomes of a report are in tests.jsonl.
   */
  failed?: string[];
  /** More tests failed than `failed` lists: how many (the runner's summary's count, or the report's). */
  failed_total?: number;
  /**
   * A `caught` row: the failed tests that made it, where and what (from the JUnit report, else the runner's
   * output): at most the first 10, each message's first line cut to 200 characters.
   */
  failed_tests?: { id: string; file?: string; line?: number; message: string }[];
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
