/**
 * The order index: the predictor's fold of the ledger (ledger/predict.ts `OrderStats`), kept beside it
 * as `<ledger>.order-index.json` with the byte offset of the ledger it covers, so a push reads a small
 * file and the rows appended since, not the whole ledger. Rebuilt from the start when it is missing,
 * unreadable or of another format, when the ledger shrank, or when the ledger's bytes it saw (its
 * first and last 64 before the offset) are no longer there (the ledger was rewritten: gc, a merge).
 * Written whole or not at all (a temp file renamed): a concurrent push reads the old or the new one.
 * A partial last line (a row being appended) is left for the next read.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { readJson, writeFileAtomic } from '../util/cache-files.js';
import { parseRow } from './ledger.js';
import { type OrderStats, emptyStats, foldRow } from './predict.js';

const FORMAT = 1;
const PRINT_BYTES = 64;

export interface OrderIndex {
  format: number;
  /** Bytes of the ledger folded (always the end of a line). */
  offset: number;
  /** The ledger's first bytes and the bytes just before `offset` (latin1), to notice a rewritten ledger. */
  head: string;
  tail: string;
  stats: OrderStats;
}

export const orderIndexPath = (ledger: string) => `${ledger}.order-index.json`;

/** What loading did: the stats, whether the index was rebuilt (and why), and how many new bytes were folded. */
export interface IndexLoad {
  stats: OrderStats;
  rebuilt?: string;
  folded: number;
}

function readAt(fd: number, at: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/** Why the index cannot be caught up from its offset, or `undefined` when it can. */
function staleWhy(index: OrderIndex | undefined, fd: number, size: number): string | undefined {
  if (index === undefined) return 'no index';
  if (index.format !== FORMAT || typeof index.offset !== 'number' || index.stats === null || typeof index.stats !== 'object')
    return 'another format';
  if (size < index.offset) return 'the ledger shrank';
  const n = Math.min(PRINT_BYTES, index.offset);
  if (readAt(fd, 0, n).toString('latin1') !== index.head) return 'the ledger was rewritten';
  if (readAt(fd, index.offset - n, n).toString('latin1') !== index.tail) return 'the ledger was rewritten';
  return undefined;
}

/**
 * The ledger's order stats, from the index caught up to the ledger's last complete line; the index is
 * rewritten when anything new was folded (`write: false` leaves it as it is). A missing ledger has none.
 */
export function loadOrderStats(ledger: string, opts: { write?: boolean } = {}): IndexLoad {
  let fd: number;
  try {
    fd = openSync(ledger, 'r');
  } catch {
    return { stats: emptyStats(), folded: 0 };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { stats: emptyStats(), folded: 0 };
    const size = st.size;
    const path = orderIndexPath(ledger);
    const found = readJson<OrderIndex>(path);
    const why = staleWhy(found, fd, size);
    const index: OrderIndex = why === undefined ? found! : { format: FORMAT, offset: 0, head: '', tail: '', stats: emptyStats() };
    const start = index.offset;
    if (size > start) {
      const end = foldBytes(index.stats, readAt(fd, start, size - start), start);
      if (end > start) {
        index.offset = end;
        const n = Math.min(PRINT_BYTES, end);
        index.head = readAt(fd, 0, n).toString('latin1');
        index.tail = readAt(fd, end - n, n).toString('latin1');
        if (opts.write !== false) writeFileAtomic(path, JSON.stringify(index), { prefix: basename(path), keep: 1 });
      }
    }
    return { stats: index.stats, folded: index.offset - start, ...(why !== undefined && { rebuilt: why }) };
  } finally {
    closeSync(fd);
  }
}

/** Folds the complete lines of `buf` (the ledger from byte `at`); returns the offset after the last complete line. */
function foldBytes(stats: OrderStats, buf: Buffer, at: number): number {
  let start = 0;
  for (let nl = buf.indexOf(10); nl !== -1; start = nl + 1, nl = buf.indexOf(10, start)) {
    const row = parseRow(buf.toString('utf8', start, nl));
    if (row !== undefined) foldRow(stats, row);
  }
  return at + start;
}
