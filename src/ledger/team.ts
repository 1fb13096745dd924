/** Where the team's rows (fetched by `gate-ladder sync`) live beside this clone's ledger, and reading them with it. */
import { dirname, join } from 'node:path';
import { forEachRow, type ReadStats } from './ledger.js';
import type { LedgerRow } from '../types.js';

/** Other origins' ledger rows, rebuilt by every sync: never appended to by a run. */
export function teamLedgerPath(ledger: string): string {
  return join(dirname(ledger), 'team', 'ledger.jsonl');
}

/** Other origins' per-test records (tests.jsonl), rebuilt by every sync. */
export function teamTestsPath(ledger: string): string {
  return join(dirname(ledger), 'team', 'tests.jsonl');
}

export interface TeamCounts {
  /** Readable rows of this clone's ledger. */
  local: number;
  /** Readable rows fetched from other origins. */
  team: number;
  /** Origins the team rows came from (this clone not counted). */
  origins: number;
}

/**
 * Calls `fn` for this clone's rows, then (unless `local`) the team's; unreadable lines of both are
 * counted in `stats.skipped`, never fatal.
 */
export async function forEachTeamRow(ledger: string, local: boolean, stats: ReadStats, fn: (row: LedgerRow) => void): Promise<TeamCounts> {
  await forEachRow(ledger, stats, fn);
  const counts: TeamCounts = { local: stats.rows, team: 0, origins: 0 };
  if (local) return counts;
  const origins = new Set<string>();
  await forEachRow(teamLedgerPath(ledger), stats, (row) => {
    origins.add(String(row.origin ?? ''));
    fn(row);
  });
  counts.team = stats.rows - counts.local;
  counts.origins = origins.size;
  return counts;
}
