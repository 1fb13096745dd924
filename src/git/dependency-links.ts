/**
 * Dependency folders (`node_modules`, `.venv`, ...) made usable in a pool slot without sharing what
 * the tools write: a `node_modules` is a real folder in the slot whose entries link to the checkout's,
 * except its cache folders (`.cache`, `.vite`, `.vitest`), which link to the slot's own, kept outside
 * the work tree so they survive the slot's cleaning. Other dependency folders are linked whole.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readJson, writeJsonAtomic } from '../util/cache-files.js';
import { git } from './git.js';
import { RACY_MS } from './slot-dirs.js';

/** Dependency folders a gate needs but git does not track. */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv', '.tox'] as const;

/** Cache folders tools keep inside node_modules: each slot has its own, never the checkout's. */
export const SLOT_CACHES = ['.cache', '.vite', '.vitest'] as const;

/** Files an install writes (or that decide what it writes): when none changed, the last scan still holds. */
const INSTALL_MARKERS = [
  '.',
  ...DEPENDENCY_DIRS,
  'node_modules/.package-lock.json',
  'node_modules/.modules.yaml',
  'node_modules/.yarn-state.yml',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'yarn.lock',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
];

function fingerprint(root: string): string {
  return INSTALL_MARKERS.map((p) => {
    const st = statSync(join(root, p), { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.mtimeMs}` : '-';
  }).join(' ');
}

/** Ignored dependency folders anywhere in the checkout (`node_modules`, `packages/a/node_modules`, `.venv`, ...). */
function scan(root: string): string[] {
  const r = git(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory'], { scrub: 'root' });
  const wanted = new Set<string>(DEPENDENCY_DIRS);
  const found = r.ok
    ? r.stdout.split('\0').map((p) => p.replace(/\/$/, '')).filter((p) => p !== '' && wanted.has(basename(p)))
    : [];
  // Not ignored (or not a repo git can list): still the top-level ones that exist.
  for (const name of DEPENDENCY_DIRS) if (!found.includes(name) && existsSync(join(root, name))) found.push(name);
  return found.sort();
}

/**
 * The checkout's dependency folders. Finding nested ones reads every folder of the checkout (about
 * 0.1 s in a 50,000-file repository), so the answer is kept in `memo` and read again while the files an
 * install touches (lock files, `node_modules/.package-lock.json`, the top folder's entries) are unchanged.
 */
export function dependencyDirs(root: string, memo: string): string[] {
  const key = fingerprint(root);
  const known = readJson<{ key: string; dirs: string[] }>(memo);
  if (known?.key === key && Array.isArray(known.dirs)) return known.dirs;
  const dirs = scan(root);
  writeJsonAtomic(memo, { key, dirs }, { prefix: basename(memo), keep: 1 });
  return dirs;
}

/** The first of `paths` that is a dependency folder or inside one, as `links` names them; undefined when none. Pure. */
export function pathIntoLinks(paths: readonly string[], links: readonly string[]): string | undefined {
  return paths.find((p) => links.some((l) => p === l || p.startsWith(`${l}/`)));
}

const lstatOrNull = (path: string) => lstatSync(path, { throwIfNoEntry: false }) ?? null;

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** Makes `to` a link to `target`, replacing a link of ours that points elsewhere; never replaces a file or folder. */
function ensureLink(target: string, to: string): boolean {
  const now = readlinkOrNull(to);
  if (now === target) return true;
  if (now !== null) unlinkSync(to);
  else if (lstatOrNull(to)) return false;
  symlinkSync(target, to);
  return true;
}

/**
 * What a node_modules mirror was last synced against, per dependency folder: the lstat (inode, mtime) of
 * the checkout's folder and the mirror, and of each scope folder (`@x`) on both sides.
 */
export type MirrorMarks = Record<string, string>;

/**
 * Links the checkout's dependency folders into a slot and returns the ones linked. `previous` are the
 * ones linked last time (links of ours to keep, update or remove); `caches` is the slot's own cache
 * folder. A path the commit tracks is never replaced. `marks`: what each node_modules mirror was synced
 * against last time (none: every mirror is synced); the marks of this sync come back with the links.
 */
export function linkDependencies(
  root: string,
  slot: string,
  deps: readonly string[],
  previous: readonly string[],
  caches: string,
  marks: MirrorMarks = {},
): { linked: string[]; marks: MirrorMarks } {
  const linked: string[] = [];
  const synced: MirrorMarks = {};
  for (const rel of deps) {
    const from = join(root, rel);
    const to = join(slot, rel);
    if (!existsSync(from) || !existsSync(dirname(to))) continue;
    if (basename(rel) === 'node_modules') {
      const st = lstatOrNull(to);
      if (st?.isSymbolicLink()) unlinkSync(to);
      else if (st && !(st.isDirectory() && previous.includes(rel))) continue;
      const mark = mirrorNodeModules(root, from, to, join(caches, rel), previous.includes(rel) ? marks[rel] : undefined);
      if (mark !== undefined) synced[rel] = mark;
    } else if (!ensureLink(from, to)) {
      continue;
    }
    linked.push(rel);
  }
  for (const rel of previous) {
    if (linked.includes(rel)) continue;
    const to = join(slot, rel);
    const st = lstatOrNull(to);
    if (st?.isSymbolicLink()) unlinkSync(to);
    // A mirror of ours: links (and what gates wrote), removed without following them.
    else if (st?.isDirectory()) rmSync(to, { recursive: true, force: true });
  }
  return { linked, marks: synced };
}

/**
 * The lstat of a mirror's folders and the checkout's, as one string: `scopes` (then the inode and
 * mtime of each folder), or undefined when one of them changed within RACY_MS of now (it could change
 * again within one timestamp tick unseen: the next sync must not trust it). Adding, removing or
 * replacing an entry changes its folder's mtime; what a package folder holds is not the mirror's (its
 * link shows the checkout's files as they are).
 */
function mirrorMark(from: string, to: string, scopes: readonly string[]): string | undefined {
  const now = Date.now();
  const parts = [scopes.join('/')];
  for (const dir of [from, to, ...scopes.flatMap((s) => [join(from, s), join(to, s)])]) {
    const st = lstatOrNull(dir);
    if (!st?.isDirectory() || st.mtimeMs >= now - RACY_MS) return undefined;
    parts.push(`${st.ino}:${st.mtimeMs}`);
  }
  return parts.join(' ');
}

/** The scope folders (`@x`) a mark names; the same checks as mirrorMark, against the mark. */
function markHolds(from: string, to: string, mark: string): boolean {
  const scopes = mark.slice(0, mark.indexOf(' ')).split('/').filter((s) => s !== '');
  return mirrorMark(from, to, scopes) === mark;
}

/**
 * node_modules, entry by entry: packages link to the checkout's copy, but a workspace package (a relative
 * link into the repo, as npm, yarn and pnpm make them) links into the slot, so the judged version is
 * tested. The cache folders link to the slot's own. Entries the checkout no longer has are removed.
 * Returns the mark of this sync (mirrorMark), undefined when it cannot be trusted next time.
 *
 * Speed: with `last` (the mark of the previous sync) still holding, neither side's folders changed, so
 * the mirror is already exactly the checkout's and the entry-by-entry sync is skipped: one lstat per
 * folder instead of a readdir of each side and an lstat and readlink per entry (1,200 packages in 20
 * scopes: 17 ms against 0.24 ms, medians of 41 interleaved at load 8.6). Fallback: any difference, or
 * no mark, syncs.
 */
function mirrorNodeModules(root: string, from: string, to: string, caches: string, last?: string): string | undefined {
  mkdirSync(to, { recursive: true });
  for (const name of SLOT_CACHES) {
    const own = join(caches, name);
    mkdirSync(own, { recursive: true });
    const at = join(to, name);
    if (lstatOrNull(at)?.isSymbolicLink() === false) rmSync(at, { recursive: true, force: true });
    ensureLink(own, at);
  }
  if (last !== undefined && markHolds(from, to, last)) return last;
  const scopes = syncEntries(root, from, to, new Set<string>(SLOT_CACHES));
  return mirrorMark(from, to, scopes);
}

/**
 * Makes the mirror folder `to` hold exactly a link for each entry of `from` (a scope folder: a folder of
 * links), but `skip`. The mirror is ours: anything else in it (a file a gate wrote there) is removed,
 * and never followed (rmSync removes a link, not what it points at). Returns the scope folders synced.
 */
function syncEntries(root: string, from: string, to: string, skip: ReadonlySet<string>): string[] {
  const scopes: string[] = [];
  const want = new Set(readdirSync(from).filter((n) => !skip.has(n)));
  for (const name of readdirSync(to)) {
    if (!want.has(name) && !skip.has(name)) rmSync(join(to, name), { recursive: true, force: true });
  }
  for (const name of want) {
    const src = join(from, name);
    const dst = join(to, name);
    const st = lstatSync(src);
    const there = lstatOrNull(dst);
    if (name.startsWith('@') && st.isDirectory()) {
      if (there && !there.isDirectory()) rmSync(dst, { force: true });
      mkdirSync(dst, { recursive: true });
      syncEntries(root, src, dst, new Set());
      scopes.push(name);
      continue;
    }
    const target = st.isSymbolicLink() && pointsIntoRepo(root, src) ? readlinkSync(src) : src;
    if (there && !there.isSymbolicLink()) rmSync(dst, { recursive: true, force: true });
    ensureLink(target, dst);
  }
  return scopes.sort();
}

/** A relative link whose target is in the repo but outside any node_modules: a workspace package. */
function pointsIntoRepo(root: string, link: string): boolean {
  const target = readlinkSync(link);
  if (isAbsolute(target)) return false;
  const rel = relative(root, resolve(dirname(link), target));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('node_modules');
}

/**
 * The environment of a gate in the slot `dir`: its code imported from the slot, not from the checkout.
 * A Python project installed in editable mode (`pip install -e .`, a `.venv` the slot links to) points
 * its site-packages at the checkout's `src/`, so `import pkg` under pytest in a slot would test the
 * checkout's files, uncommitted edits and all. Putting the slot's `src` first on PYTHONPATH (which
 * Python reads before site-packages and its `.pth` entries) makes the slot's copy the one imported. A
 * flat layout needs nothing: `python -m pytest` and pytest's rootdir put the slot's own root first.
 */
export function slotEnv(dir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const src = join(dir, 'src');
  if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) return env;
  const rest = env.PYTHONPATH ? `:${env.PYTHONPATH}` : '';
  return { ...env, PYTHONPATH: `${src}${rest}` };
}

