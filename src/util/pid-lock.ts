/**
 * Lock files that name their owner: `<pid> <start time> <host>`, written whole to a file of the
 * process's own and linked into place (the link fails when the lock is there), so a lock file is never
 * seen half-written. A lock whose owner is gone (kill -9, a crash, a power loss, a reused pid whose
 * start time differs) or that names no owner at all (empty, torn, garbage: left by a disk-full write
 * or an earlier version) is taken over at once rather than waited on. Used for the worktree pool: one
 * lock per slot, and one for `git worktree add/remove` (see slots/worktree-pool.ts), and for the ledger.
 */
import { basename, dirname, join } from 'node:path';
import { closeSync, linkSync, openSync, readFileSync, readdirSync, statSync, unlinkSync, writeSync } from './node.js';
import { hostName, ownStartTime, isAlive as running } from './proc.js';

/** Locks this process holds, so one whose file names our pid but that we never took (a reused pid) counts as stale. */
const held = new Set<string>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** A take-over marker older than this was left by a process that died within the few lines of a take-over. */
const BREAK_STALE_MS = 5_000;

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  return running(pid);
}

let self: string | undefined;
/** This process as a lock file names it: pid, start time and host (each `-` when unknown). */
export const ownerLine = (): string => (self ??= `${process.pid} ${ownStartTime() ?? '-'} ${hostName() ?? '-'}\n`);

/** Who a lock file names: `undefined` when there is no file, `null` when it names no one (empty, torn, garbage). */
export function readOwner(file: string): { pid: number; start?: string; host?: string } | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
  // Whole lines only: `12` with no newline is a torn write, not pid 12.
  const m = /^(\d{1,10})(?: (\S+) (\S+))?\n$/.exec(text);
  const pid = Number(m?.[1]);
  if (!m || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return { pid, ...(m[2] && m[2] !== '-' && { start: m[2] }), ...(m[3] && m[3] !== '-' && { host: m[3] }) };
}

/** The pid a lock file names; `undefined` when it is missing; `0` when it names no one. */
export function lockOwner(file: string): number | undefined {
  const owner = readOwner(file);
  return owner === undefined ? undefined : (owner?.pid ?? 0);
}

/**
 * Creates `file` holding `line`, whole or not at all: written to a file of this process's own, then
 * hard-linked into place. False when `file` exists. Where the file system has no hard links, created
 * exclusively and written (and removed again if the write fails). Throws on any other failure
 * (ENOENT: no folder; ENOSPC), leaving nothing behind.
 */
export function createOwned(file: string, line: string = ownerLine()): boolean {
  const own = `${file}.${process.pid}.new`;
  write(own, 'w', line);
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
  } finally {
    try {
      unlinkSync(own);
    } catch {
      // gone
    }
  }
  try {
    write(file, 'wx', line);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Opens `file` with `flags`, writes `line`; a failed write removes the file. */
function write(file: string, flags: string, line: string): void {
  const fd = openSync(file, flags);
  try {
    writeSync(fd, line);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(file);
    } catch {
      // gone
    }
    throw err;
  }
  closeSync(fd);
}

function create(file: string): boolean {
  if (!createOwned(file)) return false;
  held.add(file);
  return true;
}

/** Whether the lock has no live owner: it names no one, a process that is gone or is another one now, or us without our taking it. */
function stale(file: string): boolean {
  const owner = readOwner(file);
  if (owner === undefined) return false;
  if (owner === null) return true;
  const here = hostName();
  // Another machine's process (a shared folder): its liveness cannot be read from here.
  if (owner.host !== undefined && here !== undefined && owner.host !== here) return false;
  if (owner.pid === process.pid && (owner.start === undefined || owner.start === ownStartTime())) return !held.has(file);
  return !running(owner.pid, owner.start);
}

/** Whether a lock file names a live owner (false when there is none). */
export function lockHeld(file: string): boolean {
  return readOwner(file) !== undefined && !stale(file);
}

/**
 * Removes a stale lock so it can be taken. Two processes may find the same stale lock: the removal
 * happens under a second, short-lived lock (`<file>.break`), and the owner is checked again under it,
 * so the second one finds the first one's fresh lock and leaves it. A `.break` file outlives its maker
 * only if that process died within these few lines; one whose owner is gone, or older than a few
 * seconds, is removed.
 */
function breakStale(file: string): void {
  const breaker = `${file}.break`;
  if (!create(breaker)) {
    try {
      if (stale(breaker) || Date.now() - statSync(breaker).mtimeMs > BREAK_STALE_MS) unlinkSync(breaker);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    if (stale(file)) {
      unlinkSync(file);
      dropDeadOwnFiles(file);
    }
  } catch {
    // removed meanwhile
  } finally {
    release(breaker);
  }
}

/**
 * The files `createOwned` writes before linking (`<file>.<pid>.new`) that processes killed within those
 * few lines left behind: removed when their pid is gone, on a take-over (a holder died: the moment such
 * files are left). Another process's file of a live pid is its lock being made, and is left alone.
 */
export function dropDeadOwnFiles(file: string): void {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d{1,10})\.new$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined || Number(pid) === process.pid || running(Number(pid))) continue;
    try {
      unlinkSync(join(dirname(file), name));
    } catch {
      // gone meanwhile
    }
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
    if (waited > opts.timeoutMs)
      throw new Error(`${file} is held by process ${lockOwner(file) ?? '?'} for more than ${Math.round(opts.timeoutMs / 1000)} s`);
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
