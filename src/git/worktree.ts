import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { git, GitError, listWorktrees } from './git.js';

/** Dependency folders a gate needs but git does not track; made usable in a temporary worktree. */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv', '.tox'] as const;

const PREFIX = 'gate-ladder-';
const OWNER = 'owner.pid';

export interface TempWorktree {
  dir: string;
  /** Removes the worktree and its folder; safe to call twice. */
  remove: () => void;
}

const live = new Set<TempWorktree>();
let hooked = false;

/** On exit (normal, error, or after a trapped Ctrl-C), every temporary worktree still registered is removed. */
function hookCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const wt of [...live]) wt.remove();
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Our temporary worktrees live at `<tmp>/gate-ladder-[purpose-]XXXXXX/wt`. Pure. */
export function isOurs(path: string, tmp: string): boolean {
  const parent = dirname(path);
  return basename(path) === 'wt' && dirname(parent) === tmp && basename(parent).startsWith(PREFIX);
}

/**
 * Removes temporary worktrees left by a gate-ladder that was killed outright (SIGKILL, power loss), each
 * by its path (`git worktree remove` also takes one whose folder is gone). Never `git worktree prune`:
 * it deletes the admin folder of a worktree another process is adding at that moment (git writes its
 * lock file just after making the folder), so two gate-ladders at once (two replays, a push during a
 * replay) broke each other; and the user's own stale worktree records are theirs to prune.
 */
export function sweepStale(root: string): void {
  const tmp = realpathSync(tmpdir());
  for (const wt of listWorktrees(root)) {
    if (!isOurs(wt.path, tmp)) continue;
    const pid = Number(readOwner(join(dirname(wt.path), OWNER)));
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
    git(root, ['worktree', 'remove', '--force', '--force', wt.path], { scrub: true });
    rmSync(dirname(wt.path), { recursive: true, force: true });
  }
}

/** Tries at `git worktree add`: a `git worktree prune` run meanwhile (by the user, another tool) may delete its admin folder under it. */
const ADD_TRIES = 3;
/** git's message when the admin folder it just made was pruned before it wrote into it. Pure. */
export function lostAdminFolder(stderr: string): boolean {
  return /could not (open|create|write)[^\n]*worktrees\//.test(stderr) && /No such file or directory/.test(stderr);
}

function readOwner(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * A detached worktree at `rev` in a temp folder, with the repo's dependency folders usable in it,
 * so gates judge exactly that commit, never the user's working tree.
 */
export function addWorktree(root: string, rev: string, prefix = PREFIX): TempWorktree {
  hookCleanup();
  sweepStale(root);
  const parent = mkdtempSync(join(realpathSync(tmpdir()), prefix.startsWith(PREFIX) ? prefix : `${PREFIX}${prefix}`));
  writeFileSync(join(parent, OWNER), `${process.pid}\n`);
  const dir = join(parent, 'wt');
  let removed = false;
  const wt: TempWorktree = {
    dir,
    remove: () => {
      if (removed) return;
      removed = true;
      live.delete(wt);
      // Twice --force: the worktree is locked while in use.
      // Takes git's record with it; should it fail, the next run's sweep removes the record by its path.
      git(root, ['worktree', 'remove', '--force', '--force', dir], { scrub: true });
      rmSync(parent, { recursive: true, force: true });
    },
  };
  live.add(wt);
  try {
    // No hooks: a post-checkout hook (an `npm install`, say) has no business in a throwaway checkout.
    const args = ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--quiet', '--lock', dir, rev];
    for (let tries = 1; ; tries++) {
      const r = git(root, args, { scrub: true });
      if (r.ok) break;
      if (tries >= ADD_TRIES || !lostAdminFolder(r.stderr)) throw new GitError(args, r);
      rmSync(dir, { recursive: true, force: true });
    }
    linkDependencies(root, dir);
  } catch (err) {
    wt.remove();
    throw err;
  }
  return wt;
}

/** Ignored dependency folders anywhere in the repo (`node_modules`, `packages/a/node_modules`, `.venv`, ...). */
function dependencyDirs(root: string): string[] {
  const r = git(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory'], { scrub: true });
  const wanted = new Set<string>(DEPENDENCY_DIRS);
  const found = r.ok
    ? r.stdout.split('\0').map((p) => p.replace(/\/$/, '')).filter((p) => p !== '' && wanted.has(basename(p)))
    : [];
  // Not ignored (or not a repo git can list): still link the top-level ones that exist.
  for (const name of DEPENDENCY_DIRS) if (!found.includes(name) && existsSync(join(root, name))) found.push(name);
  return found;
}

function linkDependencies(root: string, dir: string): void {
  for (const rel of dependencyDirs(root)) {
    const from = join(root, rel);
    const to = join(dir, rel);
    if (!existsSync(dirname(to)) || existsSync(to)) continue;
    if (basename(rel) === 'node_modules') mirrorNodeModules(root, from, dir, to);
    else symlinkSync(from, to, 'dir');
  }
}

/**
 * node_modules, entry by entry: packages link to the repo's copy, but a workspace package (a relative link
 * into the repo, as npm, yarn and pnpm make them) links into the worktree, so the pushed version is tested.
 */
function mirrorNodeModules(root: string, from: string, wtRoot: string, to: string): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = join(to, name);
    const st = lstatSync(src);
    if (name.startsWith('@') && st.isDirectory()) {
      mirrorScope(root, src, wtRoot, dst);
    } else if (st.isSymbolicLink() && pointsIntoRepo(root, src)) {
      symlinkSync(readlinkSync(src), dst);
    } else {
      symlinkSync(src, dst);
    }
  }
}

function mirrorScope(root: string, from: string, wtRoot: string, to: string): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = join(to, name);
    if (lstatSync(src).isSymbolicLink() && pointsIntoRepo(root, src)) symlinkSync(readlinkSync(src), dst);
    else symlinkSync(src, dst);
  }
}

/** A relative link whose target is in the repo but outside any node_modules: a workspace package. */
function pointsIntoRepo(root: string, link: string): boolean {
  const target = readlinkSync(link);
  if (isAbsolute(target)) return false;
  const rel = relative(root, resolve(dirname(link), target));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('node_modules');
}
