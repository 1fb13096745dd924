import { closeSync, createReadStream, mkdirSync, openSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LedgerRow } from '../types.js';

/** The default ledger: shared by every worktree of the repo, never committed. */
export function defaultLedgerPath(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'ledger.jsonl');
}

const LOCK_STALE_MS = 30_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** unlinkSync, not rmSync: rmSync loads node's rimraf, a cost on every push. */
function removeLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch {
    // removed by its owner, or never there
  }
}

/**
 * Holds an exclusive lock file while `fn` runs, so concurrent writers never interleave. The file's
 * folder is made when the lock cannot be created for want of it (the first write to a new ledger),
 * rather than asked for on every write.
 */
export function withLock<T>(path: string, fn: () => T): T {
  const lock = `${path}.lock`;
  let made = false;
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !made) {
        mkdirSync(dirname(path), { recursive: true });
        made = true;
        continue;
      }
      if (code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) removeLock(lock);
      } catch {
        // removed by its owner meanwhile
      }
      Atomics.wait(sleeper, 0, 0, Math.min(50, 1 + attempt));
    }
  }
  try {
    return fn();
  } finally {
    removeLock(lock);
  }
}

/** Appends rows as JSON lines in one write, under a lock. */
export function appendRows(path: string, rows: readonly LedgerRow[]): void {
  appendLines(path, rows);
}

/** Appends values as JSON lines in one write, under the file's lock (the ledger, tests.jsonl). */
export function appendLines(path: string, rows: readonly unknown[]): void {
  if (rows.length === 0) return;
  const data = Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  withLock(path, () => {
    const fd = openSync(path, 'a');
    try {
      for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
    } finally {
      closeSync(fd);
    }
  });
}

export const REQUIRED_FIELDS = ['patch', 'tier', 'verdict', 'seconds'] as const;

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
  if (typeof row.patch !== 'string' || typeof row.tier !== 'string' || typeof row.seconds !== 'number') return undefined;
  if (row.verdict !== 'pass' && row.verdict !== 'caught' && row.verdict !== 'error') return undefined;
  return row as LedgerRow;
}

export interface ReadStats {
  rows: number;
  skipped: number;
}

/** A text file's lines, streamed; a missing file has none. */
async function* lines(path: string): AsyncGenerator<string> {
  let stream;
  try {
    statSync(path);
    stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  } catch {
    return;
  }
  yield* createInterface({ input: stream, crlfDelay: Infinity });
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

/** Streams any JSONL file through `parse`; lines it rejects are counted in `stats.skipped`. */
export async function* readJsonl<T>(path: string, parse: (value: unknown) => T | undefined, stats: ReadStats = { rows: 0, skipped: 0 }): AsyncGenerator<T> {
  for await (const line of lines(path)) {
    if (line.trim() === '') continue;
    let value: T | undefined;
    try {
      value = parse(JSON.parse(line));
    } catch {
      value = undefined;
    }
    if (value === undefined) {
      stats.skipped++;
      continue;
    }
    stats.rows++;
    yield value;
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
  let stream;
  try {
    statSync(path);
    stream = createReadStream(path, { highWaterMark: chunkBytes });
  } catch {
    return;
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
