/**
 * Cleaning a pool slot without reading every folder: after a slot is made exactly a commit, the lstat of
 * each of its folders is kept (the commit's trees: from `git ls-tree -d` when the slot is made, then
 * carried from one move to the next). Anything a gate adds, deletes
 * or renames changes the lstat of the folder it is in, so next time only folders whose lstat differs are
 * read, and whatever in them the commit does not track is removed. (Edits of tracked files change no
 * folder; `git checkout -f` finds those.) The same idea as git's untracked cache, for ignored files too.
 */
import { lstatSync, readdirSync, rmSync } from '../util/node.js';
import { join } from 'node:path';
import { git } from '../git/git.js';

/** When the record was made (ms), and each folder (`''` is the top) with its lstat: inode and mtime. */
export interface DirRecord {
  /** The commit the slot was exactly when recorded: what it tracks is what stays. */
  sha: string;
  at: number;
  dirs: [path: string, ino: number, mtimeMs: number][];
  /**
   * The entries of the folders read while recording (those the move changed), but the dependency links and
   * submodules: with the slot exactly `sha`, what the commit tracks there. The next clean takes a folder's
   * tracked entries from here instead of `git ls-tree`.
   */
  names?: Record<string, string[]>;
}

/**
 * A folder changed this close to the record (ms) may change again within the same timestamp tick
 * without its mtime moving, so it is read next time whatever its lstat says (git's "racily clean").
 */
export const RACY_MS = 2_000;

function lstatOf(path: string): { ino: number; mtimeMs: number } | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st?.isDirectory() ? { ino: st.ino, mtimeMs: st.mtimeMs } : undefined;
}

/** Records the folders of `slot`, exactly at `sha`, as git lists them; undefined when it cannot (the next clean reads everything). */
export function recordDirs(slot: string, sha: string): DirRecord | undefined {
  const r = git(slot, ['ls-tree', '-r', '-d', '--name-only', '-z', sha], { scrub: true });
  if (!r.ok) return undefined;
  const dirs: DirRecord['dirs'] = [];
  for (const path of ['', ...r.stdout.split('\0').filter(Boolean)]) {
    const st = lstatOf(join(slot, path));
    if (st) dirs.push([path, st.ino, st.mtimeMs]);
  }
  return { sha, at: Date.now(), dirs };
}

/**
 * The record of `slot` once it is exactly `sha` again, from the last one without asking git: folders
 * still there keep their place; folders changed since `since` (ms, when the move began: the clean and
 * the checkout touched them) are read for folders the checkout made, which cannot be anywhere else (a new
 * folder changes its parent). `skip`: paths that are not the commit's (dependency links, submodules).
 */
export function updateRecord(slot: string, sha: string, last: DirRecord, since: number, skip: readonly string[]): DirRecord {
  const known = new Set<string>();
  const dirs: DirRecord['dirs'] = [];
  const toRead: string[] = [];
  const add = (path: string, st: { ino: number; mtimeMs: number }) => {
    known.add(path);
    dirs.push([path, st.ino, st.mtimeMs]);
    if (st.mtimeMs >= since - RACY_MS) toRead.push(path);
  };
  for (const [path] of last.dirs) {
    const st = lstatOf(join(slot, path));
    if (st) add(path, st);
  }
  const skipped = new Set(skip);
  // No prototype: a folder named `__proto__` or `constructor` is a key like any other.
  const names: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (let path = toRead.pop(); path !== undefined; path = toRead.pop()) {
    // The entries' types from the folder listing (d_type; node lstats any the file system leaves unknown): only
    // folders are lstat'ed, not every file of a folder the move changed (100 calls a folder in the bench; with the
    // single state write in acquireSlot, its own work went from 73 to 68 ms median at load 10, within the noise).
    const listed: string[] = [];
    for (const entry of readdirSync(join(slot, path), { withFileTypes: true })) {
      const rel = path === '' ? entry.name : `${path}/${entry.name}`;
      if (skipped.has(rel) || rel === '.git') continue;
      listed.push(entry.name);
      if (!entry.isDirectory() || known.has(rel)) continue;
      const st = lstatOf(join(slot, rel));
      if (st) add(rel, st);
    }
    // A name that is not UTF-8 reads back with U+FFFD: that folder is left to git ls-tree.
    if (!listed.some((n) => n.includes('\uFFFD'))) names[path] = listed;
  }
  return { sha, at: Date.now(), dirs, names };
}

/** The recorded folders whose lstat differs now, or that were changed too close to the record to tell. */
export function changedDirs(slot: string, record: DirRecord): string[] {
  const racy = record.at - RACY_MS;
  const out: string[] = [];
  for (const [path, ino, mtimeMs] of record.dirs) {
    const st = lstatOf(join(slot, path));
    if (st === undefined || st.ino !== ino || st.mtimeMs !== mtimeMs || mtimeMs >= racy) out.push(path);
  }
  return out;
}

/**
 * In each of `dirs` (folders of `slot`, `''` the top), removes every entry the recorded commit does not
 * track there, except `keep` (the dependency links, the submodules) and the slot's `.git` file. A folder
 * gone or no longer a folder is left to the checkout that follows. False when git cannot say what is
 * tracked (clean everything then).
 */
export function cleanDirs(slot: string, record: DirRecord, dirs: readonly string[], keep: readonly string[]): boolean {
  if (dirs.length === 0) return true;
  // git ls-tree shows a folder asked for inside another one asked for by its entries, not as an entry:
  // the record's folders are the commit's, so they count as tracked whatever ls-tree printed.
  const folders = new Set<string>(record.dirs.map(([path]) => path));
  const tracked = new Set<string>(folders);
  // Speed: a folder the last move changed (read again, as changed within RACY_MS of the record: in the bench, the
  // folder of the file each push changes) has its entries in the record, so no `git ls-tree` process is started for
  // it (about 2 ms of git's CPU plus the spawn, 5 to 11 ms at load 9 here). Fallback: a folder without them, git.
  const names = record.names ?? {};
  const listed = (d: string): string[] | undefined => (Object.hasOwn(names, d) ? names[d] : undefined);
  for (const d of dirs) for (const name of listed(d) ?? []) tracked.add(d === '' ? name : `${d}/${name}`);
  const nested = dirs.filter((d) => d !== '' && listed(d) === undefined);
  for (const args of [
    dirs.includes('') && listed('') === undefined ? [] : undefined,
    nested.length > 0 ? ['--', ...nested.map((d) => `${d}/`)] : undefined,
  ]) {
    if (args === undefined) continue;
    const r = git(slot, ['ls-tree', '-z', '--name-only', record.sha, ...args], { scrub: true });
    if (!r.ok) return false;
    for (const p of r.stdout.split('\0')) if (p !== '') tracked.add(p);
  }
  const kept = new Set(keep);
  for (const dir of dirs) {
    const at = join(slot, dir);
    if (lstatOf(at) === undefined) continue;
    // Names as bytes: one that is not UTF-8 cannot be tracked under the name we would compare, and is removed by its bytes.
    for (const raw of readdirSync(at, { encoding: 'buffer' })) {
      const name = raw.toString('utf8');
      const rel = dir === '' ? name : `${dir}/${name}`;
      const exact = Buffer.from(name, 'utf8').equals(raw);
      // A folder of the commit must still be a folder: one a gate replaced by a symlink (to a copy elsewhere, its
      // files with the same lstat) would pass `git checkout`'s lstat of every file through the link, and stay.
      if (exact && folders.has(rel) && lstatOf(join(at, name)) === undefined) {
        rmSync(join(at, name), { recursive: true, force: true });
        continue;
      }
      if (exact && (tracked.has(rel) || kept.has(rel) || rel === '.git')) continue;
      rmSync(exact ? join(at, name) : Buffer.concat([Buffer.from(`${at}/`), raw]), { recursive: true, force: true });
    }
  }
  return true;
}
