/**
 * The per-test history's files, beside the ledger: `tests.jsonl`, the log every tier with a report
 * appends to, and `tests-history.json`, the history compacted (history.ts): one tally per test per
 * tier, however many runs. A writer that finds the log past COMPACT_AT_BYTES folds it into the
 * compact file and starts a new log, under the log's lock; readers take no lock.
 *
 * The compact file names the log it folded (inode) and how many bytes of it: a reader that finds that
 * same log (a writer stopped between the two steps) skips those bytes, so nothing is counted twice.
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from '../util/node.js';
import { dirname, join } from 'node:path';
import { type ReadStats, appendLines, jsonLine, testLogFiles, testsArchiveDir, withLock } from '../ledger/ledger.js';
import { newRunId } from '../util/hash.js';
import {
  type HistoryState,
  addRecord,
  emptyHistory,
  foldHistory,
  parseHistory,
  parseTestRecord,
  serializeHistory,
  type TestRecord,
} from './history.js';

export const HISTORY_FILE = 'tests-history.json';

/** A log this long is folded into the compact file by the next writer (a 150,000-test tier writes about 9 MB a run). */
export const COMPACT_AT_BYTES = 4 << 20;

export function historyPath(testsPath: string): string {
  return join(dirname(testsPath), HISTORY_FILE);
}

interface Loaded {
  state: HistoryState;
  /** The compact file exists but cannot be read: history starts again from the log. */
  problem?: string;
}

function loadCompact(path: string): Loaded {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { state: emptyHistory() };
  }
  const state = parseHistory(text);
  return state === undefined ? { state: emptyHistory(), problem: `${path} is not a history file gate-ladder can read` } : { state };
}

/** Where to start reading the log: after the bytes the compact file folded, if it folded this very log. */
const startOf = (state: HistoryState, ino: number): number => (state.log?.ino === ino ? state.log.bytes : 0);

/** Calls `fn` for each line of the open file from byte `from`, reading 1 MB at a time; returns the bytes read. */
function eachLine(fd: number, from: number, fn: (line: string) => void): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let pos = from;
  let carry: Buffer[] = [];
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    pos += n;
    let start = 0;
    for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < n; nl = buf.indexOf(10, start)) {
      const piece = buf.subarray(start, nl);
      fn(carry.length > 0 ? Buffer.concat([...carry, piece]).toString('utf8') : piece.toString('utf8'));
      carry = [];
      start = nl + 1;
    }
    if (start < n) carry.push(Buffer.from(buf.subarray(start, n)));
  }
  if (carry.length > 0) fn(Buffer.concat(carry).toString('utf8'));
  return pos - from;
}

/** Folds the records of the open file from byte `from` into `state` (each also handed to `each`); returns the bytes read. */
function foldLog(state: HistoryState, fd: number, from: number, stats: ReadStats, each?: (rec: TestRecord) => void): number {
  return eachLine(fd, from, (line) => {
    const rec = jsonLine(line, parseTestRecord, stats);
    if (rec === undefined) return;
    each?.(rec);
    addRecord(state, rec);
  });
}

export interface HistoryRead {
  state: HistoryState;
  /** Why the compact file was not used, if it was not. */
  problem?: string;
  /** Why the log was not read: something not a regular file in its place. */
  logProblem?: string;
}

/**
 * A log opened for reading, or `'not a file'` for a folder, a FIFO or a device in its place (opened
 * without blocking: a FIFO with no writer would wait forever), or undefined when it cannot be opened.
 */
function openLog(path: string): number | 'not a file' | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return 'not a file';
}

/** The whole history: the compact file, then the log's records after what it folded. Takes no lock. */
export function readHistory(testsPath: string, stats: ReadStats = { rows: 0, skipped: 0 }): HistoryRead {
  const loaded = loadCompact(historyPath(testsPath));
  const fd = openLog(testsPath);
  if (fd === 'not a file')
    return {
      state: loaded.state,
      logProblem: `${testsPath} is not a regular file (a folder, a FIFO or a device?), so the per-test history leaves it out; move it away`,
    };
  if (fd === undefined) return { state: loaded.state, ...(loaded.problem && { problem: loaded.problem }) };
  try {
    const ino = fstatSync(fd).ino;
    foldLog(loaded.state, fd, startOf(loaded.state, ino), stats);
  } finally {
    closeSync(fd);
  }
  return { state: loaded.state, ...(loaded.problem && { problem: loaded.problem }) };
}

/** Folds the log into the compact file and starts a new log. Call with the log's lock held. */
function compactLocked(testsPath: string): void {
  const file = historyPath(testsPath);
  const loaded = loadCompact(file);
  // Kept for a look rather than overwritten: the new compact file starts from the log alone.
  if (loaded.problem !== undefined) renameSync(file, `${file}.unreadable`);
  const fd = openSync(testsPath, 'r');
  let ino: number;
  let bytes: number;
  try {
    ino = fstatSync(fd).ino;
    const from = startOf(loaded.state, ino);
    bytes = from + foldLog(loaded.state, fd, from, { rows: 0, skipped: 0 });
  } finally {
    closeSync(fd);
  }
  const tmp = join(dirname(file), `.tmp-history-${process.pid}-${newRunId()}`);
  writeFileSync(tmp, serializeHistory(loaded.state, { ino, bytes }));
  renameSync(tmp, file);
  // The folded log is kept, moved into tests-archive/, not discarded: `gate-ladder sync` shares every
  // record this clone wrote and must tell the records it has from those it lacks (ledger.ts
  // `testLogFiles`). Reading the history never opens it again. The lock is held: no append between.
  const archive = testsArchiveDir(testsPath);
  mkdirSync(archive, { recursive: true });
  renameSync(testsPath, join(archive, `${Date.now()}-${ino}.jsonl`));
  // A new, empty log: a new inode, so the compact file's byte count no longer applies to it.
  const fresh = join(dirname(testsPath), `.tmp-tests-${process.pid}-${newRunId()}`);
  writeFileSync(fresh, '');
  renameSync(fresh, testsPath);
}

/** Appends one tier's outcomes to the log, and compacts the history when the log has grown past COMPACT_AT_BYTES. */
export function recordTests(testsPath: string, rec: TestRecord): void {
  appendLines(testsPath, [rec]);
  let size: number;
  try {
    size = statSync(testsPath).size;
  } catch {
    return;
  }
  if (size < COMPACT_AT_BYTES) return;
  withLock(testsPath, () => {
    // Another writer may have compacted meanwhile.
    if (statSync(testsPath).size >= COMPACT_AT_BYTES) compactLocked(testsPath);
  });
}

/** Compacts now, whatever the log's size (tests and benchmarks). */
export function compactHistory(testsPath: string): void {
  withLock(testsPath, () => compactLocked(testsPath));
}

/**
 * Folds another file of per-test records into `state` (the team's, fetched by `gate-ladder sync`):
 * how many records it held, and from how many origins. A missing file adds nothing.
 */
export function foldRecordsFile(path: string, state: HistoryState, stats: ReadStats): { records: number; origins: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { records: 0, origins: 0 };
  }
  const before = state.records;
  const origins = new Set<string>();
  try {
    foldLog(state, fd, 0, stats, (rec) => {
      if (typeof rec.origin === 'string') origins.add(rec.origin);
    });
  } finally {
    closeSync(fd);
  }
  return { records: state.records - before, origins: origins.size };
}

/**
 * Above this many bytes of raw records (this clone's logs and the team's file together), the team's
 * records are folded after this clone's history instead of in time order: time order needs every
 * record of this clone again, and the compact file exists so that a large suite is not read whole.
 */
export const TIME_ORDER_MAX_BYTES = 32 << 20;

export interface TeamHistoryRead extends HistoryRead {
  /** This clone's records and the team's, counted. */
  own: number;
  team: number;
  origins: number;
  /** How they were folded: in time order (exact flips between clones), or the team's after this clone's. */
  order: 'time' | 'team-after';
}

/**
 * This clone's per-test history and the team's synced records (`teamPath`, written by `gate-ladder
 * sync`), folded in time order: a flip between runs of the same code on two clones is counted as it
 * happened. That needs this clone's raw records (`tests-archive/` and the log), so it is done when they
 * are all there and small enough (TIME_ORDER_MAX_BYTES); otherwise the team's records are folded after
 * this clone's history, as the compact file allows, and `order` says so.
 */
export function readTeamHistory(
  testsPath: string,
  teamPath: string,
  stats: ReadStats = { rows: 0, skipped: 0 },
  maxBytes = TIME_ORDER_MAX_BYTES,
): TeamHistoryRead {
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  const teamBytes = size(teamPath);
  const read = readHistory(testsPath, stats);
  const own = read.state.records;
  if (teamBytes === 0) return { ...read, own, team: 0, origins: 0, order: 'time' };
  const files = testLogFiles(testsPath);
  if (files.reduce((sum, f) => sum + size(f), teamBytes) <= maxBytes) {
    const records: TestRecord[] = [];
    const quiet: ReadStats = { rows: 0, skipped: 0 };
    for (const f of files) eachRecord(f, quiet, (rec) => records.push(rec));
    // Every record the history holds is still there raw (no archive was deleted): fold them all again, with the team's, by time.
    if (records.length === own) {
      const origins = new Set<string>();
      let team = 0;
      eachRecord(teamPath, stats, (rec) => {
        team++;
        if (typeof rec.origin === 'string') origins.add(rec.origin);
        records.push(rec);
      });
      // A stable sort: records of one time keep this clone's first, each file's in its order.
      return {
        state: foldHistory(records),
        ...(read.problem && { problem: read.problem }),
        own,
        team,
        origins: origins.size,
        order: 'time',
      };
    }
  }
  const team = foldRecordsFile(teamPath, read.state, stats);
  return { ...read, own, team: team.records, origins: team.origins, order: 'team-after' };
}

/** Each record of a JSONL file of test records, in file order; a missing file has none. */
function eachRecord(path: string, stats: ReadStats, fn: (rec: TestRecord) => void): void {
  const fd = openLog(path);
  if (typeof fd !== 'number') return;
  try {
    eachLine(fd, 0, (line) => {
      const rec = jsonLine(line, parseTestRecord, stats);
      if (rec !== undefined) fn(rec);
    });
  } finally {
    closeSync(fd);
  }
}
