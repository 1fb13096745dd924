import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { newRunId } from './hash.js';

/** Caches live beside the ledger, shared by every worktree of the repo, never committed. */
export function cacheDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'cache');
}

/** A JSON file's value; `undefined` when it is missing or unreadable (a cache miss, never an error). */
export function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Writes a file whole or not at all: a temp file renamed over the target, so a concurrent reader
 * sees the old or the new content and concurrent writers of one name both leave a valid one. Keeps
 * at most `keep` files starting with `prefix` in the folder, removing the oldest. Failures are
 * ignored: a cache that cannot be written costs time, never a verdict.
 */
export function writeFileAtomic(path: string, data: string, opts: { prefix: string; keep: number }): void {
  const dir = dirname(path);
  const tmp = join(dir, `.tmp-${process.pid}-${newRunId()}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    prune(dir, opts.prefix, opts.keep, basename(path));
  } catch {
    unlinkQuiet(tmp);
  }
}

export function writeJsonAtomic(path: string, value: unknown, opts: { prefix: string; keep: number }): void {
  writeFileAtomic(path, `${JSON.stringify(value)}\n`, opts);
}

/** A file's text; `undefined` when it is missing or unreadable. */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function prune(dir: string, prefix: string, keep: number, fresh: string): void {
  const names = readdirSync(dir).filter((n) => n.startsWith(prefix) && n !== fresh);
  if (names.length < keep) return;
  const aged = names
    .map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, aged.length - keep + 1)) unlinkQuiet(join(dir, n));
}

/** unlinkSync, not rmSync: rmSync loads node's rimraf, a cost on every push. */
function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
