import { type BigIntStats, closeSync, fstatSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type RepoInfo, git } from './git.js';
import { headFromFiles } from './head-file.js';
import { isObjectId } from './text.js';
import { type IndexEntry, type ParsedIndex, type UncomparedEntries, parseIndex, uncomparedEntries } from './index-file.js';

/**
 * "Is the pushed commit exactly what is on disk?" answered from the files git keeps, without the
 * `git status` process (about 10 ms to start here, more than the check itself on a small repo):
 *
 *   'elsewhere'      HEAD names another commit: the gates need a worktree, whatever the files say;
 *   'clean-at-head'  HEAD is the pushed commit, the index's cache-tree is its tree, and every tracked
 *                    file's lstat data matches its index entry, none of them racily clean;
 *   undefined        anything else: the caller asks git (`workTreeState`).
 *
 * Saying 'clean-at-head' when git would say dirty would run gates on the wrong content, so every
 * comparison is at least as strict as git's own (read-cache.c `ie_match_stat`): a mismatch means
 * "ask git", never "dirty", since git may only need to refresh its stat data.
 */
export type QuickState = 'clean-at-head' | 'elsewhere';

/**
 * Above this many index entries git answers first. Measured on the 2-core development VM (see
 * docs/performance.md): one cold call, as a hook makes it, costs 10 to 30 µs an entry (lstat through
 * node's fs wrapper and its Stats object, not yet optimised by the JIT), against 14 to 40 ms for
 * `git status` (its start-up, then lstat in parallel threads in C): about even at 1,000 to 1,500
 * entries, 1.6 times git's cost at 2,000, 3 times at 20,000.
 */
export const MAX_ENTRIES = 1000;

/** The variables that point git at another repository, index or work tree than the files we would read. */
const REDIRECTS = ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'] as const;

/**
 * The state of the work tree at `info.root` for the pushed commit `head`, whose tree is `tree` (when the
 * run knows it). `configText`: the repo's `config` file, when the run has read it (see headFromFiles).
 */
export function quickWorkTree(info: RepoInfo, head: string, tree: string | undefined, env: NodeJS.ProcessEnv = process.env, configText?: string): QuickState | undefined {
  if (REDIRECTS.some((v) => env[v] !== undefined) || !isObjectId(head)) return undefined;
  try {
    const at = headFromFiles(info, configText);
    if (at === undefined || at.length !== head.length) return undefined;
    if (at !== head) return 'elsewhere';
    if (tree === undefined || tree.length !== head.length) return undefined;
    const index = readIndex(info.gitDir, tree.length / 2);
    if (index === undefined || index.parsed.tree !== tree) return undefined;
    return statsMatch(info.root, index.parsed.entries, index.mtimeSec) ? 'clean-at-head' : undefined;
  } catch {
    // lstat refusing a path (EACCES, ENOTDIR, a name too long): only git can tell.
    return undefined;
  }
}

/** Whether HEAD names `head`, read from the files git keeps; `false` when only git could tell. */
export function headIsAt(info: RepoInfo, head: string, env: NodeJS.ProcessEnv = process.env, configText?: string): boolean {
  if (REDIRECTS.some((v) => env[v] !== undefined)) return false;
  try {
    return headFromFiles(info, configText) === head;
  } catch {
    return false;
  }
}

/**
 * Pre-commit's question, "does the work tree match the index?", answered the same way: `true` when
 * every entry's lstat data matches, `undefined` when only git can tell. `git commit` always sets
 * GIT_INDEX_FILE for its hooks, to the repo's own index (`.git/index`, relative to the work tree)
 * for a plain commit, which is read here; any other (`commit -a` or `commit <paths>` hand hooks a
 * temporary one) is left to git.
 */
export function quickIndexMatches(info: RepoInfo, hashBytes: number, env: NodeJS.ProcessEnv = process.env): true | undefined {
  if (REDIRECTS.some((v) => v !== 'GIT_INDEX_FILE' && env[v] !== undefined)) return undefined;
  const file = env.GIT_INDEX_FILE;
  if (file !== undefined && resolve(info.root, file) !== join(info.gitDir, 'index')) return undefined;
  try {
    const index = readIndex(info.gitDir, hashBytes);
    return index !== undefined && statsMatch(info.root, index.parsed.entries, index.mtimeSec) ? true : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Does the commit whose tree is `tree` hold exactly these files of the work tree?", per path, from
 * the index alone (no process): when the index's cache-tree root is `tree`, its entries are that tree's
 * files, so a path without an entry is `absent` there, and one whose work-tree file matches its entry's
 * lstat data (as strictly as `quickWorkTree`) is the `same` there. `undefined` when any path cannot be
 * told this way (the caller asks git). The config of a commit just made is checked so (config-at.ts).
 */
export function quickPathsAtTree(info: RepoInfo, tree: string, paths: readonly string[], env: NodeJS.ProcessEnv = process.env): Map<string, 'same' | 'absent'> | undefined {
  if (REDIRECTS.some((v) => env[v] !== undefined) || !isObjectId(tree)) return undefined;
  try {
    const index = readIndex(info.gitDir, tree.length / 2);
    if (index === undefined || index.parsed.tree !== tree) return undefined;
    const wanted = new Set(paths);
    const present = index.parsed.entries.filter((e) => wanted.has(e.path));
    if (!statsMatch(info.root, present, index.mtimeSec)) return undefined;
    const out = new Map<string, 'same' | 'absent'>();
    for (const p of paths) out.set(p, 'absent');
    for (const e of present) out.set(e.path, 'same');
    return out;
  } catch {
    return undefined;
  }
}

/**
 * The index entries `git status` is blind to (skip-worktree: a sparse checkout; assume-unchanged),
 * whose files may be absent or differ from the commit while git calls the tree clean. Read from the
 * index file (a few milliseconds for 50,000 entries); a split index, or an index another variable
 * names, is asked of git (`git ls-files -v`: `S` for skip-worktree, a lower-case tag for assume-unchanged).
 * `undefined` when neither can tell.
 */
export function uncomparedIn(info: RepoInfo, hashBytes: number, env: NodeJS.ProcessEnv = process.env): UncomparedEntries | undefined {
  if (!REDIRECTS.some((v) => env[v] !== undefined)) {
    try {
      const counted = uncomparedEntries(readFileSync(join(info.gitDir, 'index')), hashBytes);
      if (counted !== undefined) return counted;
    } catch (e) {
      // No index at all (a repository with nothing added): nothing is hidden from git status.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { skipWorktree: 0, assumeValid: 0 };
    }
  }
  const r = git(info.root, ['ls-files', '-v', '-z']);
  return r.ok ? tagsOfLsFiles(r.stdout) : undefined;
}

/** Pure: `git ls-files -v -z` output (a tag, a space, the path) counted by tag. */
export function tagsOfLsFiles(out: string): UncomparedEntries {
  const counted: UncomparedEntries = { skipWorktree: 0, assumeValid: 0 };
  for (const entry of out.split('\0')) {
    const tag = entry[0];
    if (tag === undefined || entry[1] !== ' ') continue;
    if (tag === 'S' || tag === 's') counted.skipWorktree++;
    if (tag !== tag.toUpperCase()) counted.assumeValid++;
  }
  return counted;
}

/** The index, and its mtime as git takes it for the racy check; one read of the file we fstat, so the two agree. */
function readIndex(gitDir: string, hashBytes: number): { parsed: ParsedIndex; mtimeSec: number } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(gitDir, 'index'), 'r');
    // The entry count first (bytes 8 to 11): an index too large for this check is not read at all (a
    // 50,000-file repository's is 4 MB, and reading it only to give up cost about 6 ms a call here).
    const head = Buffer.alloc(12);
    if (readSync(fd, head, 0, 12, 0) !== 12 || head.readUInt32BE(8) > MAX_ENTRIES) return undefined;
    const st = fstatSync(fd, { bigint: true });
    const parsed = parseIndex(readFileSync(fd), hashBytes, MAX_ENTRIES);
    return parsed && { parsed, mtimeSec: Number(st.mtimeNs / NS) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const NS = 1_000_000_000n;
const S_IFMT = 0o170000n;

/**
 * Every entry's file has the recorded type, owner-executable bit, size, inode, owner, group, and
 * mtime and ctime to the nanosecond (git compares seconds, and nanoseconds when built with USE_NSEC),
 * and none is racily clean (mtime not older than the index file's, in whole seconds: a change made
 * in the second the index was written can hide behind equal stat data). A path under a symlinked
 * folder is refused: git reports it deleted. BigInt stats because `mtimeMs` is a double that cannot
 * hold nanoseconds exactly (plain Stats measured no faster).
 */
function statsMatch(root: string, entries: readonly IndexEntry[], indexMtimeSec: number): boolean {
  // Racy entries first, before any lstat: a push right after a commit usually has one.
  if (entries.some((e) => e.mtimeSec >= indexMtimeSec)) return false;
  const dirs = new Set<string>();
  for (const e of entries) {
    const slash = e.path.lastIndexOf('/');
    if (slash > 0 && !realDirs(root, e.path.slice(0, slash), dirs)) return false;
    const st = lstatSync(`${root}/${e.path}`, { bigint: true, throwIfNoEntry: false });
    if (st === undefined || !entryMatches(e, st)) return false;
  }
  return true;
}

/** Pure: one entry against the lstat of its path. */
export function entryMatches(e: IndexEntry, st: BigIntStats): boolean {
  const type = st.mode & S_IFMT;
  if (e.mode === 0o120000 ? type !== 0o120000n : type !== 0o100000n || ((st.mode ^ BigInt(e.mode)) & 0o100n) !== 0n) return false;
  return (
    st.size === BigInt(e.size) &&
    st.mtimeNs === BigInt(e.mtimeSec) * NS + BigInt(e.mtimeNsec) &&
    st.ctimeNs === BigInt(e.ctimeSec) * NS + BigInt(e.ctimeNsec) &&
    BigInt.asUintN(32, st.ino) === BigInt(e.ino) &&
    BigInt.asUintN(32, st.uid) === BigInt(e.uid) &&
    BigInt.asUintN(32, st.gid) === BigInt(e.gid)
  );
}

/** Every folder on the way to a path is a real folder, not a symlink; each is looked at once. */
function realDirs(root: string, dir: string, seen: Set<string>): boolean {
  if (seen.has(dir)) return true;
  const slash = dir.lastIndexOf('/');
  if (slash > 0 && !realDirs(root, dir.slice(0, slash), seen)) return false;
  if (lstatSync(`${root}/${dir}`, { throwIfNoEntry: false })?.isDirectory() !== true) return false;
  seen.add(dir);
  return true;
}
