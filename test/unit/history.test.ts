import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { flakyRows, foldHistory, orphanEvidence, testRecord } from '../../src/evidence/history.js';
import type { LedgerRow, TestRecord } from '../../src/types.js';

const rec = (ts: string, pass: string[], fail: string[], extra: Partial<TestRecord> = {}): TestRecord => ({
  ts, run: ts, tier: 't1', hook: 'pre-push', patch: 'p', pass, fail, skip: [], ...extra,
});
const policy = { minRuns: 3, minFlipRate: 0.02, maxExpiryDays: 90 };

test('history is in time order, whatever order the lines were appended in', () => {
  const h = foldHistory([
    rec('2025-01-03T00:00:00Z', ['a'], []),
    rec('2025-01-01T00:00:00Z', [], ['a']),
    rec('2025-01-02T00:00:00Z', ['a'], []),
  ]);
  assert.equal(h.get('a')!.outcomes, [false, true, true]);
});

test('skips are not runs; seeded and stryker records are evidence, never history', () => {
  const h = foldHistory([
    rec('1', ['a'], ['b'], { skip: ['c'] }),
    rec('2', ['b'], ['a'], { source: 'seed', hook: 'seed' }),
    rec('3', [], ['a', 'd'], { source: 'stryker', hook: 'seed', kills: { a: 3 } }),
  ]);
  assert.equal(h.get('a')!.outcomes, [true]);
  assert.is(h.get('a')!.evidence, 1 + 3);
  assert.equal(h.get('b')!.outcomes, [false]);
  assert.is(h.get('b')!.evidence, 0);
  assert.is(h.get('c'), undefined);
  assert.equal(orphanEvidence(h), ['d']);
});

test('flaky rows: eligible first, then by flip rate; tests without runs are left out', () => {
  const recs = [
    rec('1', ['steady', 'flaky', 'noisy'], []),
    rec('2', ['steady'], ['flaky', 'noisy']),
    rec('3', ['steady', 'flaky', 'noisy'], []),
    rec('4', [], ['flaky'], { source: 'seed' }),
    rec('5', [], ['ghost'], { source: 'seed' }),
  ];
  const rows = flakyRows(foldHistory(recs), policy);
  assert.equal(rows.map((r) => [r.id, r.runs, r.flips, r.evidence, r.eligible, r.reason]), [
    ['flaky', 3, 2, 1, true, 'freeze with expiry, flip_rate=1.000'],
    ['noisy', 3, 2, 0, false, 'no sensitivity evidence; rewrite or delete'],
    ['steady', 3, 0, 0, false, 'not actually flaky (0.000)'],
  ]);
});

test('a record joins its ledger row on run and tier, and keeps the source', () => {
  const row = { ts: 'T', run: 'r1', hook: 'seed', patch: 'abc', tier: 't2', source: 'seed' } as LedgerRow;
  assert.equal(testRecord(row, [{ id: 'a', outcome: 'pass' }, { id: 'b', outcome: 'fail' }, { id: 'c', outcome: 'skip' }]), {
    ts: 'T', run: 'r1', tier: 't2', hook: 'seed', patch: 'abc', source: 'seed', pass: ['a'], fail: ['b'], skip: ['c'],
  });
});

test.run();
