import { readFileSync, realpathSync, rmSync } from '../util/node.js';
import { basename, dirname, join } from 'node:path';
import { isAlive } from '../util/pid-lock.js';
import { processesIn } from '../util/proc.js';
import { signalQuietly } from '../util/spawn.js';
import { git, GitError, listWorktrees } from './git.js';

/** Earlier versions made a throwaway worktree per run at `<tmp>/gate-ladder-[purpose-]XXXXXX/wt`, its owner's pid beside it. */
const PREFIX = 'gate-ladder-';
const OWNER = 'owner.pid';

/** Our earlier throwaway worktrees live at `<tmp>/gate-ladder-[purpose-]XXXXXX/wt`. Pure. */
export function isOurs(path: string, tmp: string): boolean {
  const parent = dirname(path);
  return basename(path) === 'wt' && dirname(parent) === tmp && basename(parent).startsWith(PREFIX);
}

function readOwner(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Removes throwaway worktrees left by an earlier gate-ladder that was killed outright (SIGKILL, power
 * loss), each by its path (`git worktree remove` also takes one whose folder is gone). Called under the
 * pool's worktree lock. Never `git worktree prune`: the user's own stale worktree records are theirs
 * to prune, and another tool may be adding one at that moment.
 */
export function sweepStale(root: string): number {
  const tmp = realpathSync(process.getBuiltinModule('node:os').tmpdir());
  let removed = 0;
  for (const wt of listWorktrees(root)) {
    if (!isOurs(wt.path, tmp)) continue;
    const pid = Number(readOwner(join(dirname(wt.path), OWNER)));
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    git(root, ['worktree', 'remove', '--force', '--force', wt.path], { scrub: 'root' });
    rmSync(dirname(wt.path), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Tries at `git worktree add`: a `git worktree prune` run meanwhile (by the user, another tool) may delete its admin folder under it. */
const ADD_TRIES = 3;
/** git's message when the admin folder it just made was pruned before it wrote into it. Pure. */
export function lostAdminFolder(stderr: string): boolean {
  return /could not (open|create|write)[^\n]*worktrees\//.test(stderr) && /No such file or directory/.test(stderr);
}

/**
 * `git worktree add --no-checkout --detach --lock` at `dir`: registers the worktree and makes its
 * folder, writing no file (the caller checks out). Throws GitError when git cannot.
 */
export function addWorktreeRecord(root: string, dir: string, rev: string): void {
  // No hooks: a post-checkout hook (an `npm install`, say) has no business in a throwaway checkout.
  const args = ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--no-checkout', '--detach', '--quiet', '--lock', dir, rev];
  for (let tries = 1; ; tries++) {
    const r = git(root, args, { scrub: 'root' });
    if (r.ok) return;
    if (tries >= ADD_TRIES || !lostAdminFolder(r.stderr)) throw new GitError(args, r);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `git worktree remove` by path (twice --force: our worktrees are locked); works when the folder is gone. */
export function removeWorktreeRecord(root: string, dir: string): boolean {
  return git(root, ['worktree', 'remove', '--force', '--force', dir], { scrub: 'root' }).ok;
}

/** How long the git processes a killed run left in a slot are given to be gone once killed. */
const LEFT_GIT_WAIT_MS = 10_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Stops the git processes a run killed outright (kill -9 of the hook) left working in `dir`: a
 * checkout of thousands of files and its `checkout--worker`s go on writing into the slot, and a
 * clean, a checkout or a removal of the folder meanwhile fails (ENOTEMPTY) or leaves their files.
 * Each is killed, and this waits until none is left (a killed process's files are all written or not,
 * and the repair that follows puts the slot right). Called on a slot whose owner died while moving it,
 * under its lock: no live run works there. Returns how many were stopped. Linux only (/proc).
 */
export function stopLeftGit(dir: string): number {
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // gone: nothing can run in it
    return 0;
  }
  const stopped = new Set<number>();
  const until = Date.now() + LEFT_GIT_WAIT_MS;
  for (let left = processesIn(real, 'git'); left.length > 0 && Date.now() < until; left = processesIn(real, 'git')) {
    for (const pid of left) if (signalQuietly(pid, 'SIGKILL')) stopped.add(pid);
    Atomics.wait(pause, 0, 0, 10);
  }
  return stopped.size;
}
