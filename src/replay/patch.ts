import { randomBytes } from 'node:crypto';
import { readFileSync } from '../util/node.js';
import { type ApplyFailure, applyFailure, normalizedPatch } from './apply-reason.js';
import { diffList, git, stagedPaths, textAt } from '../git/git.js';
import { type LadderDeps, runLadder } from '../run/ladder.js';
import type { ReplayPatch } from './inputs.js';
import { type Matcher, route, type Plan } from '../route/route.js';
import type { Changes } from '../git/change-list.js';
import type { ErrorCause, LedgerRow } from '../ledger/row.js';
import type { GateResult } from '../gates/result.js';
import type { ResolvedConfig } from '../config/resolved.js';
import type { TestRecord } from '../evidence/history.js';
import { type Slot, acquireSlot } from '../slots/worktree-pool.js';
import { pathIntoLinks, slotEnv } from '../slots/dependency-links.js';
import { patchPaths } from '../git/patch-paths.js';
import { patchLinkOut } from '../git/patch-links.js';
import { poolMsg } from '../slots/messages.js';

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
  /** Not applied because of what it writes (into a dependency folder, a symlink leading out), not because git could not apply it. */
  refused?: boolean;
  /** It did not apply because of its base (its context or files are not the base's), not because it is malformed. */
  baseLikely?: boolean;
  /** The ladder's plan for it (which tiers run, which t0-scope skipped and why), once it applied. */
  plan?: Plan;
  seconds: number;
}

export interface ReplayContext {
  root: string;
  /** The git common dir: where the worktree pool lives. */
  commonDir: string;
  config: ResolvedConfig;
  match: Matcher;
  /** The resume key's config part, stamped on every row. */
  configHash: string;
  calibrate: boolean;
  isolate?: 'network';
  /**
   * The rows' hook and source (default `replay`). `judge`: one candidate patch judged as a push would judge
   * it (routed by the tiers a push runs, `pre-push`), its rows told apart from a replayed corpus's.
   */
  hook?: 'replay' | 'judge';
  /** The ladder's dependencies; `appendRows` receives one patch's rows in one call, then `reports.record` its tests. */
  deps: LadderDeps;
  interrupted: () => boolean;
}

/** The row of a patch that did not apply: counted apart, never a catch, never a tier's error. Pure. */
export function notAppliedRow(
  patch: ReplayPatch,
  reason: string,
  seconds: number,
  ctx: Pick<ReplayContext, 'configHash' | 'calibrate' | 'isolate' | 'hook'>,
  run: string,
  now: Date,
  refused = false,
  cause?: ErrorCause,
): LedgerRow {
  return {
    ts: now.toISOString(),
    run,
    hook: ctx.hook ?? 'replay',
    patch: patch.id,
    base: patch.base,
    tier: APPLY_TIER,
    verdict: 'error',
    applied: false,
    seconds,
    exit: null,
    reason: `${refused ? 'not applied' : 'does not apply'} onto ${patch.base.slice(0, 12)}: ${reason}`,
    ...(cause !== undefined && { error_cause: cause }),
    files: [],
    files_count: 0,
    routed: false,
    source: ctx.hook ?? 'replay',
    isolation: 'worktree',
    config_hash: ctx.configHash,
    ...(ctx.isolate && { isolate: ctx.isolate }),
    ...(ctx.calibrate && { calibration: true }),
  };
}

/**
 * Applies a patch file to the slot's index and files, as agents hand patches over: as it is, else with its
 * line ends made LF, a final newline added and each hunk's line counts recounted (`--recount`: a model's
 * hunk headers are often off by a line), and a `diff -u` without git's header with its paths as written
 * (`-p0`). git apply changes nothing when it fails. Undefined when applied;
 * else why not (the first attempt's reason, or the second's when the patch needed mending).
 */
function applyPatchFile(dir: string, file: string): ApplyFailure | undefined {
  const args = ['apply', '--index', '--whitespace=nowarn'];
  const first = git(dir, [...args, file]);
  if (first.ok) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return applyFailure(first.stderr, '');
  }
  const mended = normalizedPatch(text);
  const second = git(dir, [...args, '--recount'], mended ?? text);
  if (second.ok) return undefined;
  // `diff -u src/a.js.orig src/a.js` names the paths as they are (git strips one folder from a diff without git's header).
  if (!/^diff --git /m.test(text) && git(dir, [...args, '--recount', '-p0'], mended ?? text).ok) return undefined;
  return mended !== undefined ? applyFailure(second.stderr, mended) : applyFailure(first.stderr, text);
}

/** Why a patch file must not be applied in `slot`: it writes where a dependency folder will be linked. Undefined when it may. */
function refusal(slot: Slot, file: string): string | undefined {
  const paths = patchPaths(slot.dir, file);
  if (paths === null) return undefined;
  const links = slot.linkPaths();
  const path = pathIntoLinks(paths, links);
  if (path === undefined) return undefined;
  return poolMsg.intoLinks(path, links.find((l) => path === l || path.startsWith(`${l}/`))!);
}

/** Why the patch now in `dir` must not run: a symlink it adds leads out of the work tree (git/patch-links.ts). Undefined when none does. */
function linkRefusal(dir: string, base: string): { reason: string; cause: ErrorCause } | undefined {
  const out = patchLinkOut(dir, base);
  if (out === undefined) return undefined;
  if (out === null) return { reason: poolMsg.linksUnread('git diff-index failed'), cause: 'harness' };
  return { reason: poolMsg.linkOut(out.path, out.target, out.via), cause: 'patch' };
}

/**
 * One patch, as a push would judge it: a slot of the worktree pool at its base, the patch applied
 * (files) or checked out (commits), routed and run through the same ladder with hook `replay`. A patch
 * file that writes into a dependency folder is refused (`applied: false`), and so is a patch (file or
 * commit) that adds a symlink leading out of the work tree, before any gate runs; the slot's dependency folders
 * are its own copies (slots/dependency-links.ts), checked and copied again if need be after the patch is
 * applied, so neither a patch nor its tests reach the checkout's real `node_modules` or `.venv`. Its rows reach the ledger in one append after the ladder, and its
 * per-test records after them: a patch interrupted half-way leaves neither, and is replayed again next
 * time. The slot is given back whatever happens.
 */
export async function replayPatch(patch: ReplayPatch, ctx: ReplayContext): Promise<PatchOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started) / 1000;
  const runId = randomBytes(6).toString('hex');
  const empty = { patch, rows: [], results: [] };
  let slot: Slot | undefined;
  try {
    slot = acquireSlot(ctx.root, ctx.commonDir, patch.kind === 'commit' ? patch.id : patch.base, { link: patch.kind === 'commit' });
    let changes: Changes;
    const notApplied = (reason: string, refused: boolean, cause?: ErrorCause): PatchOutcome => {
      const row = notAppliedRow(patch, reason, elapsed(), ctx, runId, ctx.deps.now(), refused, cause);
      ctx.deps.appendRows([row]);
      return { ...empty, status: 'not-applied', rows: [row], reason, seconds: row.seconds, ...(refused && { refused }) };
    };
    if (patch.kind === 'file') {
      const refused = refusal(slot, patch.file);
      const failed = refused === undefined ? applyPatchFile(slot.dir, patch.file) : { reason: refused, baseLikely: false };
      if (failed !== undefined) {
        if (ctx.interrupted()) return { ...empty, status: 'interrupted', seconds: elapsed() };
        if (refused !== undefined) return notApplied(refused, true, 'patch');
        return { ...notApplied(failed.reason, false), baseLikely: failed.baseLikely };
      }
    }
    // The patch's tree is in the slot (applied, or its commit checked out): a symlink it adds that leads out refuses it.
    const linkOut = linkRefusal(slot.dir, patch.base);
    if (linkOut !== undefined) {
      if (ctx.interrupted()) return { ...empty, status: 'interrupted', seconds: elapsed() };
      return notApplied(linkOut.reason, true, linkOut.cause);
    }
    if (patch.kind === 'file') {
      slot.link();
      changes = stagedPaths(slot.dir);
    } else {
      changes = diffList(ctx.root, patch.base, patch.id);
    }
    if (ctx.interrupted()) return { ...empty, status: 'interrupted', seconds: elapsed() };

    const hook = ctx.hook ?? 'replay';
    const plan = route(changes, ctx.config.tiers, ctx.match, hook === 'judge' ? 'pre-push' : 'replay');
    const held: LedgerRow[] = [];
    const heldTests: [TestRecord, string][] = [];
    const reports = ctx.deps.reports && { ...ctx.deps.reports, record: (rec: TestRecord, cwd: string) => void heldTests.push([rec, cwd]) };
    const outcome = await runLadder(
      {
        plan,
        runId,
        hook,
        patch: patch.id,
        base: patch.base,
        cwd: slot.dir,
        repo: ctx.root,
        isolation: 'worktree',
        source: hook,
        ...(ctx.calibrate && { calibration: true }),
      },
      {
        ...ctx.deps,
        env: slotEnv(slot.dir, ctx.deps.env),
        appendRows: (rows) => held.push(...rows),
        ...(reports && { reports }),
        // A script the patch removed is its error; one the base never had is "not applicable" (verdict/fault.ts).
        atBase: (path) => textAt(ctx.root, patch.base, path),
      },
    );
    if (ctx.interrupted()) return { ...empty, status: 'interrupted', results: outcome.results, plan, seconds: elapsed() };
    const rows = held.map((row) => ({ ...row, config_hash: ctx.configHash, ...(ctx.isolate && { isolate: ctx.isolate }) }));
    ctx.deps.appendRows(rows);
    for (const [rec, cwd] of heldTests) await ctx.deps.reports?.record(rec, cwd);
    return {
      patch,
      status: outcome.verdict,
      rows,
      results: outcome.results,
      ...(outcome.stoppedBy && { stoppedBy: outcome.stoppedBy }),
      plan,
      seconds: elapsed(),
    };
  } finally {
    slot?.release();
  }
}
