/** The report's flaky-test section: per-test history judged by the freeze predicate, and the freezes. Pure. */
import type { FlakyRow } from '../evidence/history.js';
import { isActive } from '../evidence/freeze.js';
import { sig } from './round.js';
import type { FlakyFigures, Freeze } from '../types.js';

/** At most this many tests are listed: the most flip-prone first. */
export const MAX_FLAKY_SHOWN = 50;

/** `rows` as `flakyRows` judges them (eligible first, then by flip rate); `today` decides which freezes are active. */
export function flakyFigures(rows: readonly FlakyRow[], freezes: readonly Freeze[], today: string): FlakyFigures {
  const frozen = new Set(freezes.map((f) => f.test));
  const shown = rows.filter((r) => r.flips > 0 || r.eligible || frozen.has(r.id)).slice(0, MAX_FLAKY_SHOWN);
  return {
    tests: rows.length,
    shown: shown.map((r) => ({
      id: r.id,
      runs: r.runs,
      flips: r.flips,
      flip_rate: r.flipRate === null ? null : sig(r.flipRate),
      evidence: r.evidence,
      eligible: r.eligible,
      reason: r.reason,
    })),
    freezes: [...freezes]
      .sort((a, b) => (a.expires < b.expires ? -1 : a.expires > b.expires ? 1 : 0))
      .map((f) => ({ test: f.test, expires: f.expires, active: isActive(f, today), reentry: f.reentry, by: f.by, flip_rate: f.flip_rate })),
    today,
  };
}
