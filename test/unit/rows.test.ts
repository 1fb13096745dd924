/**
 * run/rows.ts: a ledger row's failed tests. A caught tier's row names its failed tests' ids (`failed`)
 * whether a JUnit report or the runner's output named them, at most 100, with `failed_total` when more
 * failed than it lists; the first 10 with place and message (`failed_tests`). Each row passes the check
 * another clone's rows get (ledger/row-check.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toRow } from '../../src/run/rows.js';
import { refuseRow } from '../../src/ledger/row-check.js';
import type { GateResult } from '../../src/gates/result.js';
import type { LadderInput } from '../../src/run/rows.js';

const input: LadderInput = {
  plan: { files: ['src/a.js'], fileCount: 1, hits: [], tiers: [] },
  runId: 'r1',
  hook: 'pre-push',
  patch: 'a'.repeat(40),
  base: 'b'.repeat(40),
  cwd: '/x',
  isolation: 'none',
};
const now = new Date('2026-12-07T12:00:00Z');
const caught = (extra: Partial<GateResult>): GateResult => ({
  tier: 't1',
  verdict: 'caught',
  exitCode: 1,
  signal: null,
  seconds: 1,
  timedOut: false,
  tail: '',
  ...extra,
});
const failure = (i: number) => ({
  id: `test/a.test.js::case ${i}`,
  title: `case ${i}`,
  file: 'test/a.test.js',
  line: i + 1,
  message: `expected ${i}`,
});
const limits = { timeouts: new Map([['t1', 30]]), now: now.getTime() };

test("a catch whose failed tests its runner's output named: their ids in `failed`, with the total the runner counted", () => {
  const row = toRow(input, caught({ failures: Array.from({ length: 50 }, (_, i) => failure(i)), failuresTotal: 300 }), [], now);
  assert.is(row.failed?.length, 50);
  assert.is(row.failed?.[0], 'test/a.test.js::case 0');
  assert.is(row.failed_total, 300);
  assert.is(row.failed_tests?.length, 10);
  assert.is(refuseRow(row as unknown as Record<string, unknown>, 'them', limits), undefined);
  const few = toRow(input, caught({ failures: [failure(1), failure(2)] }), [], now);
  assert.equal(few.failed, ['test/a.test.js::case 1', 'test/a.test.js::case 2']);
  assert.is(few.failed_total, undefined);
  assert.is(refuseRow(few as unknown as Record<string, unknown>, 'them', limits), undefined);
});

test("a JUnit report's failed tests (frozen ones too) stand in `failed`; more than 100: the first 100 and the total", () => {
  const ids = Array.from({ length: 120 }, (_, i) => `t${i}`);
  const row = toRow(input, caught({ failed: ids, failures: [failure(1)] }), [], now);
  assert.equal(row.failed, ids.slice(0, 100));
  assert.is(row.failed_total, 120);
  assert.is(refuseRow(row as unknown as Record<string, unknown>, 'them', limits), undefined);
});

test('a pass or an error names no failed test from an output', () => {
  const row = toRow(input, { ...caught({ failures: [failure(1)] }), verdict: 'error' }, [], now);
  assert.is(row.failed, undefined);
  assert.is(row.failed_tests, undefined);
});

test.run();
