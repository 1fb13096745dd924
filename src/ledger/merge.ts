/** `gate-ladder merge`: shard ledgers (and any exported ledger) into one, each row once. */
import { appendLines, forEachRow, type ReadStats } from './ledger.js';
import { newRows, rowKey } from './identity.js';
import type { LedgerRow } from './row.js';

export interface MergeSource {
  file: string;
  rows: number;
  added: number;
  duplicates: number;
  /** Lines that are not rows (torn, malformed, blank): skipped and counted. */
  skipped: number;
}

export interface MergeResult {
  into: string;
  sources: MergeSource[];
  added: number;
}

/** Rows of the files whose identity `into` lacks are appended to it in one locked write per file. */
export async function mergeLedgers(files: readonly string[], into: string): Promise<MergeResult> {
  const seen = new Set<string>();
  await forEachRow(into, { rows: 0, skipped: 0 }, (row) => seen.add(rowKey(row)));
  const sources: MergeSource[] = [];
  let added = 0;
  for (const file of files) {
    const stats: ReadStats = { rows: 0, skipped: 0 };
    const rows: LedgerRow[] = [];
    await forEachRow(file, stats, (row) => rows.push(row));
    const fresh = newRows(rows, seen, rowKey);
    appendLines(into, fresh.added);
    added += fresh.added.length;
    sources.push({ file, rows: stats.rows, added: fresh.added.length, duplicates: fresh.duplicates, skipped: stats.skipped });
  }
  return { into, sources, added };
}
