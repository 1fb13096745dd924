import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from '../util/node.js';
import { commitMsg } from './messages.js';
import type { GitResult } from '../git/git.js';
import { gitShielded, gitShieldedAgain } from '../git/shielded-git.js';
import { BACKUP_STASH, GUARD_STASH, backupStashes } from './stash.js';

/**
 * gate-ladder's own backup around a lint-staged run: lint-staged's restore is a `git reset --hard`
 * followed by a `git stash apply`, each a git process in the terminal's group, so a second Ctrl-C
 * between them leaves the work tree at HEAD (and lint-staged's stash lookup, killed, finds no backup).
 * Before it runs, the work tree and index are saved as a named stash; after it, they are compared with
 * the saved ones and, when they differ, put back from it, every git command in a process group of its
 * own (git/shielded-git.ts). The stash is dropped only once the tree and index are verified back.
 * A merge in progress is saved too: lint-staged's `git reset --hard` ends it, and its own restore of
 * the merge files comes after, so a stop between them would make the next commit a one-parent one.
 */

/** The saved state: the stash commit, and the trees of its index and work tree. */
export interface Saved {
  sha: string;
  index: string;
  work: string;
  /** When the save was done (ms since the epoch): a lock file made since is one of lint-staged's git commands'. */
  at: number;
  /** lint-staged's backups before the run: one made during it is dropped with ours once the work is back. */
  knownBackups: Set<string>;
  /** A merge in progress: git's files that say so (MERGE_HEAD, MERGE_MODE, MERGE_MSG), with their bytes. */
  merge: { path: string; bytes: Buffer }[];
}

/** What became of the saved work after lint-staged. */
export type Settled =
  | { kind: 'untouched' | 'restored' | 'kept-changes'; notDropped?: string }
  | { kind: 'stashed'; sha: string; why: string };

/** A lookup's answer (run again if a signal from outside stopped it); undefined when git failed. */
const ok = async (root: string, args: readonly string[]): Promise<string | undefined> => {
  const r = await gitShieldedAgain(root, args);
  return r.ok ? r.stdout.trim() : undefined;
};

/** The index and work tree as trees, through `git stash create` (no stash is stored); HEAD's tree when nothing differs. */
async function treesNow(root: string): Promise<{ sha: string; index: string; work: string } | undefined> {
  const sha = await ok(root, ['stash', 'create']);
  if (sha === undefined) return undefined;
  const rev = sha === '' ? 'HEAD' : sha;
  const trees = await ok(root, ['rev-parse', `${rev}^{tree}`, sha === '' ? 'HEAD^{tree}' : `${sha}^2^{tree}`]);
  const [work, index] = trees?.split('\n') ?? [];
  return work && index ? { sha, index, work } : undefined;
}

/** Saves the work tree and index as a named stash before lint-staged runs. Undefined when git could not (an unborn HEAD, `git add -N` entries): lint-staged's own backup is all there is. */
export async function saveWork(root: string, label: string): Promise<Saved | undefined> {
  const now = await treesNow(root);
  if (now === undefined || now.sha === '') return undefined;
  const stored = await gitShielded(root, ['stash', 'store', '-q', '-m', `${GUARD_STASH} ${label}`, now.sha]);
  if (!stored.ok) return undefined;
  const at = Date.now();
  const list = await ok(root, ['stash', 'list', '--format=%gd %H %gs']);
  const knownBackups = new Set(backupStashes(list ?? '').map((s) => s.sha));
  return { sha: now.sha, index: now.index, work: now.work, at, knownBackups, merge: await mergeState(root) };
}

/** git's files of a merge in progress, read before lint-staged runs; none when no merge is. */
async function mergeState(root: string): Promise<Saved['merge']> {
  const paths = (await ok(root, ['rev-parse', '--path-format=absolute', ...MERGE_FILES.flatMap((f) => ['--git-path', f])]))?.split('\n');
  if (paths === undefined || !existsSync(paths[0]!)) return [];
  return paths.flatMap((path) => (existsSync(path) ? [{ path, bytes: readFileSync(path) }] : []));
}

const MERGE_FILES = ['MERGE_HEAD', 'MERGE_MODE', 'MERGE_MSG'] as const;

/** Puts back the merge files lint-staged's reset removed (never over one written since). */
function restoreMerge(saved: Saved): void {
  for (const { path, bytes } of saved.merge) {
    if (!existsSync(path)) writeFileSync(path, bytes, { flag: 'wx' });
  }
}

/**
 * Drops the stash whose commit is `sha` (and, with `lintStaged`, lint-staged's backups made since the
 * save), found by commit since stash@{N} shifts. Returns why one could not be dropped, if so.
 */
async function drop(root: string, saved: Saved, lintStaged: boolean): Promise<string | undefined> {
  let killed = 0;
  for (;;) {
    const listed = await gitShieldedAgain(root, ['stash', 'list', '--format=%gd %H %gs']);
    if (!listed.ok) return listed.stderr.trim().split('\n')[0] || ended('git stash list', listed);
    const next = listed.stdout
      .trim()
      .split('\n')
      .find((line) => {
        const [, sha = '', ...subject] = line.split(' ');
        if (sha === saved.sha) return true;
        return lintStaged && subject.join(' ').includes(BACKUP_STASH) && !saved.knownBackups.has(sha);
      });
    if (next === undefined) return undefined;
    const r = await gitShielded(root, ['stash', 'drop', '-q', next.split(' ')[0]!]);
    // Stopped by a signal: the next turn looks the stash up again by its commit (stash@{N} may have moved).
    if (!r.ok && (r.signal === undefined || ++killed === 3)) return r.stderr.trim().split('\n')[0] || ended('git stash drop', r);
  }
}

/** How a git command that failed without a word ended. */
const ended = (what: string, r: { code: number | null; signal?: NodeJS.Signals }) =>
  r.signal !== undefined ? `${what} was stopped by ${r.signal}` : `${what} exited ${r.code}`;

/** Whether the index and work tree are the saved ones. */
async function isBack(root: string, saved: Saved): Promise<boolean> {
  const now = await treesNow(root);
  return now !== undefined && now.index === saved.index && now.work === saved.work;
}

/**
 * After lint-staged: `keepChanges` when it passed and nobody stopped it (its tasks' fixes are staged: the
 * commit goes on with them), else the work tree and index must be the saved ones, put back when not.
 */
export async function settleWork(root: string, saved: Saved, keepChanges: boolean): Promise<Settled> {
  if (keepChanges) {
    return dropped('kept-changes', await drop(root, saved, false));
  }
  restoreMerge(saved);
  if (await isBack(root, saved)) {
    return dropped('untouched', await drop(root, saved, true));
  }
  // The work tree as it was (tracked paths: removing what it did not hold), then the index as it was.
  const steps: string[][] = [
    ['read-tree', '--reset', '-u', saved.work],
    ['read-tree', saved.index],
    ['update-index', '-q', '--refresh'],
  ];
  let why = '';
  for (const step of steps) {
    const r = await afterLocks(root, step, saved.at);
    // update-index --refresh exits 1 when a path still differs from the index: the check below says whether that matters.
    if (!r.ok && step[0] !== 'update-index') {
      why = r.stderr.trim().split('\n')[0] ?? `git ${step[0]} failed`;
      break;
    }
  }
  if (why === '' && (await isBack(root, saved))) {
    return dropped('restored', await drop(root, saved, true));
  }
  return { kind: 'stashed', sha: saved.sha, why: why || 'the work tree or index still differs from the saved ones' };
}

/** How long a lock file may keep a restore waiting for the git process holding it to end. */
const LOCK_WAIT_MS = 5_000;

/**
 * A git command that, refused because a lock file is there, runs again once it is gone. A lock still
 * there after the wait and made since the save (by a git command lint-staged started; lint-staged has
 * returned, so none of them is running: a git process stopped by a signal between making its lock and
 * registering it for removal leaves one) is removed; an older one is another process's, and is reported.
 */
async function afterLocks(root: string, args: readonly string[], since: number): Promise<GitResult> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const r = await gitShielded(root, args);
    const lock = /Unable to create '([^']+\.lock)': File exists/.exec(r.stderr)?.[1];
    if (r.ok || lock === undefined) return r;
    while (existsSync(lock) && Date.now() <= until) await new Promise((done) => setTimeout(done, 20));
    if (!existsSync(lock)) continue;
    if (!madeSince(lock, since)) return { ...r, stderr: commitMsg.guardLock(lock) };
    rmSync(lock, { force: true });
  }
}

function madeSince(path: string, since: number): boolean {
  try {
    return statSync(path).mtimeMs >= since;
  } catch {
    return true;
  }
}

const dropped = (kind: 'untouched' | 'restored' | 'kept-changes', why: string | undefined): Settled => ({
  kind,
  ...(why !== undefined && { notDropped: why }),
});
