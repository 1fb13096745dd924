/**
 * A slot's own copy of one of the checkout's dependency folders (`node_modules`, `.venv`, ...), so that
 * nothing a gate in the slot writes there reaches the checkout's. Made once per install of the
 * checkout's folder (installMark), sealed (sealTime), and checked before each run (untouchedSince):
 * a copy a gate touched is thrown away and made again.
 */
import {
  constants,
  cpSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from '../util/node.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hash } from '../util/hash.js';

/** How copies are made: changed when a copy an earlier version made must be made again. */
const COPY_FORMAT = 'links-2';

/** Files an install writes inside the folder: npm, pnpm, yarn 1 and yarn 2+, a venv's own config. */
const INSTALL_FILES = ['.package-lock.json', '.modules.yaml', '.yarn-integrity', '.yarn-state.yml', 'pyvenv.cfg', 'bin'];

/**
 * What the checkout's folder was when a copy was made: its real path, and the lstat (inode, mtime) of
 * the folder, the files an install writes in it, its scope folders (`@x`), and each `lib/python*\/site-packages`
 * (a venv's, or each of a `.tox`'s envs). An install (npm, pnpm, yarn, pip) changes one of them; an edit by
 * hand of a file inside a package does not, and reaches slots only with the next install or `gate-ladder gc`.
 */
export function installMark(from: string, node: boolean): string {
  let real: string;
  try {
    real = realpathSync(from);
  } catch {
    return '-';
  }
  // COPY_FORMAT first: a copy an earlier version made (its links not yet re-pointed as repointLinks does now) is made again.
  const parts = [COPY_FORMAT, real];
  const add = (p: string) => {
    const st = lstatQuiet(p);
    parts.push(st ? `${st.ino}:${st.mtimeMs}` : '-');
  };
  add(real);
  for (const f of INSTALL_FILES) add(join(real, f));
  const names = safeReaddir(real);
  if (node) {
    for (const name of names) if (name.startsWith('@')) add(join(real, name));
  } else {
    const sites = (venv: string) => {
      for (const py of safeReaddir(join(venv, 'lib'))) if (py.startsWith('python')) add(join(venv, 'lib', py, 'site-packages'));
    };
    sites(real);
    // A .tox: one venv per folder.
    for (const env of names) {
      if (!isFile(join(real, env, 'pyvenv.cfg'))) continue;
      add(join(real, env, 'pyvenv.cfg'));
      sites(join(real, env));
    }
  }
  return hash(parts.join(' '));
}

const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}${sep}`);

function lstatQuiet(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * Whether nothing under `dir` changed since `since` (a time after the copy was made: pastTick), with
 * `dir` still the folder of inode `ino`. Writing, appending, truncating, a mode change, adding, removing
 * or renaming an entry sets the ctime of the file or of its folder to the clock's time, and nothing but
 * the clock can set it back; so one lstat per entry (links not followed) says it, and the walk stops at
 * the first entry changed. Cost: a readdir per folder and an lstat per entry (docs/performance.md).
 */
export function untouchedSince(dir: string, ino: number, since: number, entries: number): boolean {
  const top = lstatQuiet(dir);
  if (!top?.isDirectory() || top.ino !== ino || top.ctimeMs > since) return false;
  // A big folder: GNU find walks it in about half the time (39,000 entries: 0.55 s against 0.87 s on a loaded machine); a
  // small one: no process to start. A find that cannot say (not GNU, an unreadable folder): the walk below.
  if (entries > FIND_ABOVE) {
    const found = process
      .getBuiltinModule('node:child_process')
      .spawnSync('find', [dir, '-newerct', `@${(since / 1000).toFixed(3)}`, '-print', '-quit'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (found.status === 0 && found.error === undefined) return found.stdout === '';
  }
  const stack = [dir];
  for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return false;
    }
    for (const name of names) {
      const p = `${d}${sep}${name}`;
      const st = lstatQuiet(p);
      if (st === undefined || st.ctimeMs > since) return false;
      if (st.isDirectory()) stack.push(p);
    }
  }
  return true;
}

/**
 * Copies the checkout's folder `from` (its real folder, when `from` is a link) to `to`, which must not
 * exist, but the entries `skip` names. Copy-on-write where the file system offers it (`cp --reflink=auto`:
 * btrfs, XFS; else a plain copy), fs.cpSync where there is no GNU cp. Links are copied as links. Returns
 * undefined, or why it could not (the half-made copy is removed).
 */
export function copyFolder(from: string, to: string, skip: ReadonlySet<string>): string | undefined {
  let real: string;
  try {
    real = realpathSync(from);
  } catch (e) {
    return (e as Error).message;
  }
  mkdirSync(to, { recursive: true });
  const names = safeReaddir(real).filter((n) => !skip.has(n));
  if (names.length === 0) return undefined;
  const cp = process
    .getBuiltinModule('node:child_process')
    .spawnSync('cp', ['-a', '--reflink=auto', '--', ...names.map((n) => join(real, n)), `${to}${sep}`], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
  if (cp.status === 0) return undefined;
  try {
    for (const n of safeReaddir(to)) rmSync(join(to, n), { recursive: true, force: true });
    for (const n of names) {
      cpSync(join(real, n), join(to, n), {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
        mode: constants.COPYFILE_FICLONE,
      });
    }
    return undefined;
  } catch (e) {
    rmSync(to, { recursive: true, force: true });
    return `${(cp.stderr ?? '').trim().split('\n')[0] || 'cp failed'}; ${(e as Error).message}`;
  }
}

/**
 * Each link of the copy `dir` leads where the same link led in the checkout's folder, `source` (its real
 * path, where the copy was made from): a relative link is read from the checkout's place, not the
 * copy's. What it led to inside the checkout (its dependency folder or its work tree: `npm link`, a
 * workspace package, a hand-made link) is the same place in the slot, so no write through the copy
 * lands in the checkout; `moves` maps a checkout prefix to the slot's, longest first. What it led to
 * outside (a `file:../outside` package, pnpm's store, a system Python) is where it still leads. A link
 * that already resolves there from the copy is left as it is; another is re-pointed: an absolute one
 * stays absolute, a relative one stays relative while it stays in the slot and is made absolute when it
 * leads out (`node_modules/outdep -> ../../outside` would otherwise name a folder beside the slot that
 * does not exist).
 */
export function repointLinks(dir: string, source: string, moves: readonly (readonly [string, string])[]): void {
  const walk = (d: string) => {
    for (const name of safeReaddir(d)) {
      const p = join(d, name);
      const st = lstatQuiet(p);
      if (st?.isDirectory()) walk(p);
      if (!st?.isSymbolicLink()) continue;
      const raw = readlinkSync(p);
      const want = linkWants(resolve(dirname(source + p.slice(dir.length)), raw), moves);
      if (resolve(dirname(p), raw) === want) continue;
      unlinkSync(p);
      const inSlot = !isAbsolute(raw) && moves.some(([, b]) => within(want, b));
      symlinkSync(inSlot ? relative(dirname(p), want) || '.' : want, p);
    }
  };
  walk(dir);
}

/**
 * Where a copied link should lead, given `led`, where it led in the checkout: the same place in the slot
 * when that was inside the checkout (the first of `moves` whose checkout prefix holds it), else `led`
 * itself; a place already in the slot (which may lie inside the checkout, under .git, when no folder
 * outside would do) stays. Pure.
 */
export function linkWants(led: string, moves: readonly (readonly [string, string])[]): string {
  if (moves.some(([, b]) => within(led, b))) return led;
  const move = moves.find(([a]) => within(led, a));
  return move === undefined ? led : move[1] + led.slice(move[0].length);
}

/**
 * A virtualenv's scripts name it by its absolute path (`#!/repo/.venv/bin/python`, `VIRTUAL_ENV=` in
 * `bin/activate`): in the copy, each such file of `bin/` (the venv's, or each `.tox` env's) and
 * `pyvenv.cfg` names the copy instead, so a console script runs the slot's interpreter and site-packages.
 */
export function repointScripts(dir: string, moves: readonly (readonly [string, string])[]): void {
  const files: string[] = [];
  const scan = (venv: string) => {
    files.push(join(venv, 'pyvenv.cfg'));
    for (const f of safeReaddir(join(venv, 'bin'))) files.push(join(venv, 'bin', f));
  };
  scan(dir);
  for (const env of safeReaddir(dir)) if (isFile(join(dir, env, 'pyvenv.cfg'))) scan(join(dir, env));
  for (const file of files) {
    const st = lstatQuiet(file);
    if (!st?.isFile() || st.size > 1 << 20) continue;
    const text = readFileSync(file, 'latin1');
    if (!text.startsWith('#!') && !file.endsWith('pyvenv.cfg') && !/\/activate[^/]*$/.test(file)) continue;
    // One pass, longest prefix first: a path already replaced is not replaced again.
    const sources = moves.map(([a]) => a).sort((x, y) => y.length - x.length);
    const pattern = new RegExp(`(?:${sources.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=[/\\s'"]|$)`, 'gm');
    const out = text.replace(pattern, (a) => moves.find(([x]) => x === a)?.[1] ?? a);
    if (out !== text) writeFileSync(file, out, 'latin1');
  }
}

/** Entries above which untouchedSince asks find. */
const FIND_ABOVE = 5_000;

/** How many entries are under `dir` (links not followed): once per copy, to choose how untouchedSince walks it. */
export function countEntries(dir: string): number {
  let n = 0;
  const stack = [dir];
  for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
    for (const e of safeDirents(d)) {
      n++;
      if (e.isDirectory()) stack.push(`${d}${sep}${e.name}`);
    }
  }
  return n;
}

function safeDirents(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * A time after every write of the copy just made and before any later one: the clock is read, then
 * waited on until it is 30 ms past it (more than a timestamp tick: a file's times come from a clock
 * that may lag the wall clock by one), so an entry whose ctime is later than the time returned was
 * changed after the copy. Once per copy made.
 */
export function sealTime(): number {
  const t = Date.now();
  const wait = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() <= t + 30) Atomics.wait(wait, 0, 0, 5);
  return t + 15;
}
