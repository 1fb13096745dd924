import { randomBytes } from 'node:crypto';
import { diffList, git, stagedPaths } from '../git/git.js';
import { type LadderDeps, runLadder } from '../ladder/ladder.js';
import type { ReplayPatch } from './inputs.js';
import { type Matcher, route } from '../ladder/route.js';
import type { Changes, GateResult, LedgerRow, ResolvedConfig, TestRecord } from '../types.js';
import { addWorktree, type TempWorktree } from '../git/worktree.js';

/** The tier name of the one row a patch that does not apply gets (see docs/replay.md). */
export const APPLY_TIER = '(apply)';

export type PatchStatus = 'pass' | 'caught' | 'error' | 'not-applied' | 'interrupted';

/** What replaying one patch did. Always filled in; rows are what went to the ledger. */
export interface PatchOutcome {
  patch: ReplayPatch;
  status: PatchStatus;
  rows: LedgerRow[];
  results: GateResult[];
  stoppedBy?: GateResult;
  /** Why the patch did not apply. */
  reason?: string;
  seconds: number;
}

export interface ReplayContext {
  root: string;
  config: ResolvedConfig;
  match: Matcher;
  /** The resume key's config part, stamped on every row. */
  configHash: string;
  calibrate: boolean;
  isolate?: 'network';
  /** The ladder's dependencies; `appendRows` receives one patch's rows in one call, then `reports.record` its tests. */
  deps: LadderDeps;
  interrupted: () => boolean;
}

/** The row of a patch that did not apply: counted apart, never a catch, never a tier's error. Pure. */
export function notAppliedRow(patch: ReplayPatch, reason: string, seconds: number, ctx: Pick<ReplayContext, 'configHash' | 'calibrate' | 'isolate'>, run: string, now: Date): LedgerRow {
  return {
    ts: now.toISOString(),
    run,
    hook: 'replay',
    patch: patch.id,
    base: patch.base,
    tier: APPLY_TIER,
    verdict: 'error',
    applied: false,
    seconds,
    exit: null,
    reason: `does not apply onto ${patch.base.slice(0, 12)}: ${reason}`,
    files: [],
    files_count: 0,
    routed: false,
    source: 'replay',
    isolation: 'worktree',
    config_hash: ctx.configHash,
    ...(ctx.isolate && { isolate: ctx.isolate }),
    ...(ctx.calibrate && { calibration: true }),
  };
}

function firstLines(text: string): string {
  return text.trim().split('\n').filter((l) => !/^(hint|warning):/.test(l)).slice(0, 2).join(' / ') || 'git apply failed';
}

/**
 * One patch, as a push would judge it: a throwaway worktree at its base, the patch applied (files) or
 * checked out (commits), routed and run through the same ladder with hook `replay`. Its rows reach
 * the ledger in one append after the ladder, and its per-test records after them: a patch interrupted
 * half-way leaves neither, and is replayed again next time. The worktree is removed whatever happens.
 */
export async function replayPatch(patch: ReplayPatch, ctx: ReplayContext): Promise<PatchOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started) / 1000;
  const runId = randomBytes(6).toString('hex');
  const empty = { patch, rows: [], results: [] };
  let wt: TempWorktree | undefined;
  try {
    wt = addWorktree(ctx.root, patch.kind === 'commit' ? patch.id : patch.base);
    let changes: Changes;
    if (patch.kind === 'file') {
      const applied = git(wt.dir, ['apply', '--index', '--whitespace=nowarn', patch.file]);
      if (!applied.ok) {
        if (ctx.interrupted()) return { ...empty, status: 'interrupted', seconds: elapsed() };
        const reason = firstLines(applied.stderr);
        const row = notAppliedRow(patch, reason, elapsed(), ctx, runId, ctx.deps.now());
        ctx.deps.appendRows([row]);
        return { ...empty, status: 'not-applied', rows: [row], reason, seconds: row.seconds };
      }
      changes = stagedPaths(wt.dir);
    } else {
      changes = diffList(ctx.root, patch.base, patch.id);
    }
    if (ctx.interrupted()) return { ...empty, status: 'interrupted', seconds: elapsed() };

    const plan = route(changes, ctx.config.tiers, ctx.match, 'replay');
    const held: LedgerRow[] = [];
    const heldTests: [TestRecord, string][] = [];
    const reports = ctx.deps.reports && { ...ctx.deps.reports, record: (rec: TestRecord, cwd: string) => void heldTests.push([rec, cwd]) };
    const outcome = await runLadder(
      {
        plan,
        runId,
        hook: 'replay',
        patch: patch.id,
        base: patch.base,
        cwd: wt.dir,
        isolation: 'worktree',
        source: 'replay',
        ...(ctx.calibrate && { calibration: true }),
      },
      { ...ctx.deps, appendRows: (rows) => held.push(...rows), ...(reports && { reports }) },
    );
    if (ctx.interrupted()) return { ...empty, status: 'interrupted', results: outcome.results, seconds: elapsed() };
    const rows = held.map((row) => ({ ...row, config_hash: ctx.configHash, ...(ctx.isolate && { isolate: ctx.isolate }) }));
    ctx.deps.appendRows(rows);
    for (const [rec, cwd] of heldTests) await ctx.deps.reports?.record(rec, cwd);
    return {
      patch,
      status: outcome.verdict,
      rows,
      results: outcome.results,
      ...(outcome.stoppedBy && { stoppedBy: outcome.stoppedBy }),
      seconds: elapsed(),
    };
  } finally {
    wt?.remove();
  }
}
