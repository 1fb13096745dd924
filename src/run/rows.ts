/**
 * The ledger row of a tier a run reached: what the ladder appends after each gate, and what a push the
 * tree cache passes appends without running one (so a cached push loads no gate machinery). Pure.
 */
import { MAX_FAILED_PER_ROW, MAX_FAILED_TESTS_PER_ROW, MAX_FILES_PER_ROW } from '../config/defaults.js';
import { isoTime } from '../util/iso-time.js';
import type { HookName } from '../types.js';
import type { GateResult } from '../gates/result.js';
import type { LedgerRow } from '../ledger/row.js';
import type { Plan } from '../route/route.js';
import type { TestFailure } from '../evidence/junit.js';

export { MAX_FAILED_PER_ROW };

/** What the ladder is handed for one patch, and what each of its rows records of it. */
export interface LadderInput {
  plan: Plan;
  runId: string;
  hook: HookName;
  patch: string;
  base: string | null;
  ref?: string;
  /** Where the gates run: the repo root or a temporary worktree. */
  cwd: string;
  /** The repository's root when `cwd` is a worktree slot (replay, judge): the paths the output names are written as its. */
  repo?: string;
  isolation: 'worktree' | 'none';
  /** Run every planned tier regardless of earlier verdicts; rows are flagged and never count in yield. */
  calibration?: boolean;
  /** Run every planned tier whatever the verdicts, without flagging the rows (seeded bugs). */
  runAll?: boolean;
  source?: string;
  /** Note recorded in every row's `reason` (e.g. how the base was chosen). */
  note?: string;
}

/** One ledger row for a tier the patch reached. Pure. */
export function toRow(input: LadderInput, result: GateResult, skipped: string[], now: Date): LedgerRow {
  const files = input.plan.files;
  const reason = [result.reason, input.note].filter(Boolean).join('; ');
  const byEnv = input.plan.tiers.filter((t) => t.skip === 'env').map((t) => t.tier.name);
  const noChanged = input.plan.tiers.filter((t) => t.skip === 'changed' || t.skip === 'paths').map((t) => t.tier.name);
  return {
    ts: isoTime(now.getTime()),
    run: input.runId,
    hook: input.hook,
    patch: input.patch,
    base: input.base,
    ...(input.ref !== undefined && { ref: input.ref }),
    tier: result.tier,
    verdict: result.verdict,
    seconds: result.seconds,
    exit: result.exitCode,
    ...(reason && { reason }),
    files: files.length > MAX_FILES_PER_ROW ? files.slice(0, MAX_FILES_PER_ROW) : [...files],
    files_count: input.plan.fileCount,
    routed: skipped.length > 0,
    ...(skipped.length > 0 && { skipped }),
    ...(byEnv.length > 0 && { skipped_by_env: byEnv }),
    ...(noChanged.length > 0 && { skipped_no_changed: noChanged }),
    ...(input.source !== undefined && { source: input.source }),
    isolation: input.isolation,
    ...(input.calibration && { calibration: true }),
    ...(result.frozen && result.frozen.length > 0 && { frozen: result.frozen }),
    ...(result.retried && { retried: result.retried }),
    // Per-test outcomes go to tests.jsonl (joined on run + tier), keeping the ledger small.
    ...failedIds(result),
    ...(result.verdict === 'caught' && result.failures && result.failures.length > 0 && { failed_tests: rowFailures(result.failures) }),
    ...(result.runner?.runner && { runner: result.runner.runner }),
    ...(result.inapplicable && { applicable: false }),
    ...(result.verdict === 'error' && result.cause !== undefined && { error_cause: result.cause }),
    ...(result.verdict === 'error' && result.causeFile !== undefined && { error_file: result.causeFile }),
    ...orderFields(input.plan, result.tier),
  };
}

const MAX_ROW_MESSAGE = 200;

/**
 * A row's `failed`: the failed tests' ids, at most MAX_FAILED_PER_ROW: its report's (every failed or errored
 * test, frozen ones too), else, on a catch, those its runner's output named; with `failed_total` when more
 * failed than the list holds (the runner's count, or the report's). Pure.
 */
function failedIds(result: GateResult): Pick<LedgerRow, 'failed' | 'failed_total'> {
  const ids = result.failed ?? (result.verdict === 'caught' ? result.failures?.map((f) => f.id) : undefined) ?? [];
  if (ids.length === 0) return {};
  const total = Math.max(ids.length, result.failed === undefined ? (result.failuresTotal ?? 0) : 0);
  return {
    failed: ids.slice(0, MAX_FAILED_PER_ROW),
    ...(total > Math.min(ids.length, MAX_FAILED_PER_ROW) && { failed_total: total }),
  };
}

/** A row's `failed_tests`: the first few, each message's first line, cut. Pure. */
function rowFailures(failures: readonly TestFailure[]): NonNullable<LedgerRow['failed_tests']> {
  return failures.slice(0, MAX_FAILED_TESTS_PER_ROW).map((f) => {
    const first = (f.message.split('\n')[0] ?? '').trim();
    return {
      id: f.id,
      ...(f.file !== undefined && { file: f.file }),
      ...(f.line !== undefined && { line: f.line }),
      message: first.length > MAX_ROW_MESSAGE ? `${first.slice(0, MAX_ROW_MESSAGE - 1)}…` : first,
    };
  });
}

/** Config `order: 'predicted'` or `select`: the order the ladder ran in, this tier's place in it and predicted catch, what selection skipped. */
function orderFields(plan: Plan, tier: string): Partial<LedgerRow> {
  const o = plan.order;
  if (o === undefined) return {};
  const running = plan.tiers.filter((t) => t.run);
  const at = running.findIndex((t) => t.tier.name === tier);
  const p = running[at]?.p;
  return {
    order: o.order,
    ...(o.because !== undefined && { order_why: o.because }),
    ...(at >= 0 && { position: at + 1 }),
    ...(p !== undefined && { p: Number(p.toPrecision(4)) }),
    ...(o.selected && o.selected.skipped.length > 0 && { skipped_by_select: o.selected.skipped, residual_risk: o.selected.residual }),
  };
}
