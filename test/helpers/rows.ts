/** Ledger rows for the report's unit tests: each call is its own run unless `run` is given. */
import type { FoldRow } from '../../src/report/figures.js';

let seq = 0;

export const row = (
  tier: string,
  verdict: FoldRow['verdict'],
  seconds: number,
  extra: Partial<FoldRow> & Record<string, unknown> = {},
): FoldRow => ({
  ts: '2025-03-01T10:00:00.000Z',
  run: `r${seq++}`,
  hook: 'pre-push',
  patch: 'p',
  tier,
  verdict,
  seconds,
  ...extra,
});
