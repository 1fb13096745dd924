/** Where the team's rows (fetched by `gate-ladder sync`) live beside this clone's ledger, and reading them with it. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from '../util/node.js';
import { dirname, join } from 'node:path';
import { forEachRow, type ReadStats } from './ledger.js';
import type { Refusals } from './row-check.js';
import type { LedgerRow } from './row.js';

/** Other origins' ledger rows, rebuilt by every sync: never appended to by a run. */
export function teamLedgerPath(ledger: string): string {
  return join(dirname(ledger), 'team', 'ledger.jsonl');
}

/** Other origins' per-test records (tests.jsonl), rebuilt by every sync. */
export function teamTestsPath(ledger: string): string {
  return join(dirname(ledger), 'team', 'tests.jsonl');
}

/** The rows the last sync refused, per origin (src/ledger/row-check.ts). */
export function teamRefusalsPath(ledger: string): string {
  return join(dirname(ledger), 'team', 'refused.json');
}

/** Keeps the last sync's refusals beside the team files, for `report` to show. */
export function writeRefusals(ledger: string, refused: Refusals): void {
  const file = teamRefusalsPath(ledger);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(refused)}\n`);
  renameSync(tmp, file);
}

/** The last sync's refusals; none when no sync wrote them (or the file is not what a sync writes). */
export function readRefusals(ledger: string): Refusals {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(teamRefusalsPath(ledger), 'utf8'));
  } catch {
    return {};
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Refusals = {};
  for (const [origin, r] of Object.entries(v as Record<string, unknown>)) {
    const o = r as { rows?: unknown; reasons?: unknown };
    if (typeof o?.rows !== 'number' || o.reasons === null || typeof o.reasons !== 'object') continue;
    const reasons: Record<string, number> = {};
    for (const [k, n] of Object.entries(o.reasons as Record<string, unknown>)) if (typeof n === 'number') reasons[k] = n;
    out[origin] = { rows: o.rows, reasons };
  }
  return out;
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
