import type { LedgerRow } from '../ledger/row.js';
import type { TierFigures } from '../report/model.js';

/** One tier's figures over the replayed rows: the report's columns up to total_s. */
export type ReplayTierLine = Pick<TierFigures, 'tier' | 'runs' | 'caught' | 'errors' | 'passes' | 'median_s' | 'total_s'>;

export interface ReplayFigures {
  /** Distinct patches with rows (applied or not). */
  patches: number;
  tiers: ReplayTierLine[];
  /** Patch ids that did not apply. */
  notApplied: string[];
  /** Rows whose tier command could not run at that commit (`applicable: false`). */
  notApplicable: number;
}

export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * A fold over the rows of one replayed corpus: per tier in ladder order, then any other tier seen.
 * Rows of patches that did not apply are counted apart, never as a tier's run. Pure.
 */
export function replayFigures(rows: readonly LedgerRow[], ladder: readonly string[]): ReplayFigures {
  const byTier = new Map<string, LedgerRow[]>(ladder.map((t) => [t, []]));
  const patches = new Set<string>();
  const notApplied: string[] = [];
  let notApplicable = 0;
  for (const row of rows) {
    patches.add(`${row.patch}\0${row.base ?? ''}`);
    if (row.applied === false) {
      notApplied.push(row.patch);
      continue;
    }
    if (row.applicable === false) {
      notApplicable++;
      continue;
    }
    const list = byTier.get(row.tier) ?? [];
    list.push(row);
    byTier.set(row.tier, list);
  }
  const tiers = [...byTier].map(([tier, list]) => {
    const seconds = list.map((r) => r.seconds);
    const m = median(seconds);
    return {
      tier,
      runs: list.length,
      caught: list.filter((r) => r.verdict === 'caught').length,
      errors: list.filter((r) => r.verdict === 'error').length,
      passes: list.filter((r) => r.verdict === 'pass').length,
      median_s: m === null ? null : round(m),
      total_s: round(seconds.reduce((a, b) => a + b, 0)),
    };
  });
  return { patches: patches.size, tiers, notApplied, notApplicable };
}

/** The figures as an aligned table. Pure. */
export function figureLines(f: ReplayFigures, calibration: boolean): string[] {
  const head = ['tier', 'runs', 'caught', 'errors', 'passes', 'median_s', 'total_s'];
  const body = f.tiers.map((t) => [
    t.tier,
    String(t.runs),
    String(t.caught),
    String(t.errors),
    String(t.passes),
    t.median_s === null ? '-' : t.median_s.toFixed(3),
    t.total_s.toFixed(3),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    ...(calibration ? ['calibration: every planned tier ran on every patch; "caught" is what each tier would have caught'] : []),
    fmt(head),
    ...body.map(fmt),
    ...(f.notApplied.length > 0 ? [`did not apply (counted apart: not a catch, not an error): ${f.notApplied.length}`] : []),
    ...(f.notApplicable > 0
      ? [`not applicable at their commit (the tier's script or runner was absent there; counted apart): ${f.notApplicable}`]
      : []),
  ];
}
