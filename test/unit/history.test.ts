import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  KEY_WINDOW,
  addRecord,
  emptyHistory,
  evidenceOf,
  flakyRows,
  foldHistory,
  orphanEvidence,
  parseHistory,
  serializeHistory,
  testRecord,
  type TestRecord,
} from '../../src/evidence/history.js';
import type { LedgerRow } from '../../src/ledger/row.js';

/** A record of tier t1 on tree `tree` (the same command throughout). */
const rec = (ts: string, tree: string, pass: string[], fail: string[], extra: Partial<TestRecord> = {}): TestRecord => ({
  ts,
  run: ts,
  tier: 't1',
  hook: 'pre-push',
  patch: `commit-${tree}`,
  tree,
  cmd: 'c1',
  pass,
  fail,
  skip: [],
  ...extra,
});
const policy = { minRuns: 3, minFlipRate: 0.02, maxExpiryDays: 90 };
const tally = (state: ReturnType<typeof emptyHistory>, id: string, tier = 't1') => {
  const t = state.tiers.get(tier)?.tests.get(id);
  return t && [t.runs, t.fails, t.sameCodeRuns, t.flips];
};

test('flips count only between runs of the same tree: a catch on one tree and a pass on the next is history, not a flip', () => {
  const h = foldHistory([
    rec('1', 'A', ['t'], []),
    rec('2', 'B', [], ['t']), // caught a real bug
    rec('3', 'C', ['t'], []), // fixed
    rec('4', 'C', ['t'], []), // the same tree again
  ]);
  assert.equal(tally(h, 't'), [4, 1, 1, 0]);
  const [row] = flakyRows(h, policy);
  assert.equal([row!.flipRate, row!.sameCodeRuns, row!.reason], [0, 1, 'not actually flaky (0.000)']);
});

test('a fail and a pass on the same tree is a flip, even with other trees between them', () => {
  const h = foldHistory([rec('1', 'A', [], ['t']), rec('2', 'B', ['t'], []), rec('3', 'A', ['t'], []), rec('4', 'A', [], ['t'])]);
  assert.equal(tally(h, 't'), [4, 2, 2, 2]);
});

test('the same tree under another tier command is not the same code; records without a tree fall back to the commit', () => {
  const h = foldHistory([rec('1', 'A', [], ['t']), rec('2', 'A', ['t'], [], { cmd: 'c2' })]);
  assert.equal(tally(h, 't'), [2, 1, 0, 0]);
  const legacy = foldHistory([
    { ts: '1', run: '1', tier: 't1', hook: 'pre-push', patch: 'p', pass: [], fail: ['t'], skip: [] },
    { ts: '2', run: '2', tier: 't1', hook: 'pre-push', patch: 'p', pass: ['t'], fail: [], skip: [] },
  ]);
  assert.equal(tally(legacy, 't'), [2, 1, 1, 1]);
});

test('history is in time order, whatever order the lines were appended in', () => {
  const h = foldHistory([rec('3', 'A', ['a'], []), rec('1', 'A', [], ['a']), rec('2', 'A', [], ['a'])]);
  assert.equal(tally(h, 'a'), [3, 2, 2, 1]);
});

test('each tier keeps its own history of a test', () => {
  const h = foldHistory([rec('1', 'A', ['a'], []), rec('2', 'A', [], ['a'], { tier: 't2' })]);
  assert.equal(tally(h, 'a', 't1'), [1, 0, 0, 0]);
  assert.equal(tally(h, 'a', 't2'), [1, 1, 0, 0]);
});

test('skips are not runs; seed and stryker records are evidence, never history; a repeated seed adds nothing', () => {
  const h = foldHistory([
    rec('1', 'A', ['a'], ['b'], { skip: ['c'] }),
    rec('2', 'S', [], ['a'], { source: 'seed', hook: 'seed', change: 'P..S' }),
    rec('3', 'S', [], ['a'], { source: 'seed', hook: 'seed', change: 'P..S' }),
    rec('4', 'A', [], ['a', 'd'], { source: 'stryker', hook: 'seed', kills: { a: 3 } }),
    rec('5', 'A', [], ['a'], { source: 'stryker', hook: 'seed', keys: { a: ['m1', 'm2'] } }),
    rec('6', 'A', [], ['a'], { source: 'stryker', hook: 'seed', keys: { a: ['m2'] } }),
  ]);
  assert.equal(tally(h, 'a'), [1, 0, 0, 0]);
  assert.is(evidenceOf(h, 'a'), 1 + 3 + 2);
  assert.equal(tally(h, 'b'), [1, 1, 0, 0]);
  assert.is(evidenceOf(h, 'b'), 0);
  assert.is(tally(h, 'c'), undefined);
  assert.equal(orphanEvidence(h), ['d']);
});

test('seed records from before the parent check are not evidence, and are counted', () => {
  const h = foldHistory([rec('1', 'A', ['a'], []), rec('2', 'S', [], ['a'], { source: 'seed', hook: 'seed' })]);
  assert.is(evidenceOf(h, 'a'), 0);
  assert.is(h.legacySeeds, 1);
});

test('flaky rows: eligible first, then by flip rate; broken and ambiguous tests are named so', () => {
  const h = foldHistory([
    rec('1', 'A', ['steady', 'noisy'], ['flaky', 'dead', 'twin'], { dup: ['twin'] }),
    rec('2', 'A', ['steady', 'flaky', 'twin'], ['noisy', 'dead']),
    rec('3', 'A', ['steady', 'noisy'], ['flaky', 'dead', 'twin']),
    rec('4', 'S', [], ['flaky', 'twin'], { source: 'seed', change: 'x' }),
  ]);
  const rows = flakyRows(h, policy);
  assert.equal(
    rows.map((r) => [r.id, r.runs, r.sameCodeRuns, r.flips, r.evidence, r.eligible, r.broken, r.reason.split(':')[0]]),
    [
      ['flaky', 3, 2, 2, 1, true, false, 'freeze with expiry, flip_rate=1.000'],
      ['noisy', 3, 2, 2, 0, false, false, 'no sensitivity evidence; rewrite or delete'],
      ['twin', 3, 2, 2, 1, false, false, 'ambiguous id'],
      ['dead', 3, 2, 0, 0, false, true, 'broken, not flaky'],
      ['steady', 3, 2, 0, 0, false, false, 'not actually flaky (0.000)'],
    ],
  );
});

test('the compact file round-trips, keeps ids such as __proto__ as plain strings, and folding on from it equals folding all at once', () => {
  const all = [
    rec('1', 'A', ['__proto__', 'constructor'], ['x']),
    rec('2', 'A', ['x', '__proto__'], ['constructor']),
    rec('3', 'B', ['x'], [], { dup: ['x'] }),
    rec('4', 'S', [], ['x'], { source: 'seed', change: 'k' }),
    rec('5', 'B', [], ['x']),
  ];
  const whole = foldHistory(all);
  const part = foldHistory(all.slice(0, 3));
  const back = parseHistory(serializeHistory(part))!;
  for (const r of all.slice(3)) addRecord(back, r);
  assert.is(serializeHistory(back), serializeHistory(whole));
  assert.equal(tally(back, '__proto__'), [2, 0, 1, 0]);
  assert.equal(tally(back, 'constructor'), [2, 1, 1, 1]);
  assert.is(back.tiers.get('t1')!.tests.get('x')!.ambiguous, true);
  assert.is(parseHistory('{"format":99}'), undefined);
  assert.is(parseHistory('not json'), undefined);
});

test('each tier remembers a window of trees; a run on a tree older than that is a first run again', () => {
  const state = emptyHistory();
  addRecord(state, rec('0', 'old', [], ['a']));
  for (let i = 1; i <= KEY_WINDOW; i++) addRecord(state, rec(String(i), `t${i}`, ['a'], []));
  addRecord(state, rec('x', 'old', ['a'], []));
  assert.equal(tally(state, 'a'), [KEY_WINDOW + 2, 1, 0, 0]);
  assert.is(state.tiers.get('t1')!.keys.size, KEY_WINDOW);
});

test('a record joins its ledger row on run and tier, and keeps the source and the extras', () => {
  const row = { ts: 'T', run: 'r1', hook: 'seed', patch: 'abc', tier: 't2', source: 'seed' } as LedgerRow;
  assert.equal(
    testRecord(
      row,
      [
        { id: 'a', outcome: 'pass' },
        { id: 'b', outcome: 'fail' },
        { id: 'c', outcome: 'skip' },
      ],
      { cmd: 'k', attempt: 2 },
    ),
    {
      ts: 'T',
      run: 'r1',
      tier: 't2',
      hook: 'seed',
      patch: 'abc',
      source: 'seed',
      cmd: 'k',
      attempt: 2,
      pass: ['a'],
      fail: ['b'],
      skip: ['c'],
    },
  );
});

test.run();
