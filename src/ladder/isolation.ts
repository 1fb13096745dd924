import { withoutLocalGitEnv } from '../git/git.js';
import type { Place } from './ladder.js';
import type { Isolation, ResolvedTier } from '../types.js';
import { type TempWorktree, addWorktree } from '../git/worktree.js';

export type Where = 'worktree' | 'none';

/**
 * Where gates judge a commit. `auto`: in a temporary worktree when the work tree is not exactly that commit
 * (tracked files changed, or another commit checked out); otherwise in place, which is faster. Pure.
 */
export function chooseIsolation(mode: Isolation, state: { dirty: boolean; atTarget: boolean }): Where {
  if (mode === 'none') return 'none';
  if (mode === 'worktree') return 'worktree';
  return state.dirty || !state.atTarget ? 'worktree' : 'none';
}

export interface Placement {
  /** Where one tier runs; makes the worktree the first time a tier needs it. */
  place: (tier: ResolvedTier) => Place;
  /** Removes the worktree, if one was made. */
  dispose: () => void;
}

/**
 * Lazily places tiers for one target. `rev` gives the commit to check out (called once, when needed).
 * A lint-staged tier always runs in the repo itself: it hides unstaged changes on its own.
 */
export function placement(root: string, where: Where, rev: () => string, env: NodeJS.ProcessEnv): Placement {
  let wt: TempWorktree | undefined;
  const inPlace: Place = { cwd: root, isolation: 'none', env };
  return {
    place: (tier) => {
      if (where === 'none' || tier.lintStaged) return inPlace;
      wt ??= addWorktree(root, rev());
      return { cwd: wt.dir, isolation: 'worktree', env: withoutLocalGitEnv(env) };
    },
    dispose: () => wt?.remove(),
  };
}
