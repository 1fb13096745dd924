import { slotEnv } from '../git/dependency-links.js';
import { withoutLocalGitEnv } from '../git/git.js';
import { poolMsg } from '../util/messages.js';
import type { Place } from './ladder.js';
import type { Isolation, ResolvedTier } from '../types.js';
import { type Slot, acquireSlot } from '../git/worktree-pool.js';

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
  /** Where one tier runs; takes a slot of the worktree pool the first time a tier needs one. */
  place: (tier: ResolvedTier) => Place;
  /** Gives the slot back, if one was taken. */
  dispose: () => void;
}

/**
 * Lazily places tiers for one target. `rev` gives the commit to check out (called once, when needed),
 * in a slot of the repository's worktree pool (git/worktree-pool.ts). A lint-staged tier always runs in
 * the repo itself: it hides unstaged changes on its own.
 */
export function placement(root: string, where: Where, rev: () => string, env: NodeJS.ProcessEnv, pool: { commonDir: string; log?: (line: string) => void }): Placement {
  let slot: Slot | undefined;
  const inPlace: Place = { cwd: root, isolation: 'none', env };
  return {
    place: (tier) => {
      if (where === 'none' || tier.lintStaged) return inPlace;
      if (slot === undefined) {
        slot = acquireSlot(root, pool.commonDir, rev(), pool.log ? { log: pool.log } : {});
        if (slot.how === 'repaired') pool.log?.(poolMsg.repaired(slot.dir));
        if (slot.how === 'remade') pool.log?.(poolMsg.remade(slot.dir));
        for (const note of slot.notes) pool.log?.(poolMsg.note(note));
      }
      return { cwd: slot.dir, isolation: 'worktree', env: slotEnv(slot.dir, withoutLocalGitEnv(env)) };
    },
    dispose: () => slot?.release(),
  };
}
