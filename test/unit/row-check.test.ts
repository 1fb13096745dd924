import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countRefusal, mainReason, type Refusals, refuseRow, refuseTestRecord, UNKNOWN_TIER_MAX_S } from '../../src/ledger/row-check.js';

const SHA = 'a'.repeat(40);
const row = {
  ts: '2026-12-01T10:00:00.000Z',
  run: '3fc8a6f518e3',
  hook: 'pre-push',
  patch: SHA,
  base: 'b'.repeat(40),
  ref: 'refs/heads/main',
  tier: 't1',
  verdict: 'caught',
  seconds: 2.5,
  exit: 1,
  files: ['src/a.ts'],
  files_count: 1,
  routed: false,
  isolation: 'none',
};
const limits = { timeouts: new Map([['t1', 30]]), now: Date.parse('2026-12-02T00:00:00Z') };

const cases: [string, Record<string, unknown>, string | undefined][] = [
  ['a row a run writes', row, undefined],
  ['a first push (base null), a timeout (exit null)', { ...row, base: null, exit: null, seconds: 90 }, undefined],
  ['a replayed patch file', { ...row, hook: 'replay', patch: 'fix-1.patch@0123456789ab', source: 'replay', config_hash: 'abc' }, undefined],
  [
    'a patch gate-ladder judge judged',
    { ...row, hook: 'judge', patch: 'stdin@0123456789ab', source: 'judge', config_hash: 'abc' },
    undefined,
  ],
  [
    'a judged patch that did not apply',
    { ...row, hook: 'judge', patch: 'bug.diff@0123456789ab', tier: '(apply)', verdict: 'error', applied: false, source: 'judge' },
    undefined,
  ],
  ['stamped with its own origin', { ...row, origin: 'them' }, undefined],
  ['a tier this config does not name: up to a day', { ...row, tier: 'retired', seconds: UNKNOWN_TIER_MAX_S }, undefined],
  ['seconds 2^31-1', { ...row, seconds: 2147483647 }, "seconds beyond the tier's timeout"],
  ['seconds past the timeout and its grace', { ...row, seconds: 91 }, "seconds beyond the tier's timeout"],
  ['a tier run twice (retries: 1): twice the bound', { ...row, seconds: 180, retried: { verdict: 'caught', seconds: 90 } }, undefined],
  [
    'a retried row past twice the bound',
    { ...row, seconds: 181, retried: { verdict: 'caught', seconds: 90 } },
    "seconds beyond the tier's timeout",
  ],
  ['retried as text', { ...row, retried: 'yes' }, 'malformed retried'],
  ['an unknown tier past a day', { ...row, tier: 'retired', seconds: UNKNOWN_TIER_MAX_S + 1 }, 'seconds beyond a day'],
  ['negative seconds', { ...row, seconds: -1 }, 'malformed seconds'],
  ['seconds as text', { ...row, seconds: '1' }, 'malformed seconds'],
  ['an unknown verdict', { ...row, verdict: 'CAUGHT' }, 'unknown verdict'],
  ['a run id with spaces and markup', { ...row, run: 'x <script>' }, 'malformed run id'],
  ['a patch that is no sha', { ...row, patch: 'HEAD' }, 'malformed patch'],
  ['a short base', { ...row, base: 'abc' }, 'malformed base'],
  ['a time that is not ISO', { ...row, ts: 'yesterday' }, 'malformed time'],
  ['a time a year ahead', { ...row, ts: '2027-12-01T10:00:00.000Z' }, 'time in the future'],
  ['another origin named', { ...row, origin: 'someone-else' }, 'names another origin'],
  ['an unknown hook', { ...row, hook: 'post-merge' }, 'unknown hook'],
  ['files not strings', { ...row, files: [1] }, 'malformed path list'],
  ['a negative files_count', { ...row, files_count: -3 }, 'malformed files_count'],
  ['calibration as text', { ...row, calibration: 'yes' }, 'malformed calibration'],
  [
    'a row of the predicted order, select having skipped a tier',
    { ...row, order: 'predicted', position: 2, p: 0.031, skipped_by_select: ['t3'], residual_risk: 0.0004 },
    undefined,
  ],
  ['an unknown order', { ...row, order: 'random' }, 'malformed order'],
  ['the listed order for too little history', { ...row, order: 'fixed', order_why: 'history', position: 1 }, undefined],
  ['an unknown order_why', { ...row, order: 'fixed', order_why: 'mood' }, 'malformed order_why'],
  ['position 0', { ...row, position: 0 }, 'malformed position'],
  ['a p above 1', { ...row, p: 2 }, 'malformed p'],
  ['skipped_by_select not strings', { ...row, skipped_by_select: [3] }, 'malformed path list'],
  ['a tier with a control character', { ...row, tier: 't1\u001b[2J' }, 'malformed tier'],
  [
    "a catch's failed tests, read from the output: ids, a total past them, the first with place and message",
    {
      ...row,
      failed: ['test/a.test.js::adds', 'test/a.test.js::adds\u0007'],
      failed_total: 300,
      failed_tests: [
        { id: 'test/a.test.js::adds', file: 'test/a.test.js', line: 3, message: 'expected 2' },
        { id: 'x', message: '' },
      ],
      frozen: ['test/a.test.js::flaky'],
    },
    undefined,
  ],
  ['failed not strings', { ...row, failed: [1] }, 'malformed failed'],
  ['failed past the 100 a row keeps', { ...row, failed: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'malformed failed'],
  ['failed as text', { ...row, failed: 'adds' }, 'malformed failed'],
  ['a failed_total no larger than failed', { ...row, failed: ['a', 'b'], failed_total: 2 }, 'malformed failed_total'],
  ['a negative failed_total', { ...row, failed_total: -1 }, 'malformed failed_total'],
  [
    'failed_tests past the 10 a row keeps',
    { ...row, failed_tests: Array.from({ length: 11 }, () => ({ id: 'a', message: '' })) },
    'malformed failed_tests',
  ],
  ['a failed test without an id', { ...row, failed_tests: [{ message: 'x' }] }, 'malformed failed_tests'],
  ['a failed test at line 0', { ...row, failed_tests: [{ id: 'a', line: 0, message: 'x' }] }, 'malformed failed_tests'],
  ['frozen not strings', { ...row, frozen: [{}] }, 'malformed frozen'],
];
for (const [title, r, why] of cases) test(`refuseRow: ${title}`, () => assert.is(refuseRow(r, 'them', limits), why));

test('refuseTestRecord: lists of names, its own origin', () => {
  const rec = { run: '3fc8a6f518e3', tier: 't1', patch: SHA, pass: ['a'], fail: [] };
  assert.is(refuseTestRecord(rec, 'them'), undefined);
  assert.is(refuseTestRecord({ ...rec, fail: [{}] }, 'them'), 'malformed test lists');
  assert.is(refuseTestRecord({ ...rec, origin: 'other' }, 'them'), 'names another origin');
});

test('refusals are counted per origin, the most frequent reason first', () => {
  const r: Refusals = {};
  countRefusal(r, 'm', 'unknown verdict');
  countRefusal(r, 'm', 'malformed seconds');
  countRefusal(r, 'm', 'malformed seconds');
  countRefusal(r, 'n', 'malformed run id');
  assert.equal(r.m, { rows: 3, reasons: { 'unknown verdict': 1, 'malformed seconds': 2 } });
  assert.is(mainReason(r.m!), 'malformed seconds');
  assert.is(r.n?.rows, 1);
});

test.run();
