import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRows, rowKey, stamp, validOrigin } from '../../src/ledger/identity.js';
import type { LedgerRow } from '../../src/ledger/row.js';

const row = (over: Partial<LedgerRow> = {}): LedgerRow => ({
  ts: '2026-01-01T00:00:00.000Z',
  run: 'r1',
  hook: 'replay',
  patch: 'p1',
  base: null,
  tier: 't1',
  verdict: 'pass',
  seconds: 1,
  exit: 0,
  files: [],
  files_count: 0,
  routed: false,
  ...over,
});

const cases: [string, Partial<LedgerRow>, Partial<LedgerRow>, boolean][] = [
  ['the same row', {}, {}, true],
  ['another time and duration', {}, { ts: '2027-01-01T00:00:00.000Z', seconds: 9 }, true],
  ['stamped with an origin', {}, { origin: 'ci-7' }, true],
  ['another run', {}, { run: 'r2' }, false],
  ['another tier', {}, { tier: 't2' }, false],
  ['another patch', {}, { patch: 'p2' }, false],
  ['a calibration row', {}, { calibration: true }, false],
  ['a cached row', {}, { cached: true }, false],
  ['a patch that did not apply', {}, { applied: false }, false],
];
for (const [title, a, b, same] of cases) {
  test(`rowKey: ${title} is ${same ? 'the same' : 'another'} row`, () => {
    assert.is(rowKey(row(a)) === rowKey(row(b)), same);
  });
}

test('newRows: each identity once, duplicates counted, order kept', () => {
  const seen = new Set([rowKey(row({ run: 'r0' }))]);
  const r = newRows([row({ run: 'r0' }), row(), row({ origin: 'x' }), row({ tier: 't2' })], seen, rowKey);
  assert.equal(
    r.added.map((x) => `${x.run}/${x.tier}`),
    ['r1/t1', 'r1/t2'],
  );
  assert.is(r.duplicates, 2);
});

test('stamp keeps an origin a row already names', () => {
  assert.is(stamp(row(), 'me').origin, 'me');
  assert.is(stamp(row({ origin: 'ci' }), 'me').origin, 'ci');
});

test('validOrigin: ref-safe ids only', () => {
  for (const ok of ['a1b2c3', 'gha-123-1-test', 'gitlab.42']) assert.ok(validOrigin(ok), ok);
  for (const bad of ['', '-x', 'a/b', 'a..b', 'x.lock', 'a b', 'x'.repeat(101)]) assert.not.ok(validOrigin(bad), bad);
});

test.run();
