/**
 * Dependency folders (`node_modules`, `.venv`, ...) made usable in a pool slot without sharing what
 * the tools write: the slot holds its own copy of each (dependency-copy.ts), made once per install of
 * the checkout's and made again when a gate touched it, so nothing a gate writes there reaches the
 * checkout's. A node_modules copy's cache folders (`.cache`, `.vite`, `.vitest`) link to the slot's
 * own, kept outside the work tree so they survive the slot's cleaning.
 */
import { existsSync, lstatSync, mkdirSync, realpathSync, rmSync, statSync, symlinkSync } from '../util/node.js';
import { basename, dirname, join } from 'node:path';
import { readJson, writeJsonAtomic } from '../util/cache-files.js';
import { poolMsg } from './messages.js';
import { copyFolder, countEntries, installMark, repointLinks, repointScripts, sealTime, untouchedSince } from './dependency-copy.js';
import { git } from '../git/git.js';

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
  const r = git(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory'], {
    scrub: 'root',
  });
  const wanted = new Set<string>(DEPENDENCY_DIRS);
  const found = r.ok
    ? r.stdout
        .split('\0')
        .map((p) => p.replace(/\/$/, ''))
        .filter((p) => p !== '' && wanted.has(basename(p)))
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

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Per dependency folder, the copy a slot holds: `<inode>:<sealed at>:<entries>` (its folder's inode, a
 * time after it was made and how many entries it holds: untouchedSince), a space, and the install it was copied from (installMark).
 */
export type CopySeals = Record<string, string>;

/**
 * Gives a slot its own copy of each of the checkout's dependency folders and returns the ones there.
 * `previous` are the ones there last time (copies of ours, or links of an earlier version: kept,
 * remade or removed); `caches` is the slot's own cache folder, which a node_modules copy's `.cache`,
 * `.vite` and `.vitest` link to. A path the commit tracks is never replaced. `seals`: what each copy
 * was when it was made; a copy is kept only while the checkout's install is the one it was copied from
 * and every entry of it is as it was made (a gate wrote nothing there): else it is removed and copied
 * again. `notes`: a folder that could not be copied (the slot goes without it).
 */
export function linkDependencies(
  root: string,
  slot: string,
  deps: readonly string[],
  previous: readonly string[],
  caches: string,
  seals: CopySeals = {},
): { linked: string[]; seals: CopySeals; notes: string[] } {
  const linked: string[] = [];
  const kept: CopySeals = {};
  const notes: string[] = [];
  for (const rel of deps) {
    const from = join(root, rel);
    const to = join(slot, rel);
    if (!existsSync(from) || !existsSync(dirname(to))) continue;
    const st = lstatOrNull(to);
    if (st && !previous.includes(rel)) continue;
    const node = basename(rel) === 'node_modules';
    const mark = installMark(from, node);
    const known = seals[rel];
    const seal = known === undefined ? undefined : readSeal(known);
    if (known !== undefined && st?.isDirectory() && seal?.mark === mark && untouchedSince(to, seal.ino, seal.since, seal.entries)) {
      kept[rel] = known;
      linked.push(rel);
      continue;
    }
    if (st) rmSync(to, { recursive: true, force: true });
    const failed = copyFolder(from, to, new Set<string>(node ? SLOT_CACHES : []));
    if (failed !== undefined) {
      notes.push(poolMsg.notCopied(rel, failed));
      continue;
    }
    const moves = [
      [realOr(from), to],
      [from, to],
      [realOr(root), slot],
      [root, slot],
    ] as const;
    repointLinks(to, realOr(from), moves);
    if (node) linkCaches(to, join(caches, rel));
    else repointScripts(to, moves.slice(0, 2));
    kept[rel] = `${lstatSync(to).ino}:${sealTime()}:${countEntries(to)} ${mark}`;
    linked.push(rel);
  }
  for (const rel of previous) {
    if (linked.includes(rel)) continue;
    const to = join(slot, rel);
    const st = lstatOrNull(to);
    // A copy of ours (or a link of an earlier version): removed, a link without following it.
    if (st) rmSync(to, { recursive: true, force: true });
  }
  return { linked, seals: kept, notes };
}

/** A seal as CopySeals keeps it; undefined when it is not one. Pure. */
function readSeal(text: string): { ino: number; since: number; entries: number; mark: string } | undefined {
  const at = text.indexOf(' ');
  const [ino, since, entries] = text.slice(0, at).split(':').map(Number);
  if (at < 0 || ino === undefined || since === undefined || entries === undefined || [ino, since, entries].some(Number.isNaN))
    return undefined;
  return { ino, since, entries, mark: text.slice(at + 1) };
}

/** A node_modules copy's cache folders: links to the slot's own, kept outside the work tree. */
function linkCaches(to: string, caches: string): void {
  for (const name of SLOT_CACHES) {
    const own = join(caches, name);
    mkdirSync(own, { recursive: true });
    const at = join(to, name);
    if (lstatOrNull(at)) rmSync(at, { recursive: true, force: true });
    symlinkSync(own, at);
  }
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
