/**
 * Lock files that name their owner: created with O_EXCL, holding the owner's pid. A lock whose owner
 * has died (kill -9, a crash, a power loss) is taken over rather than waited on. Used for the worktree
 * pool: one lock per slot, and one for `git worktree add/remove` (see git/worktree-pool.ts).
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

/** Locks this process holds, so one whose file names our pid but that we never took (a reused pid) counts as stale. */
const held = new Set<string>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** A lock file still empty this long after it was made belongs to a process that died between creating and writing it. */
const EMPTY_GRACE_MS = 5_000;

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names; `undefined` when it is missing; `0` when it is empty or unreadable. */
export function lockOwner(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 0;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

function create(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  held.add(file);
  return true;
}

/** Whether the lock's owner is gone: a dead pid, our own pid on a lock we never took, or an empty file left long ago. */
function stale(file: string): boolean {
  const pid = lockOwner(file);
  if (pid === undefined) return false;
  if (pid === 0) {
    try {
      return Date.now() - statSync(file).mtimeMs > EMPTY_GRACE_MS;
    } catch {
      return false;
    }
  }
  if (pid === process.pid) return !held.has(file);
  return !isAlive(pid);
}

/**
 * Removes a stale lock so it can be taken. Two processes may find the same stale lock: the removal
 * happens under a second, short-lived lock (`<file>.break`), and the owner is checked again under it,
 * so the second one finds the first one's fresh lock and leaves it. A `.break` file outlives its maker
 * only if that process died within these few lines; one older than a few seconds is removed.
 */
function breakStale(file: string): void {
  const breaker = `${file}.break`;
  if (!create(breaker)) {
    try {
      if (Date.now() - statSync(breaker).mtimeMs > EMPTY_GRACE_MS) unlinkSync(breaker);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    if (stale(file)) unlinkSync(file);
  } catch {
    // removed meanwhile
  } finally {
    release(breaker);
  }
}

/** Takes the lock when it is free or its owner is dead; false when a live process holds it. Never waits. */
export function tryLock(file: string): boolean {
  if (create(file)) return true;
  if (!stale(file)) return false;
  breakStale(file);
  return create(file);
}

/** Releases a lock this process holds; a lock held by another process is left alone. */
export function release(file: string): void {
  if (!held.delete(file)) return;
  try {
    if (lockOwner(file) === process.pid) unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * Runs `fn` holding the lock, waiting for it (synchronously: its holders keep it for one short git
 * command) up to `timeoutMs`. `onWait` is called once, after `noticeMs`, with the holder's pid, so
 * the caller can say what it waits for. Throws when the time is up.
 */
export function withLock<T>(file: string, fn: () => T, opts: { timeoutMs: number; noticeMs?: number; onWait?: (pid: number) => void }): T {
  const started = Date.now();
  let told = false;
  for (let attempt = 0; !tryLock(file); attempt++) {
    const waited = Date.now() - started;
    if (waited > opts.timeoutMs) throw new Error(`${file} is held by process ${lockOwner(file) ?? '?'} for more than ${Math.round(opts.timeoutMs / 1000)} s`);
    if (!told && waited >= (opts.noticeMs ?? 2_000)) {
      told = true;
      opts.onWait?.(lockOwner(file) ?? 0);
    }
    Atomics.wait(sleeper, 0, 0, Math.min(100, 2 + attempt * 2));
  }
  try {
    return fn();
  } finally {
    release(file);
  }
}
