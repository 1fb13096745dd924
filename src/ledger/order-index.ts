/**
 * The order index: the predictor's fold of the ledger (ledger/predict.ts `OrderStats`), kept beside it
 * as `<ledger>.order-index.json` with the byte offset of the ledger it covers, so a push reads a small
 * file and the rows appended since, not the whole ledger. Rebuilt from the start when it is missing,
 * unreadable or of another format, when the ledger shrank, or when the ledger's bytes it saw (its
 * first and last 64 before the offset) are no longer there (the ledger was rewritten: gc, a merge).
 * Written whole or not at all (a temp file renamed): a concurrent push reads the old or the new one.
 * A partial last line (a row being appended) is left for the next read.
 */
import { closeSync, fstatSync, openSync, readSync } from '../util/node.js';
import { basename } from 'node:path';
import { readText, writeFileAtomic, writeFileAtomicLater } from '../util/cache-files.js';
import { backgroundWork } from '../util/early-exit.js';
import { parseRow } from './ledger.js';
import { type Cell, type KeyStore, type OrderStats, emptyStats, foldRow } from './predict.js';

const FORMAT = 2;
const PRINT_BYTES = 64;

/**
 * The file: a first line of JSON (the format, the offset, the fingerprints, the stats but for their
 * keys), then one line per key, its name as a JSON string, a tab, and its cells as JSON. A push parses
 * the first line and only the lines of the keys its paths have: the file is split into lines, not parsed.
 */
export interface OrderIndexHead {
  format: number;
  /** Bytes of the ledger folded (always the end of a line). */
  offset: number;
  /** The ledger's first bytes and the bytes just before `offset` (latin1), to notice a rewritten ledger. */
  head: string;
  tail: string;
  stats: Omit<OrderStats, 'keys'>;
}

export const orderIndexPath = (ledger: string) => `${ledger}.order-index.json`;

/** The index's key lines, each parsed when first asked for; changed and new keys are kept parsed. */
class IndexKeys implements KeyStore {
  private readonly parsed = new Map<string, Record<string, Cell>>();
  constructor(private readonly raw: Map<string, string> = new Map()) {}
  get(key: string): Record<string, Cell> | undefined {
    let cells = this.parsed.get(key);
    if (cells !== undefined) return cells;
    const text = this.raw.get(key);
    if (text === undefined) return undefined;
    try {
      cells = JSON.parse(text) as Record<string, Cell>;
    } catch {
      return undefined;
    }
    this.parsed.set(key, cells);
    return cells;
  }
  edit(key: string): Record<string, Cell> {
    let cells = this.get(key);
    if (cells === undefined) this.parsed.set(key, (cells = {}));
    return cells;
  }
  *entries(): Iterable<[string, Record<string, Cell>]> {
    for (const key of new Set([...this.raw.keys(), ...this.parsed.keys()])) {
      const cells = this.get(key);
      if (cells !== undefined) yield [key, cells];
    }
  }
  /** The key lines: parsed keys written again (their counts to 6 digits), the others as they were read. */
  lines(): string[] {
    const out: string[] = [];
    for (const [key, text] of this.raw) if (!this.parsed.has(key)) out.push(`${JSON.stringify(key)}\t${text}`);
    for (const [key, cells] of this.parsed) out.push(`${JSON.stringify(key)}\t${JSON.stringify(cells, compact)}`);
    return out;
  }
}

/** Counts to 6 significant digits: the decay makes long fractions, and the file is read on every push. */
const compact = (_key: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);

/** The index file read: its head and its key lines (unparsed); `undefined` when missing or unreadable. */
function readIndex(path: string): { head: OrderIndexHead; keys: IndexKeys } | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  let head: OrderIndexHead;
  try {
    head = JSON.parse(lines[0]!) as OrderIndexHead;
  } catch {
    return undefined;
  }
  // A file cut short (a torn write, a full disk) ends without its last newline: not trusted.
  if (lines[lines.length - 1] !== '') return undefined;
  const raw = new Map<string, string>();
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i]!;
    const tab = line.indexOf('\t');
    if (tab < 2) return undefined;
    const name = line.slice(1, tab - 1);
    raw.set(name.includes('\\') || name.includes('"') ? (JSON.parse(line.slice(0, tab)) as string) : name, line.slice(tab + 1));
  }
  return { head, keys: new IndexKeys(raw) };
}

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
function staleWhy(index: OrderIndexHead | undefined, fd: number, size: number): string | undefined {
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
 * The ledger's order stats, from the index caught up to the ledger's last complete line. When anything
 * new was folded the index is written again: in the background by default (the gates run meanwhile;
 * the process waits for it before exiting), `now`, or not at all (`false`). A missing ledger has none.
 */
export function loadOrderStats(ledger: string, opts: { write?: 'later' | 'now' | false } = {}): IndexLoad {
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
    const found = readIndex(path);
    const why = staleWhy(found?.head, fd, size);
    const keys = why === undefined ? found!.keys : new IndexKeys();
    const { keys: _none, ...empty } = emptyStats();
    const head: OrderIndexHead = why === undefined ? found!.head : { format: FORMAT, offset: 0, head: '', tail: '', stats: empty };
    const stats: OrderStats = { ...head.stats, keys };
    const start = head.offset;
    if (size > start) {
      const end = foldBytes(stats, readAt(fd, start, size - start), start);
      if (end > start) {
        const n = Math.min(PRINT_BYTES, end);
        const { keys: _, ...plain } = stats;
        const next: OrderIndexHead = {
          format: FORMAT,
          offset: end,
          head: readAt(fd, 0, n).toString('latin1'),
          tail: readAt(fd, end - n, n).toString('latin1'),
          stats: plain,
        };
        const text = () => [JSON.stringify(next), ...keys.lines(), ''].join('\n');
        const write = opts.write ?? 'later';
        const keep = { prefix: basename(path), keep: 1 };
        if (write === 'now') writeFileAtomic(path, text(), keep);
        else if (write === 'later') {
          // Made and written after the prediction is used (the first gate starting), not before it.
          const settled = backgroundWork();
          setImmediate(() => {
            writeFileAtomicLater(path, text(), keep);
            settled();
          });
        }
        return { stats, folded: end - start, ...(why !== undefined && { rebuilt: why }) };
      }
    }
    return { stats, folded: 0, ...(why !== undefined && { rebuilt: why }) };
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
