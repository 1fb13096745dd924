import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, readJson, writeJsonAtomic } from '../util/cache-files.js';
import { hash } from '../util/hash.js';
import { git } from './git.js';

/**
 * "Does the work tree still hold uncommitted changes?", shown, not assumed, from the paths the last
 * `git status` of this work tree listed (a developer's local edits tend to stay across pushes).
 *
 * In a large repository `git status` lstats every tracked file (about 40 ms for 50,000 files here) and an
 * isolated push then pays a second such pass in its worktree slot. When one of the remembered paths
 * still differs from the pushed commit, the push cannot run in place whatever the other files hold, so
 * that status is not needed: two small git processes (`ls-tree` of those paths at the commit, and
 * `hash-object` of their files, with the repository's filters, as `git add` would store them) show it
 * in about 5 ms. Measured on the 50,000-file bench repository: 38 ms for the status against 6 ms.
 * Whatever this cannot show (no paths kept, each one now equal to the commit, a symlink, a mode
 * change, an odd name, a git error) falls back to `git status`, as before; it never says "clean".
 */

/** At most this many paths are kept: enough for a developer's local edits, few enough for one argument list. */
const KEEP_PATHS = 32;
/** Files larger than this are not hashed (hash-object reads them whole). */
const MAX_BYTES = 8 * 1024 * 1024;

interface Hint {
  root: string;
  paths: string[];
  /** How many `git status` runs in a row have found the tree clean since the paths were kept. */
  clean?: number;
}

/**
 * After this many clean statuses in a row the paths are forgotten: a developer who pushes clean trees
 * again no longer pays the two processes (about 5 ms) before each status, while one who switches
 * between local edits and clean pushes keeps them.
 */
const FORGET_AFTER_CLEAN = 8;

const hintFile = (commonDir: string, root: string) => join(cacheDir(commonDir), `changed-${hash(root).slice(0, 16)}.json`);

/**
 * Keeps the paths a `git status` of the work tree at `root` listed as changed (new ones first, then
 * those kept before), for the next push's `provenChanged`. Names git could not give as text (not
 * UTF-8) or that hold a newline are left out: hash-object reads paths one per line.
 */
export function rememberChanged(commonDir: string, root: string, changed: readonly string[]): void {
  const usable = (p: string) => p !== '' && !p.includes('\n') && !p.includes('\uFFFD');
  const kept = readHint(commonDir, root);
  const before = kept?.paths ?? [];
  const paths = [...new Set([...changed.filter(usable), ...before])].slice(0, KEEP_PATHS);
  if (paths.length === 0 || (kept?.clean === undefined && paths.length === before.length && paths.every((p, i) => p === before[i]))) return;
  writeJsonAtomic(hintFile(commonDir, root), { root, paths } satisfies Hint, { prefix: 'changed-', keep: 64 });
}

/** After a `git status` found the work tree at `root` clean: counts it, and forgets the paths after FORGET_AFTER_CLEAN. */
export function rememberClean(commonDir: string, root: string): void {
  const kept = readHint(commonDir, root);
  if (kept === undefined) return;
  const clean = (kept.clean ?? 0) + 1;
  if (clean >= FORGET_AFTER_CLEAN) rmSync(hintFile(commonDir, root), { force: true });
  else writeJsonAtomic(hintFile(commonDir, root), { ...kept, clean } satisfies Hint, { prefix: 'changed-', keep: 64 });
}

/** The paths kept for the work tree at `root`, when the file is there and sound. */
function readHint(commonDir: string, root: string): Hint | undefined {
  const kept = readJson<Hint>(hintFile(commonDir, root));
  if (kept?.root !== root || !Array.isArray(kept.paths)) return undefined;
  const paths = kept.paths.filter((p): p is string => typeof p === 'string' && p !== '' && !p.includes('\n')).slice(0, KEEP_PATHS);
  return { root, paths, ...(typeof kept.clean === 'number' && { clean: kept.clean }) };
}

/**
 * One remembered path of the work tree at `root` whose content (or absence) differs from commit
 * `head`, shown by git; `undefined` when none can be shown this way (the caller asks `git status`).
 */
export function provenChanged(commonDir: string, root: string, head: string): string | undefined {
  const paths = readHint(commonDir, root)?.paths ?? [];
  if (paths.length === 0) return undefined;
  // What the commit holds at each path: regular files only (a symlink's or a submodule's change is left to git status).
  const listed = git(root, ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', head, '--', ...paths]);
  if (!listed.ok) return undefined;
  const committed = new Map<string, string>();
  for (const entry of listed.stdout.split('\0')) {
    const m = /^(100644|100755) blob ([0-9a-f]{40,64})\t([^]+)$/.exec(entry);
    if (m) committed.set(m[3]!, m[2]!);
  }
  const files: string[] = [];
  for (const p of paths) {
    if (!committed.has(p)) continue;
    const st = lstatSync(join(root, p), { throwIfNoEntry: false });
    // Deleted from the work tree: `git status` lists it whatever the index says.
    if (st === undefined) return p;
    if (st.isFile() && st.size <= MAX_BYTES) files.push(p);
  }
  if (files.length === 0) return undefined;
  // Each file as `git add` would store it (clean and eol filters by its path's attributes).
  const hashed = git(root, ['hash-object', '--stdin-paths'], `${files.join('\n')}\n`);
  const oids = hashed.ok ? hashed.stdout.split('\n').filter(Boolean) : [];
  if (oids.length !== files.length) return undefined;
  return files.find((p, i) => oids[i] !== committed.get(p));
}
