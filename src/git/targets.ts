import { EMPTY_TREE, isShallow, newCommits, remoteHead } from './git.js';
import { type GitFacts, commitIn, diffIn, mergeBaseIn } from './facts.js';
import { type PushRef, pushKind } from './push-refs.js';
import type { Changes } from './change-list.js';

/** A pushed commit to test, with the range it is judged on. */
export interface Target {
  kind: 'test';
  ref: string;
  head: string;
  /** The commit (or, for a first push, the empty tree) the changes are taken from. */
  base: string;
  changes: Changes;
  /** How the base was chosen when it is not the plain merge-base; recorded in the rows' `reason`. */
  note?: string;
  /** Other refs of this push that point at the same commit, tested once with this one. */
  sameAs?: string[];
  /** A manual run's base as named (`--base`, the config's `base`, or origin/HEAD's branch), and whether `base` is its commit or the merge-base with the head. */
  baseName?: { rev: string; mergeBase: boolean };
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
  /** The remote's name as git passes it to pre-push. */
  remote: string;
  /**
   * A configured base revision for new branches (e.g. `origin/main`), or, when each pushed commit is
   * judged under its own config, the one that commit's config names.
   */
  base?: string | ((head: string) => string | undefined);
}

/** The questions planning asks of the repository; `rangeGit(facts)` answers them from the run's git facts, else git; tests with a fake. */
export interface RangeGit {
  /** The commit a revision or sha names (tags peeled), or null when it is not in this clone. */
  commit: (rev: string) => string | null;
  mergeBase: (a: string, b: string) => string | null;
  shallow: () => boolean;
  /** Commits of `head` no remote-tracking ref of `remote` has, and the commits they meet those refs at. */
  newCommits: (head: string, remote: string) => { commits: string[]; boundary: string[] };
  /** `refs/remotes/<remote>/HEAD`'s target, e.g. `refs/remotes/origin/main`. */
  remoteHead: (remote: string) => string | null;
  diff: (base: string, head: string) => Changes;
}

export function rangeGit(facts: GitFacts): RangeGit {
  const cwd = facts.repo.root;
  let shallow: boolean | undefined;
  return {
    commit: (rev) => commitIn(facts, rev),
    mergeBase: (a, b) => mergeBaseIn(facts, a, b),
    shallow: () => (shallow ??= isShallow(cwd)),
    newCommits: (head, remote) => newCommits(cwd, head, remote),
    remoteHead: (remote) => remoteHead(cwd, remote),
    diff: (base, head) => diffIn(facts, base, head),
  };
}

const short = (sha: string) => sha.slice(0, 12);
const join = (...notes: (string | undefined)[]) => notes.filter(Boolean).join('; ') || undefined;

export const SHALLOW_REASON =
  'the base of this push is not in this shallow clone; run `git fetch --deepen=100` (or `git fetch --unshallow`) and push again';

function skip(ref: string, why: string): Skip {
  return { kind: 'skip', ref, why };
}

/** Decides what one pushed ref means: the commit to test and its base, nothing to do, or a range error. */
export function planRef(ref: PushRef, ctx: RangeContext, g: RangeGit): RefPlan {
  const name = ref.remoteRef;
  const kind = pushKind(ref);
  if (kind === 'delete') return skip(name, 'deleting a remote ref: nothing to test');
  const head = g.commit(ref.localSha);
  if (head === null) return skip(name, 'does not point at a commit: nothing to test');
  const test = (base: string, note?: string): Target => ({
    kind: 'test',
    ref: name,
    head,
    base,
    changes: g.diff(base, head),
    ...(note && { note }),
  });
  const shallowError = (): RangeError => ({ kind: 'error', ref: name, head, reason: SHALLOW_REASON });

  let note: string | undefined;
  if (kind === 'update') {
    const remote = g.commit(ref.remoteSha);
    if (remote === head) return skip(name, 'the remote already has this commit');
    if (remote !== null) {
      const base = g.mergeBase(remote, head);
      if (base === head) return skip(name, 'the remote already has this commit (the ref moves back)');
      if (base !== null) return test(base);
      if (g.shallow()) return shallowError();
      note = `${short(remote)} (on the remote) shares no history with this commit`;
    } else {
      // A forced push over commits this clone never fetched.
      note = `remote sha ${short(ref.remoteSha)} is not in this clone (forced push?)`;
      const tracking = name.startsWith('refs/heads/') ? `refs/remotes/${ctx.remote}/${name.slice('refs/heads/'.length)}` : undefined;
      const trackingSha = tracking ? g.commit(tracking) : null;
      const base = trackingSha ? g.mergeBase(trackingSha, head) : null;
      if (base !== null) return test(base, `${note}; base is the merge-base with ${tracking}`);
    }
  }

  // A new ref, or an update whose own base could not be used: judge what the remote does not have yet.
  const fresh = g.newCommits(head, ctx.remote);
  if (fresh.commits.length === 0) return skip(name, 'the remote already has every commit of this push');
  const wanted = (typeof ctx.base === 'function' ? ctx.base(head) : ctx.base) ?? g.remoteHead(ctx.remote) ?? undefined;
  const wantedSha = wanted ? g.commit(wanted) : null;
  const base = wantedSha ? g.mergeBase(wantedSha, head) : null;
  if (base !== null) return test(base, join(note, kind === 'new' ? undefined : `base is the merge-base with ${wanted}`));
  const meet = fresh.boundary[0];
  if (meet === undefined) {
    // No commit of this history is on the remote: a first push, unless a shallow clone hides the base.
    if (g.shallow()) return shallowError();
    return test(EMPTY_TREE, join(note, 'first push of this history: every file of the pushed tree'));
  }
  return test(meet, join(note, `base is ${short(meet)}, where this push meets commits the remote has`));
}

/** Plans every ref of a push; refs that point at the same commit are tested once. */
export function planPush(refs: readonly PushRef[], ctx: RangeContext, g: RangeGit): RefPlan[] {
  const plans: RefPlan[] = [];
  const byHead = new Map<string, Target>();
  for (const ref of refs) {
    const plan = planRef(ref, ctx, g);
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
