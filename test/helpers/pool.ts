/** The worktree pool as tests see it: slots in the pool's folder (outside .git), apart from the user's worktrees. */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { poolDir as pool } from '../../src/slots/worktree-pool.js';
import { type Repo, sh } from './repo.js';

/** The pool's folder, as the CLI finds it (GATE_LADDER_WORKTREES, which scripts/test.mjs points into the tests' temp folder). */
export const poolDir = (repo: Repo): string => pool(join(realpathSync(repo.dir), '.git'));

const inPool = (repo: Repo, p: string) => dirname(p) === poolDir(repo);

/** Every worktree git lists for the repo, as paths. */
export const worktreePaths = (repo: Repo): string[] =>
  (repo.gitOk('worktree', 'list', '--porcelain').match(/^worktree .*/gm) ?? []).map((l) => l.slice('worktree '.length));

/** The worktrees the user has: everything but gate-ladder's pool slots. */
export const userWorktrees = (repo: Repo): string[] => worktreePaths(repo).filter((p) => !inPool(repo, p));

/** The pool's slots git knows. */
export const poolSlots = (repo: Repo): string[] => worktreePaths(repo).filter((p) => inPool(repo, p));

/** A slot no run holds: its lock file is gone. */
export const slotFree = (dir: string): boolean => !existsSync(`${dir}.lock`);

/** Lock files still in the pool folder. */
export const poolLocks = (repo: Repo): string[] =>
  existsSync(poolDir(repo)) ? readdirSync(poolDir(repo)).filter((f) => f.endsWith('.lock')) : [];

/** What `git status` finds in a slot, untracked and ignored files included, but the dependency links gate-ladder made (`node_modules`). */
export const slotDirt = (dir: string): string[] =>
  sh('git', ['status', '--porcelain', '--ignored', '--untracked-files=all'], dir)
    .stdout.split('\n')
    .filter((l) => l !== '' && !/^(!!|\?\?) node_modules(\/|$)/.test(l));

/** Whether `dir` is a slot of the repo's pool. */
export const isSlot = (repo: Repo, dir: string): boolean => dirname(dir) === poolDir(repo) && /^slot-\d+$/.test(basename(dir));
