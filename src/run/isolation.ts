import { withoutLocalGitEnv } from '../git/git.js';
import type { Slot } from '../slots/worktree-pool.js';
import type { Place } from './ladder.js';
import type { Isolation } from '../types.js';
import type { ResolvedTier } from '../config/resolved.js';
import { debugFor } from '../util/debug.js';

const sayCache = debugFor('cache');

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

/**
 * Why a work tree git calls clean cannot stand for the commit: entries `git status` does not compare
 * with their files (isolation then runs gates in a worktree, where every file is the commit's), or
 * `undefined` when there are none. Unknown counts (git could not list the index) count as some. Pure.
 */
export function hiddenReason(counts: { skipWorktree: number; assumeValid: number } | undefined): string | undefined {
  if (counts === undefined) return 'git could not say which tracked files it compares with the commit';
  const paths = (n: number) => (n === 1 ? '1 tracked path is' : `${n} tracked paths are`);
  if (counts.skipWorktree > 0)
    return `${paths(counts.skipWorktree)} skip-worktree (a sparse checkout, or \`git update-index --skip-worktree\`): git status does not compare them with the commit`;
  if (counts.assumeValid > 0)
    return `${paths(counts.assumeValid)} marked assume-unchanged: git status does not compare them with the commit`;
  return undefined;
}

export interface Placement {
  /** Where one tier runs; takes a slot of the worktree pool the first time a tier needs one. */
  place: (tier: ResolvedTier) => Place;
  /** Gives the slot back, if one was taken. */
  dispose: () => void;
}

/** The worktree pool's modules: loaded only by a run whose gates run in a slot. */
export type Pool = Awaited<ReturnType<typeof loadPool>>;

export async function loadPool() {
  const [{ acquireSlot }, { slotEnv }, { poolMsg }] = await Promise.all([
    import('../slots/worktree-pool.js'),
    import('../slots/dependency-links.js'),
    import('../slots/messages.js'),
  ]);
  return { acquireSlot, slotEnv, poolMsg };
}

/**
 * Lazily places tiers for one target. `rev` gives the commit to check out (called once, when needed),
 * in a slot of the repository's worktree pool (slots/worktree-pool.ts). A lint-staged tier always runs in
 * the repo itself: it hides unstaged changes on its own.
 */
export function placement(
  root: string,
  where: Where,
  rev: () => string,
  env: NodeJS.ProcessEnv,
  pool: { commonDir: string; log?: (line: string) => void },
  /** The pool's modules (`loadPool`), loaded before when `where` is a worktree. */
  slots?: Pool,
): Placement {
  let slot: Slot | undefined;
  const inPlace: Place = { cwd: root, isolation: 'none', env };
  return {
    place: (tier) => {
      if (where === 'none' || tier.lintStaged) return inPlace;
      if (slots === undefined) throw new Error('placement: a worktree was asked for without the pool loaded (loadPool)');
      const { acquireSlot, slotEnv, poolMsg } = slots;
      if (slot === undefined) {
        slot = acquireSlot(root, pool.commonDir, rev(), pool.log ? { log: pool.log } : {});
        sayCache?.(`worktree pool: slot ${slot.dir} ${slot.how === 'moved' ? 'reused (moved to the commit)' : slot.how}`);
        if (slot.how === 'repaired') pool.log?.(poolMsg.repaired(slot.dir));
        if (slot.how === 'remade') pool.log?.(poolMsg.remade(slot.dir));
        for (const note of slot.notes) pool.log?.(poolMsg.note(note));
      }
      return { cwd: slot.dir, isolation: 'worktree', env: slotEnv(slot.dir, withoutLocalGitEnv(env)) };
    },
    dispose: () => slot?.release(),
  };
}
