import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitOk } from './git.js';

/** Dependency folders a gate needs but git does not track; linked into a temporary worktree. */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv', '.tox'] as const;

export interface TempWorktree {
  dir: string;
  /** Removes the worktree and its folder; safe to call twice. */
  remove: () => void;
}

const live = new Set<TempWorktree>();
let hooked = false;

/** On Ctrl-C or exit, every temporary worktree still registered is removed. */
function hookCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const wt of [...live]) wt.remove();
  });
}

/**
 * A detached worktree at `rev` in a temp folder, with the repo's dependency folders linked in,
 * so gates judge exactly that commit, never the user's working tree.
 */
export function addWorktree(root: string, rev: string, prefix = 'gate-ladder-'): TempWorktree {
  hookCleanup();
  const parent = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(parent, 'wt');
  try {
    // No hooks: a post-checkout hook must not run for a commit the gates are about to judge.
    gitOk(root, ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--quiet', dir, rev]);
  } catch (err) {
    rmSync(parent, { recursive: true, force: true });
    git(root, ['worktree', 'prune']);
    throw err;
  }
  for (const name of DEPENDENCY_DIRS) {
    const from = join(root, name);
    if (existsSync(from) && !existsSync(join(dir, name))) symlinkSync(from, join(dir, name), 'dir');
  }
  let removed = false;
  const wt: TempWorktree = {
    dir,
    remove: () => {
      if (removed) return;
      removed = true;
      live.delete(wt);
      git(root, ['worktree', 'remove', '--force', dir]);
      rmSync(parent, { recursive: true, force: true });
      git(root, ['worktree', 'prune']);
    },
  };
  live.add(wt);
  return wt;
}
