/**
 * The worktree pool: gates that must judge a commit other than the working tree run in a slot, a
 * worktree kept in the pool's folder (`poolDir`: outside the repository's `.git`) and reused. Moving a slot to a
 * commit costs what differs (one `git clean`, one `git checkout`), not a checkout of the whole tree.
 *
 *   slot-N          the work tree (a registered, locked git worktree, detached)
 *   slot-N.lock     who uses it: one run at a time (pid-lock.ts; a dead owner's lock is taken over)
 *   slot-N.json     what gate-ladder put there: dependency copies (and each one's seal and the install
 *                   it was copied from: dependency-links.ts), submodules, its folders' lstat when
 *                   it was exactly a commit (slot-dirs.ts: only folders changed since are read to clean
 *                   it), and `moving` while a checkout is under way (found set by a later run: the
 *                   slot is repaired or remade)
 *   slot-N.cache/   the slot's own tool caches (node_modules/.cache and the like), outside the work
 *                   tree so cleaning keeps them
 *   git.lock        held around every `git worktree add/remove`, which race with each other
 *   deps.json       the checkout's dependency folders, found once per install (dependency-links.ts)
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from '../util/node.js';
import { basename, dirname, join, resolve } from 'node:path';
import { hash } from '../util/hash.js';
import { poolMsg } from './messages.js';
import { isAlive, lockHeld, lockOwner, release as releaseLock, tryLock, withLock } from '../util/pid-lock.js';
import { type CopySeals, dependencyDirs, linkDependencies } from './dependency-links.js';
import { git, GitError, resolveCommit } from '../git/git.js';
import { type DirRecord, changedDirs, cleanDirs, recordDirs, updateRecord } from './slot-dirs.js';
import { dropSubmodules, fillSubmodules } from './submodules.js';
import { addWorktreeRecord, removeWorktreeRecord, stopLeftGit, sweepStale } from '../git/worktree.js';

/** Slots kept by default; more concurrent runs than this each get a one-off slot, removed after use. */
export const DEFAULT_SLOTS = 8;

/** The pool's size: `GATE_LADDER_WORKTREE_SLOTS` (1 to 64), else DEFAULT_SLOTS. Pure. */
export function slotLimit(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GATE_LADDER_WORKTREE_SLOTS);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : DEFAULT_SLOTS;
}

/** Where earlier versions kept the pool, and where it is kept when no folder outside the repository will do. */
export function legacyPoolDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'worktrees');
}

/**
 * The pool's folder. Not under the git common dir: a work tree whose path runs through `.git` is
 * hidden to tools that refuse dot-folders (the `send` module under express's `res.sendFile` answers
 * 404 for every file there: a clean commit of express failed 39 of its tests in a slot at
 * `.git/gate-ladder/worktrees/slot-1`, and passed in place). GATE_LADDER_WORKTREES names the parent
 * folder; else /var/tmp (on disk, kept across reboots), else the system's temp folder. In it, a folder
 * of the user's own (`gate-ladder-<uid>`, mode 0700, checked, never followed through a link) and one per
 * repository, named by its folder and a hash of its git common dir. When none is usable, the pool stays
 * under the git common dir (`legacyPoolDir`).
 */
export function poolDir(commonDir: string, env: NodeJS.ProcessEnv = process.env): string {
  let common = resolve(commonDir);
  try {
    common = realpathSync(common);
  } catch {
    // not there yet: as given
  }
  const parents = env.GATE_LADDER_WORKTREES
    ? [resolve(env.GATE_LADDER_WORKTREES)]
    : ['/var/tmp', process.getBuiltinModule('node:os').tmpdir()];
  for (const parent of parents) {
    const own = ownFolder(parent, env.GATE_LADDER_WORKTREES !== undefined && env.GATE_LADDER_WORKTREES !== '');
    if (own === undefined) continue;
    const name =
      basename(dirname(common))
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+/, '')
        .slice(0, 40) || 'repo';
    return join(own, `${name}-${hash(common).slice(0, 12)}`);
  }
  return legacyPoolDir(commonDir);
}

/**
 * `mkdir -p`, each folder made once at most: node's own recursive mkdir never returns for a path under
 * /proc (it is told ENOENT for the folder and EEXIST for its parent, again and again), so a
 * GATE_LADDER_WORKTREES there would hang the hook. Throws what the last mkdir said.
 */
function makeFolders(path: string): void {
  try {
    mkdirSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(path) === path) throw e;
    makeFolders(dirname(path));
    mkdirSync(path);
  }
}

/** `<parent>/gate-ladder-<uid>`, made if need be: a real folder (not a link) of this user's that no one else may enter; else undefined. */
function ownFolder(parent: string, create: boolean): string | undefined {
  const uid = process.getuid?.();
  const dir = join(parent, `gate-ladder-${uid ?? 'user'}`);
  try {
    if (create) makeFolders(parent);
    else if (!lstatSync(parent).isDirectory()) return undefined;
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) return undefined;
  } catch {
    return undefined;
  }
  return dir;
}

interface SlotState {
  links: string[];
  subs: string[];
  /** The commit a checkout was moving the slot to; null once it is there. */
  moving: string | null;
  /** Its folders when it was exactly a commit; absent: the next clean reads every folder. */
  dirs?: DirRecord;
  /** What each dependency copy was when made, and the install it was copied from; absent: copied again. */
  copies?: CopySeals;
}

export interface Slot {
  dir: string;
  n: number;
  /** made: a new checkout; moved: a kept slot moved to the commit; repaired: a slot found mid-checkout, set right; remade: one that could not be, made anew. */
  how: 'made' | 'moved' | 'repaired' | 'remade';
  /** What the slot could not provide (a submodule the checkout has not initialised). */
  notes: string[];
  /** The dependency folders `link` links, relative to the work tree (a patch must not touch them). */
  linkPaths: () => string[];
  /** Makes the checkout's dependency folders usable in the slot (done by acquireSlot unless told not to). */
  link: () => void;
  /** Gives the slot back (a one-off slot is removed). Safe to call twice. */
  release: () => void;
}

export interface SlotOptions {
  /** false: the dependency copies are checked (and made) only at `link()` (a patch is applied first). Default true. */
  link?: boolean;
  /** Says what a wait is for. */
  log?: (line: string) => void;
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/**
 * No hooks (a post-checkout `npm install` has no business here); a split index: each move writes the
 * entries that changed, not the whole index again (about 20 ms of a 50,000-file move).
 */
const CHECKOUT = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.sparseCheckout=false',
  '-c',
  'advice.detachedHead=false',
  '-c',
  'submodule.recurse=false',
  '-c',
  'core.splitIndex=true',
  'checkout',
  '-q',
  '-f',
  '--detach',
];
/** How long a run waits for another's `git worktree add/remove` before giving up. */
const GIT_LOCK_TIMEOUT_MS = 120_000;

const live = new Set<Slot>();
let hooked = false;

/** On exit (normal, error, or after a trapped Ctrl-C), every slot still held is given back. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const slot of [...live]) slot.release();
  });
}

/** `/path` as a git exclude pattern matching exactly that path from the top. Pure. */
export function exactPattern(rel: string): string {
  return `/${rel.replace(/[\\*?[]/g, '\\$&').replace(/ $/, '\\ ')}`;
}

/** A record's folder entries as written: anything else, and the record is not trusted (the next clean reads every folder). */
function namesOk(names: unknown): boolean {
  if (names === undefined) return true;
  if (typeof names !== 'object' || names === null || Array.isArray(names)) return false;
  return Object.values(names).every((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
}

function readState(file: string): SlotState {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<SlotState>;
    const d = s.dirs;
    const m = s.copies;
    return {
      links: Array.isArray(s.links) ? s.links.filter((x) => typeof x === 'string') : [],
      subs: Array.isArray(s.subs) ? s.subs.filter((x) => typeof x === 'string') : [],
      moving: typeof s.moving === 'string' ? s.moving : null,
      ...(d && typeof d.sha === 'string' && typeof d.at === 'number' && Array.isArray(d.dirs) && namesOk(d.names) && { dirs: d }),
      ...(m && typeof m === 'object' && !Array.isArray(m) && Object.values(m).every((v) => typeof v === 'string') && { copies: m }),
    };
  } catch {
    return { links: [], subs: [], moving: null };
  }
}

function writeState(file: string, state: SlotState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state)}\n`);
  renameSync(tmp, file);
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

/** The slot's git dir (`.git/worktrees/<id>`), when the slot is a worktree git still knows. */
function adminDir(dir: string): string | undefined {
  try {
    const gitdir = gitdirIn(readFileSync(join(dir, '.git'), 'utf8'));
    if (gitdir === undefined) return undefined;
    const admin = resolve(dir, gitdir);
    return existsSync(join(admin, 'HEAD')) && existsSync(join(admin, 'commondir')) ? admin : undefined;
  } catch {
    return undefined;
  }
}

/** The path a worktree's `.git` file names: `gitdir: <path>` and a newline, the path being the rest (a newline in it included: a repository in a folder named so). */
function gitdirIn(text: string): string | undefined {
  return text.startsWith('gitdir: ') ? text.slice('gitdir: '.length).replace(/\r?\n$/, '') : undefined;
}

function headOf(admin: string): string {
  try {
    return readFileSync(join(admin, 'HEAD'), 'utf8').trim();
  } catch {
    return '';
  }
}

/** Holds the pool's git lock: `git worktree add/remove/list` of two runs at once break each other. */
function underGitLock<T>(pool: string, fn: () => T, log?: (line: string) => void): T {
  return withLock(join(pool, 'git.lock'), fn, {
    timeoutMs: GIT_LOCK_TIMEOUT_MS,
    onWait: (pid) => log?.(poolMsg.waiting(pid, pool)),
  });
}

/** Removes a slot: its folder moved aside first (fast), git's record removed under the lock, then the files. */
function discard(root: string, pool: string, dir: string, log?: (line: string) => void): void {
  const trash = join(dirname(dir), `trash-${process.pid}-${Date.now()}`);
  let moved = false;
  try {
    renameSync(dir, trash);
    moved = true;
  } catch {
    // no folder: only git's record is left
  }
  underGitLock(pool, () => removeWorktreeRecord(root, dir), log);
  removeQuietly(moved ? trash : dir);
}

/**
 * Removes a folder of the pool; when something still writes into it (git left by a run killed
 * outright), that is stopped and the removal tried again; what still will not go is left for
 * `sweepTrash` (or `gc`) rather than failing the run.
 */
function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    stopLeftGit(dir);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // left for the next sweep
    }
  }
}

/** Removes the trash-<pid>-* folders of runs that are gone (killed while removing a slot, or a removal that failed). */
function sweepTrash(pool: string): void {
  let names: string[];
  try {
    names = readdirSync(pool);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^trash-(\d+)-/.exec(name)?.[1]);
    if (!(pid > 0) || (pid !== process.pid && isAlive(pid))) continue;
    removeQuietly(join(pool, name));
  }
}

/**
 * `git worktree add` copies a sparse checkout's patterns (and its worktree config) into the new
 * worktree, which would then hold only the cone the user works in while gates judge the whole commit:
 * the slot gets no patterns and sparse checkout off, so every file of the commit is checked out.
 */
function unsparse(dir: string): void {
  const admin = adminDir(dir);
  if (admin === undefined) return;
  rmSync(join(admin, 'info', 'sparse-checkout'), { force: true });
  const config = join(admin, 'config.worktree');
  if (!existsSync(config)) return;
  for (const key of ['core.sparseCheckout', 'core.sparseCheckoutCone', 'index.sparse'])
    git(dir, ['config', '--file', config, '--unset-all', key]);
}

/** A slot made sparse by a version that copied the checkout's sparse patterns: remade, since its index skips files. */
const sparseSlot = (admin: string) => existsSync(join(admin, 'info', 'sparse-checkout'));

/** Checks the slot out at `sha` from nothing: a new worktree record, then one checkout of every file. */
function make(root: string, pool: string, dir: string, sha: string, log?: (line: string) => void): void {
  sweepOrphanPools(pool);
  sweepTrash(pool);
  underGitLock(
    pool,
    () => {
      sweepStale(root);
      // A record whose folder was deleted by hand blocks a new one at the same path.
      removeWorktreeRecord(root, dir);
      rmSync(dir, { recursive: true, force: true });
      addWorktreeRecord(root, dir, sha);
    },
    log,
  );
  unsparse(dir);
  const r = git(dir, ['-c', 'checkout.workers=0', ...CHECKOUT, sha], { scrub: true });
  if (!r.ok) throw new GitError([...CHECKOUT, sha], r);
}

/**
 * Removes every untracked and ignored file but `keep` (the dependency links), then checks out `sha` over
 * what is left (`-f`: tracked files a gate changed are put back). With a record of the slot's folders,
 * only the folders changed since are read; without one, `git clean` reads them all.
 */
function move(dir: string, sha: string, keep: readonly string[], subs: readonly string[], record: DirRecord | undefined): boolean {
  let cleaned = false;
  try {
    // Submodules are tracked (gitlinks): kept, as git ls-tree would list them (the record's entries leave them out).
    cleaned = record !== undefined && cleanDirs(dir, record, changedDirs(dir, record), [...keep, ...subs]);
  } catch {
    // a file that would not go: git tries, and says why
  }
  cleaned ||= git(dir, ['clean', '-ffdxq', ...keep.flatMap((p) => ['-e', exactPattern(p)])], { scrub: true }).ok;
  return cleaned && git(dir, [...CHECKOUT, sha], { scrub: true }).ok;
}

/** The slot is exactly `sha`: HEAD, every tracked file, and nothing untracked or ignored but `keep`. Asked of git. */
function isExactly(dir: string, admin: string, sha: string, keep: readonly string[]): boolean {
  if (headOf(admin) !== sha) return false;
  const r = git(
    dir,
    ['status', '--porcelain', '-z', '--ignored=traditional', '--untracked-files=normal', '--ignore-submodules=all', '--no-renames'],
    { scrub: true },
  );
  if (!r.ok) return false;
  return r.stdout
    .split('\0')
    .every((e) => e === '' || ((e.startsWith('!! ') || e.startsWith('?? ')) && keep.includes(e.slice(3).replace(/\/$/, ''))));
}

/**
 * A slot of the pool, exactly at the commit `rev` names, for this process alone until `release()`.
 * Tracked files equal the commit; untracked and ignored files are gone except the dependency links and
 * the slot's own caches. A slot found mid-checkout (its owner died) is repaired, checked with
 * `git status`, or removed and made anew.
 */
export function acquireSlot(root: string, commonDir: string, rev: string, opts: SlotOptions = {}): Slot {
  hookExit();
  const sha = FULL_SHA.test(rev) ? rev : resolveCommit(root, rev);
  if (sha === null) throw new Error(`${rev} is not a commit in this repository`);
  const pool = poolDir(commonDir);
  mkdirSync(pool, { recursive: true });
  let n = 1;
  while (!tryLock(join(pool, `slot-${n}.lock`))) n++;
  const lock = join(pool, `slot-${n}.lock`);
  const dir = join(pool, `slot-${n}`);
  const stateFile = join(pool, `slot-${n}.json`);
  const caches = join(pool, `slot-${n}.cache`);
  const oneOff = n > slotLimit();
  let state: SlotState = readState(stateFile);
  let released = false;
  let deps: string[] | undefined;
  const linkPaths = () => (deps ??= dependencyDirs(root, join(pool, 'deps.json')));
  const slot: Slot = {
    dir,
    n,
    how: 'moved',
    notes: [],
    linkPaths,
    link: () => {
      const { linked, seals, notes } = linkDependencies(root, dir, linkPaths(), state.links, caches, state.copies);
      slot.notes.push(...notes);
      state = { ...state, links: linked, copies: seals };
      writeState(stateFile, state);
    },
    release: () => {
      if (released) return;
      released = true;
      live.delete(slot);
      try {
        if (oneOff) {
          discard(root, pool, dir, opts.log);
          rmSync(stateFile, { force: true });
          rmSync(caches, { recursive: true, force: true });
        }
      } finally {
        releaseLock(lock);
      }
    },
  };
  live.add(slot);
  try {
    // The dependency copies stay (also before a patch is applied: one that writes into them is refused,
    // and link() finds a touched copy by its seal).
    const keep = state.links;
    let admin = adminDir(dir);
    const doubt = state.moving !== null;
    // Its owner died moving it: what it left writing there (a checkout and its workers) is stopped
    // first, and the trash of runs that are gone removed.
    if (doubt) {
      stopLeftGit(dir);
      sweepTrash(pool);
    }
    // A record is trusted only when the slot was left exactly a commit, with its links in place.
    const record = doubt || opts.link === false ? undefined : state.dirs;
    const movedAt = Date.now();
    writeState(stateFile, { ...state, moving: sha });
    if (admin && sparseSlot(admin)) {
      discard(root, pool, dir, opts.log);
      admin = undefined;
    }
    if (admin) {
      dropSubmodules(dir, sha, state.subs);
      // Its owner died mid-checkout: git's own lock file may be left too.
      if (doubt) unlinkQuiet(join(admin, 'index.lock'));
      let ok = move(dir, sha, keep, state.subs, record);
      if (ok && doubt) ok = isExactly(dir, admin, sha, keep);
      if (doubt) slot.how = ok ? 'repaired' : 'remade';
      ok &&= headOf(admin) === sha;
      if (!ok) {
        if (!doubt) slot.how = 'remade';
        discard(root, pool, dir, opts.log);
        admin = undefined;
      }
    } else {
      slot.how = existsSync(dir) ? 'remade' : 'made';
    }
    if (!admin) {
      const legacy = legacyPoolDir(commonDir);
      if (legacy !== pool && slotNumbers(legacy).some((k) => existsSync(join(legacy, `slot-${k}`)))) opts.log?.(poolMsg.legacyPool(legacy));
      state = { links: [], subs: [], moving: sha };
      if (existsSync(dir)) discard(root, pool, dir, opts.log);
      make(root, pool, dir, sha, opts.log);
    }
    const subs = fillSubmodules(dir, root, commonDir, state.subs);
    slot.notes.push(...subs.notes);
    const dirs = record && !doubt && admin ? updateRecord(dir, sha, record, movedAt, [...keep, ...subs.paths]) : recordDirs(dir, sha);
    // The copies' seals whatever happened: link() checks each copy against its seal before a gate runs.
    const copies = admin ? state.copies : undefined;
    state = {
      links: keep.filter((p) => existsSync(join(dir, p))),
      subs: subs.paths,
      moving: null,
      ...(dirs && { dirs }),
      ...(copies && { copies }),
    };
    // link() writes the state (one write of it, not two); until then `moving` stays set: a run that dies linking
    // leaves a slot the next run repairs.
    if (opts.link !== false) slot.link();
    else writeState(stateFile, state);
  } catch (err) {
    slot.release();
    throw err;
  }
  return slot;
}

/** Slots in the pool folder, by number, from their lock, state or work tree. */
function slotNumbers(pool: string): number[] {
  let names: string[];
  try {
    names = readdirSync(pool);
  } catch {
    return [];
  }
  const ns = new Set<number>();
  for (const name of names) {
    const m = /^slot-(\d+)(\.lock|\.json|\.cache)?$/.exec(name);
    if (m) ns.add(Number(m[1]));
  }
  return [...ns].sort((a, b) => a - b);
}

export interface PoolRemoval {
  removed: number;
  /** Slots in use by a live run: left alone. */
  busy: { slot: string; pid: number }[];
  /** Throwaway worktrees of earlier versions removed. */
  legacy: number;
}

/** Removes every slot no live run holds, their records and caches, and earlier versions' throwaway worktrees (`gate-ladder gc`). */
export function removePool(root: string, commonDir: string, log?: (line: string) => void): PoolRemoval {
  const out: PoolRemoval = { removed: 0, busy: [], legacy: 0 };
  const pool = poolDir(commonDir);
  // An earlier version's pool under the git common dir goes too.
  const legacy = legacyPoolDir(commonDir);
  if (legacy !== pool && existsSync(legacy)) {
    emptyPool(root, legacy, out, log);
    rmSync(join(legacy, 'deps.json'), { force: true });
    try {
      rmdirSync(legacy);
    } catch {
      // a run of an earlier version is there
    }
  }
  emptyPool(root, pool, out, log);
  mkdirSync(pool, { recursive: true });
  out.legacy = underGitLock(pool, () => sweepStale(root), log);
  // Only what is left over: a run may be taking a slot at this moment.
  rmSync(join(pool, 'deps.json'), { force: true });
  try {
    rmdirSync(pool);
  } catch {
    // a run's files are there
  }
  return out;
}

/**
 * Removes the pools beside `pool` whose repository is gone (deleted or moved: every slot's `.git`
 * names a git dir that no longer exists), so that a deleted clone does not leave a checkout of every
 * file in /var/tmp for good. A pool is left alone while any of its locks names a live process, or when
 * any slot still points at a repository that exists. Runs when a slot is made (seconds of checkout
 * anyway) and in `gc`; it reads one `.git` file per slot of each pool. Returns how many it removed.
 */
export function sweepOrphanPools(pool: string): number {
  const own = dirname(pool);
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(own);
  } catch {
    return 0;
  }
  for (const name of names) {
    const other = join(own, name);
    if (other === pool || !/-[0-9a-f]{12}$/.test(name)) continue;
    try {
      const entries = readdirSync(other);
      const slots = entries.filter((e) => /^slot-\d+$/.test(e));
      if (slots.length === 0 || slots.some((slot) => repoExists(join(other, slot)))) continue;
      // A run of that pool (or one making a slot in it) still alive: not now.
      if (entries.some((e) => e.endsWith('.lock') && lockHeld(join(other, e)))) continue;
      const trash = join(own, `.gl-trash-${process.pid}-${Date.now()}-${removed}`);
      renameSync(other, trash);
      rmSync(trash, { recursive: true, force: true });
      removed++;
    } catch {
      // unreadable, or another run is removing it: left for the next sweep
    }
  }
  // What an earlier sweep renamed aside and could not finish.
  for (const name of names)
    if (/^\.gl-trash-\d+-/.test(name) && !isAliveOwner(name)) rmSync(join(own, name), { recursive: true, force: true });
  return removed;
}

/** Whether the repository a slot's `.git` file points at is there (a slot whose `.git` is unreadable counts as there: not ours to judge). */
function repoExists(slot: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(slot, '.git'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  const gitdir = gitdirIn(text);
  // <common dir>/worktrees/<name>: the repository is its common dir.
  return gitdir === undefined || existsSync(dirname(dirname(resolve(slot, gitdir))));
}

/** Whether the process that named a `.gl-trash-<pid>-...` folder is still removing it. */
function isAliveOwner(name: string): boolean {
  const pid = Number(/^\.gl-trash-(\d+)-/.exec(name)?.[1]);
  return pid === process.pid || isAlive(pid);
}

/** Removes the slots of one pool folder that no live run holds, with their records, caches and trash. */
function emptyPool(root: string, pool: string, out: PoolRemoval, log?: (line: string) => void): void {
  if (existsSync(pool)) {
    for (const n of slotNumbers(pool)) {
      const lock = join(pool, `slot-${n}.lock`);
      const dir = join(pool, `slot-${n}`);
      if (!tryLock(lock)) {
        out.busy.push({ slot: dir, pid: lockOwner(lock) ?? 0 });
        continue;
      }
      try {
        if (existsSync(dir) || adminDir(dir)) out.removed++;
        discard(root, pool, dir, log);
        rmSync(join(pool, `slot-${n}.json`), { force: true });
        rmSync(join(pool, `slot-${n}.cache`), { recursive: true, force: true });
      } finally {
        releaseLock(lock);
      }
    }
    for (const name of readdirSync(pool)) if (name.startsWith('trash-')) rmSync(join(pool, name), { recursive: true, force: true });
  }
}
