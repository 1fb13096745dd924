import type { ReadStream } from 'node:fs';
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from '../util/node.js';
import { dirname, isAbsolute, join } from 'node:path';
import { faultMsg } from './messages.js';
import { hostName, isAlive, ownStartTime } from '../util/proc.js';
import { createOwned, dropDeadOwnFiles } from '../util/pid-lock.js';
import { writeErr } from '../util/stderr.js';
import type { LedgerRow } from './row.js';

/** The default ledger: shared by every worktree of the repo, never committed. */
export function defaultLedgerPath(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'ledger.jsonl');
}

/** A lock older than this is taken over whoever holds it (appends take microseconds). */
const LOCK_STALE_MS = 30_000;
/** How long a writer waits for a lock before it says what it waits for. */
const SAY_AFTER_MS = 1000;
/** A take-over marker older than this was left by a writer that died taking over. */
const TAKEOVER_STALE_MS = 5000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/** A ledger (or tests.jsonl) that cannot be written: its path and why, in words; never a stack. */
export class LedgerError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    // The per-test records (tests.jsonl beside the ledger) are written the same way: said as themselves.
    super(/(^|[\\/])tests\.jsonl$/.test(path) ? faultMsg.testsUnwritable(path, why) : faultMsg.ledgerUnwritable(path, why));
    this.name = 'LedgerError';
  }
}

const WHY: Record<string, string> = {
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of its path is a file, not a folder',
  ELOOP: 'its path loops through symbolic links',
  ENAMETOOLONG: 'its path is too long',
  // Its folder was made (or was there) and still no file can be created in it: /proc, a folder removed meanwhile.
  ENOENT: 'no file can be created in its folder (a special file system such as /proc, or a folder removed meanwhile)',
};

function ledgerError(path: string, err: unknown): LedgerError {
  if (err instanceof LedgerError) return err;
  const e = err as NodeJS.ErrnoException;
  return new LedgerError(path, (e.code && WHY[e.code]) ?? `${e.code ?? 'error'}: ${String(e.message ?? e).split('\n')[0]}`);
}

/** unlinkSync, not rmSync: rmSync loads node's rimraf, a cost on every push. */
function removeLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch {
    // removed by its owner, or never there
  }
}

/** Who this process is, as a lock file says it: pid, start time and host (each `-` when unknown). */
let self: string | undefined;
const ownerLine = () => (self ??= `${process.pid} ${ownStartTime() ?? '-'} ${hostName() ?? '-'}\n`);

interface Holder {
  line: string;
  pid?: number;
  start?: string;
  host?: string;
  mtimeMs: number;
}

/** The lock's holder as its file says; null when the file is gone. */
function readHolder(lock: string): Holder | null {
  let fd: number;
  try {
    fd = openSync(lock, 'r');
  } catch {
    return null;
  }
  try {
    const mtimeMs = fstatSync(fd).mtimeMs;
    const buf = Buffer.alloc(256);
    const line = buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0));
    const [pid, start, host] = line.trim().split(' ');
    // A whole line only (locks are linked into place whole): `12` with no newline is torn, not pid 12.
    const n = line.endsWith('\n') ? Number(pid) : Number.NaN;
    return {
      line,
      mtimeMs,
      ...(Number.isInteger(n) && n > 0 && { pid: n }),
      ...(start && start !== '-' && { start }),
      ...(host && host !== '-' && { host }),
    };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The holder is known to have ended: a pid on this host that is not running (or is another process now). */
function holderGone(h: Holder): boolean {
  // Empty, torn or garbage (a disk-full write of an earlier version): no one holds it.
  if (h.pid === undefined) return true;
  const here = hostName();
  if (h.host !== undefined && here !== undefined && h.host !== here) return false;
  return !isAlive(h.pid, h.start);
}

const describe = (h: Holder) =>
  `${h.pid !== undefined ? `pid ${h.pid}` : 'a process that did not say which'} (since ${new Date(h.mtimeMs).toTimeString().slice(0, 8)})`;

/**
 * Removes the lock of a holder that is gone (or too old), unless it changed meanwhile. A second
 * marker file, created exclusively, makes sure two writers never both remove: one could otherwise
 * remove the fresh lock the other just made.
 */
function takeOver(lock: string, seen: Holder): boolean {
  const marker = `${lock}.takeover`;
  try {
    closeSync(openSync(marker, 'wx'));
  } catch (err) {
    // Another writer is taking over; anything else (no room, no permission) is the ledger's problem.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(marker).mtimeMs > TAKEOVER_STALE_MS) removeLock(marker);
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    const now = readHolder(lock);
    if (now === null || now.line !== seen.line || now.mtimeMs !== seen.mtimeMs) return false;
    removeLock(lock);
    return true;
  } finally {
    removeLock(marker);
  }
}

/**
 * Holds an exclusive lock file while `fn` runs, so concurrent writers never interleave. The file
 * names its holder (pid, start time, host): a holder that is no longer running loses it at once, any
 * lock older than 30 s is taken over, and a writer that waits more than a second says what it waits
 * for. The file's folder is made when the lock cannot be created for want of it (the first write to a
 * new ledger), rather than asked for on every write.
 */
export function withLock<T>(path: string, fn: () => T, say: (line: string) => void = (line) => writeErr(`${line}\n`)): T {
  const lock = `${path}.lock`;
  let made = false;
  let said = false;
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      // Written whole or not at all (util/pid-lock.ts): a lock that names no one has no live owner.
      if (createOwned(lock, ownerLine())) break;
      throw Object.assign(new Error(`${lock} exists`), { code: 'EEXIST' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !made) {
        try {
          mkdirSync(dirname(path), { recursive: true });
        } catch (e) {
          throw ledgerError(path, e);
        }
        made = true;
        continue;
      }
      if (code !== 'EEXIST') throw ledgerError(path, err);
      const holder = readHolder(lock);
      if (holder === null) continue;
      if (holderGone(holder) || Date.now() - holder.mtimeMs > LOCK_STALE_MS) {
        let took: boolean;
        try {
          took = takeOver(lock, holder);
        } catch (e) {
          throw ledgerError(path, e);
        }
        if (took) {
          say(faultMsg.ledgerLockTaken(lock, describe(holder)));
          dropDeadOwnFiles(lock);
          continue;
        }
      }
      if (!said && Date.now() - since > SAY_AFTER_MS) {
        said = true;
        say(faultMsg.ledgerLockWait(lock, describe(holder), LOCK_STALE_MS / 1000));
      }
      sleep(Math.min(50, 1 + attempt));
    }
  }
  try {
    return fn();
  } finally {
    removeLock(lock);
  }
}

/** Appends rows as JSON lines in one write, under a lock. Throws LedgerError when the ledger cannot be written. */
export function appendRows(path: string, rows: readonly LedgerRow[]): void {
  appendLines(path, rows);
}

/**
 * Runs ledger writes so that one that fails (a LedgerError) is said once, through `say`, and the run
 * goes on: a ledger that cannot be written costs the record, never the verdict.
 */
export function ledgerGuard(say: (line: string) => void): <T extends void | Promise<void>>(write: () => T) => T {
  let said = false;
  const guard = (e: unknown): void => {
    if (!(e instanceof LedgerError)) throw e;
    if (!said) say(e.message);
    said = true;
  };
  return <T extends void | Promise<void>>(write: () => T): T => {
    try {
      const done = write();
      return (done instanceof Promise ? done.catch(guard) : done) as T;
    } catch (e) {
      guard(e);
      return undefined as T;
    }
  };
}

const OPEN_APPEND = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/**
 * Appends values as JSON lines in one write, under the file's lock (the ledger, tests.jsonl). A file
 * whose last line was cut off (a writer killed mid-write) gets a newline first, so the torn line stays
 * one unreadable line and the new rows stay whole. Only a regular file is written: a FIFO or a device
 * is refused at once (opened without blocking), never waited on. Throws LedgerError, whose message is
 * one line saying what is wrong.
 */
export function appendLines(path: string, rows: readonly unknown[]): void {
  if (rows.length === 0) return;
  const text = rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  withLock(path, () => {
    let fd: number;
    try {
      fd = openSync(path, OPEN_APPEND, 0o666);
    } catch (err) {
      throw ledgerError(path, err);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new LedgerError(path, 'it is not a regular file (a FIFO, a socket or a device?)');
      let data = Buffer.from(text);
      if (st.size > 0) {
        const last = Buffer.alloc(1);
        if (readSync(fd, last, 0, 1, st.size - 1) === 1 && last[0] !== 10) data = Buffer.concat([Buffer.from('\n'), data]);
      }
      for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
    } catch (err) {
      throw ledgerError(path, err);
    } finally {
      closeSync(fd);
    }
  });
}

export const REQUIRED_FIELDS = ['patch', 'tier', 'verdict', 'seconds'] as const;

/**
 * A gate's seconds as a row may hold them: a finite number from 0 to 2^31 (a tier's timeout is at most
 * 2147483 s). A negative, huge (1e308: every sum the report makes turns Infinity) or non-numeric one
 * was not written by a gate run: the row is skipped and counted, like a torn line. Pure.
 */
function plausibleSeconds(seconds: unknown): boolean {
  return typeof seconds === 'number' && seconds >= 0 && seconds <= 2 ** 31;
}

/** Parses one ledger line; `undefined` for a blank, partial, non-JSON or incomplete line. Pure. */
export function parseRow(line: string): LedgerRow | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const row = value as Record<string, unknown>;
  if (typeof row.patch !== 'string' || typeof row.tier !== 'string' || !plausibleSeconds(row.seconds)) return undefined;
  if (row.verdict !== 'pass' && row.verdict !== 'caught' && row.verdict !== 'error') return undefined;
  return row as LedgerRow;
}

export interface ReadStats {
  rows: number;
  skipped: number;
}

/** A text file's lines, streamed; a missing file has none. */
async function* lines(path: string): AsyncGenerator<string> {
  let stream: ReadStream;
  try {
    if (!statSync(path).isFile()) return;
    stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  } catch {
    return;
  }
  // node:readline (and its streams) load on the first read, not on every push that only appends rows.
  yield* process.getBuiltinModule('node:readline').createInterface({ input: stream, crlfDelay: Infinity });
}

/** Streams the ledger's rows; lines that cannot be read (blank ones too) are counted, not fatal. A missing file has no rows. */
export async function* readRows(path: string, stats: ReadStats = { rows: 0, skipped: 0 }): AsyncGenerator<LedgerRow> {
  for await (const line of lines(path)) {
    const row = parseRow(line);
    if (row === undefined) {
      stats.skipped++;
      continue;
    }
    stats.rows++;
    yield row;
  }
}

/**
 * One line of a JSONL file through `parse`: undefined for a blank line, and for one that is not JSON
 * or that `parse` rejects (counted in `stats.skipped`); a value is counted in `stats.rows`.
 */
export function jsonLine<T>(line: string, parse: (value: unknown) => T | undefined, stats: ReadStats): T | undefined {
  if (line.trim() === '') return undefined;
  let value: T | undefined;
  try {
    value = parse(JSON.parse(line));
  } catch {
    value = undefined;
  }
  if (value === undefined) stats.skipped++;
  else stats.rows++;
  return value;
}

/** Streams any JSONL file through `parse`; lines it rejects are counted in `stats.skipped`. */
export async function* readJsonl<T>(
  path: string,
  parse: (value: unknown) => T | undefined,
  stats: ReadStats = { rows: 0, skipped: 0 },
): AsyncGenerator<T> {
  for await (const line of lines(path)) {
    const value = jsonLine(line, parse, stats);
    if (value !== undefined) yield value;
  }
}

/** The ledger a config points at: its `ledger` path, or the default in the git common dir. */
export function ledgerPathFor(root: string, commonDir: string, configured: string | undefined): string {
  if (configured === undefined) return defaultLedgerPath(commonDir);
  return isAbsolute(configured) ? configured : join(root, configured);
}

/**
 * Calls `fn` for every readable row, in file order, counting unreadable lines in `stats`; a missing file has no rows.
 * Splits lines on bytes and calls back synchronously: about twice as fast as `readRows` on a million rows.
 */
export async function forEachRow(path: string, stats: ReadStats, fn: (row: LedgerRow) => void, chunkBytes = 1 << 20): Promise<void> {
  let stream: ReadStream;
  try {
    // Never a FIFO or a device: opening one would wait for a writer.
    if (!statSync(path).isFile()) throw new Error('it is not a regular file');
    stream = createReadStream(path, { highWaterMark: chunkBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const take = (line: string) => {
    const row = parseRow(line);
    if (row === undefined) stats.skipped++;
    else {
      stats.rows++;
      fn(row);
    }
  };
  let carry: Buffer | undefined;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (carry !== undefined && nl !== -1) {
      take(Buffer.concat([carry, chunk.subarray(0, nl)]).toString('utf8'));
      carry = undefined;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    for (; nl !== -1; start = nl + 1, nl = chunk.indexOf(10, start)) take(chunk.toString('utf8', start, nl));
    if (start < chunk.length) carry = carry === undefined ? chunk.subarray(start) : Buffer.concat([carry, chunk.subarray(start)]);
  }
  if (carry !== undefined) take(carry.toString('utf8'));
}

/** Where per-test logs folded into the compact history are kept (evidence/history-store.ts), beside the log. */
export function testsArchiveDir(testsPath: string): string {
  return join(dirname(testsPath), 'tests-archive');
}

/** Every file of per-test records this clone wrote, oldest first: the archived logs, then the live log. */
export function testLogFiles(testsPath: string): string[] {
  let archived: string[] = [];
  try {
    archived = readdirSync(testsArchiveDir(testsPath))
      .filter((f) => f.endsWith('.jsonl'))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || (a < b ? -1 : 1))
      .map((f) => join(testsArchiveDir(testsPath), f));
  } catch {
    // no archive yet
  }
  return [...archived, testsPath];
}
