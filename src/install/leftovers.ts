/** What gate-ladder keeps under the git dir beside the ledger: listed by `uninstall`, removed by `uninstall --purge`. */
import { lstatSync, readdirSync, rmSync, rmdirSync } from '../util/node.js';
import { join } from 'node:path';
import { git } from '../git/git.js';

/** One file or folder of `<git common dir>/gate-ladder/`. */
export interface Leftover {
  /** Its name in that folder, with a `/` after a folder's. */
  name: string;
  path: string;
  /** Its size, every file below a folder counted (links not followed). */
  bytes: number;
  /** What it is, in a few words. */
  what: string;
  /** The user's data (the ledger and what it feeds), not a cache. */
  data: boolean;
}

/** The folder gate-ladder keeps its files in: the ledger, caches, logs, records. */
export const dataDir = (commonDir: string) => join(commonDir, 'gate-ladder');

/** What each known name is; another name (a later version's file) is listed as it is. */
const KNOWN: Record<string, { what: string; data: boolean }> = {
  'ledger.jsonl': { what: "the ledger: every push's verdicts", data: true },
  'tests.jsonl': { what: 'per-test history (flaky tests, freezes)', data: true },
  team: { what: "the team's rows fetched by sync", data: true },
  origin: { what: "this clone's id for sync", data: true },
  cache: { what: 'caches (passed trees, configs, diffs)', data: false },
  'config-at': { what: 'configs of judged commits, kept to load them again', data: false },
  gates: { what: "records of gates' processes", data: false },
  logs: { what: "gates' full output logs", data: false },
  'report.html': { what: 'the HTML report', data: false },
};

/** install.json goes with uninstall itself; `worktrees` is an earlier version's pool, removed with the pool. */
const NOT_LISTED = new Set(['install.json', 'worktrees']);

/** Bytes under `path`, not following links. */
function sizeOf(path: string): number {
  try {
    const st = lstatSync(path);
    if (!st.isDirectory()) return st.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

/** What is in `<git common dir>/gate-ladder/` besides install.json and the pool: the data first, each with its size. */
export function leftovers(commonDir: string): Leftover[] {
  const dir = dataDir(commonDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !NOT_LISTED.has(n));
  } catch {
    return [];
  }
  const found = names.map((name): Leftover => {
    const path = join(dir, name);
    let folder = false;
    try {
      folder = lstatSync(path).isDirectory();
    } catch {
      // gone meanwhile: listed as empty
    }
    const known =
      KNOWN[name] ?? (name.endsWith('.lock') ? { what: 'a lock file', data: false } : { what: "gate-ladder's file", data: false });
    return { name: folder ? `${name}/` : name, path, bytes: sizeOf(path), ...known };
  });
  return found.sort((a, b) => Number(b.data) - Number(a.data) || a.name.localeCompare(b.name));
}

/** The refs `sync` keeps in this repository (`refs/gate-ladder/`: the team's ledgers as fetched, this clone's own). */
export function syncRefs(root: string): string[] {
  const r = git(root, ['for-each-ref', '--format=%(refname)', 'refs/gate-ladder/']);
  return r.ok ? r.stdout.split('\n').filter(Boolean) : [];
}

/** Deletes `sync`'s refs in this repository (the remote's copies stay); whether git did. */
export function deleteSyncRefs(root: string, refs: readonly string[]): boolean {
  if (refs.length === 0) return true;
  return git(root, ['update-ref', '--stdin'], refs.map((r) => `delete ${r}\n`).join('')).ok;
}

/** Removes what `leftovers` lists, and the folder when nothing else is left in it. Returns what it removed and what it could not. */
export function purge(commonDir: string): { removed: Leftover[]; failed: { item: Leftover; why: string }[] } {
  const removed: Leftover[] = [];
  const failed: { item: Leftover; why: string }[] = [];
  for (const item of leftovers(commonDir)) {
    try {
      rmSync(item.path, { recursive: true, force: true });
      removed.push(item);
    } catch (e) {
      failed.push({ item, why: e instanceof Error ? e.message : String(e) });
    }
  }
  try {
    rmdirSync(dataDir(commonDir));
  } catch {
    // a live run's file, or an earlier version's pool with a slot in use: left
  }
  return { removed, failed };
}
