import { EMPTY_TREE, diffPaths, git, mergeBase, remoteHead, resolveCommit } from './git.js';
import { type PushRef, isZero, pushKind } from './push-refs.js';
import type { ChangedPath } from './types.js';

/** A pushed commit to test, with the range it is judged on. */
export interface Target {
  kind: 'test';
  ref: string;
  head: string;
  base: string;
  changes: ChangedPath[];
  /** How the base was chosen when it is not the plain merge-base; recorded in the rows. */
  note?: string;
  /** Other refs of this push that point at the same commit, tested once with this one. */
  sameAs?: string[];
}

/** A ref with nothing to test (a delete, or commits the remote already has). */
export interface Skip {
  kind: 'skip';
  ref: string;
  why: string;
}

/** A ref whose range cannot be computed; it blocks the push with a harness error. */
export interface RangeError {
  kind: 'error';
  ref: string;
  head: string;
  reason: string;
}

export type RefPlan = Target | Skip | RangeError;

export interface RangeContext {
  cwd: string;
  remote: string;
  /** A configured base revision for new branches (e.g. `origin/main`). */
  base?: string;
}

function isShallow(cwd: string): boolean {
  return git(cwd, ['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true';
}

/** Commits reachable from `head` that no ref of the remote has; the boundary gives the base. */
function newCommitsBase(cwd: string, remote: string, head: string): { none: boolean; base: string } {
  const out = git(cwd, ['rev-list', '--boundary', head, '--not', `--remotes=${remote}`]).stdout;
  const lines = out.split('\n').filter(Boolean);
  if (lines.length === 0) return { none: true, base: head };
  const boundary = lines.find((l) => l.startsWith('-'));
  return { none: lines.every((l) => l.startsWith('-')), base: boundary ? boundary.slice(1) : EMPTY_TREE };
}

function shallowError(ref: string, head: string): RangeError {
  return {
    kind: 'error',
    ref,
    head,
    reason: 'the base of this push is not in this shallow clone; run `git fetch --deepen=100` (or `git fetch --unshallow`) and push again',
  };
}

/** Decides what one pushed ref means: the commit to test and its base, or nothing to do. */
export function planRef(ref: PushRef, ctx: RangeContext): RefPlan {
  const name = ref.remoteRef;
  const kind = pushKind(ref);
  if (kind === 'delete') return { kind: 'skip', ref: name, why: 'deleting a remote ref: nothing to test' };
  const head = resolveCommit(ctx.cwd, ref.localSha);
  if (head === null) return { kind: 'skip', ref: name, why: 'does not point at a commit: nothing to test' };

  let base: string | null = null;
  let note: string | undefined;
  if (kind === 'update') {
    if (ref.remoteSha === ref.localSha) return { kind: 'skip', ref: name, why: 'the remote already has this commit' };
    if (resolveCommit(ctx.cwd, ref.remoteSha) !== null) {
      base = mergeBase(ctx.cwd, ref.remoteSha, head);
      if (base === null && isShallow(ctx.cwd)) return shallowError(name, head);
    } else {
      const tracking = name.startsWith('refs/heads/') ? `refs/remotes/${ctx.remote}/${name.slice(11)}` : undefined;
      const trackingSha = tracking ? resolveCommit(ctx.cwd, tracking) : null;
      if (tracking && trackingSha) {
        base = mergeBase(ctx.cwd, trackingSha, head);
        note = `remote sha ${ref.remoteSha.slice(0, 12)} is not in this clone (forced push?); base is the merge-base with ${tracking}`;
      }
    }
  }
  if (base === null) {
    const fresh = newCommitsBase(ctx.cwd, ctx.remote, head);
    if (fresh.none) return { kind: 'skip', ref: name, why: 'the remote already has every commit of this push' };
    const wanted = ctx.base ?? remoteHead(ctx.cwd, ctx.remote) ?? undefined;
    const wantedSha = wanted ? resolveCommit(ctx.cwd, wanted) : null;
    const mb = wantedSha ? mergeBase(ctx.cwd, wantedSha, head) : null;
    if (mb !== null && wanted) {
      base = mb;
      note ??= kind === 'new' ? undefined : `base is the merge-base with ${wanted}`;
    } else if (fresh.base === EMPTY_TREE && isShallow(ctx.cwd)) {
      return shallowError(name, head);
    } else {
      base = fresh.base;
      if (base === EMPTY_TREE) note ??= 'first push of this history: every file of the pushed tree';
    }
  }
  return { kind: 'test', ref: name, head, base, changes: diffPaths(ctx.cwd, base, head), ...(note && { note }) };
}

/** Plans every ref of a push; refs that point at the same commit are tested once. */
export function planPush(refs: readonly PushRef[], ctx: RangeContext): RefPlan[] {
  const plans: RefPlan[] = [];
  const byHead = new Map<string, Target>();
  for (const ref of refs) {
    const plan = planRef(ref, ctx);
    if (plan.kind === 'test') {
      const same = byHead.get(plan.head);
      if (same) {
        (same.sameAs ??= []).push(plan.ref);
        continue;
      }
      byHead.set(plan.head, plan);
    }
    plans.push(plan);
  }
  return plans;
}

export { isZero };
