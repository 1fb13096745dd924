import { test } from 'uvu';
import { testMsg } from '../../src/evidence/messages.js';
import * as assert from 'uvu/assert';
import type { ReportRead } from '../../src/evidence/junit.js';
import { type Classified, judgeReport } from '../../src/verdict/verdict.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const ok = (...outcomes: ('pass' | 'fail' | 'skip')[]): ReportRead => ({
  kind: 'ok',
  cases: outcomes.map((outcome, i) => ({ id: `t${i}`, outcome })),
});
const PASS: Classified = { verdict: 'pass' };
const CAUGHT: Classified = { verdict: 'caught' };
const HARNESS: Classified = { verdict: 'error', reason: 'exit 4: pytest usage error' };

// [title, exit classification, exit code, report, verdict, reason fragment, failed, trusted]
const cases: [string, Classified, number, ReportRead, string, string | undefined, string[], boolean][] = [
  ['test failure exit and a failed case: caught', CAUGHT, 1, ok('pass', 'fail'), 'caught', undefined, ['t1'], true],
  ['an errored case counts as failed', CAUGHT, 1, ok('fail', 'fail'), 'caught', undefined, ['t0', 't1'], true],
  [
    'test failure exit, no report: error saying so',
    CAUGHT,
    1,
    { kind: 'missing' },
    'error',
    'exit 1 and no JUnit report at junit.xml: cannot tell',
    [],
    false,
  ],
  [
    'test failure exit, unreadable report',
    CAUGHT,
    1,
    { kind: 'unreadable', why: 'not well-formed XML' },
    'error',
    'is unreadable: not well-formed XML',
    [],
    false,
  ],
  [
    'test failure exit, stale report',
    CAUGHT,
    1,
    { kind: 'stale', written: '2020-01-01T00:00:00.000Z' },
    'error',
    'from an earlier run (written 2020-01-01',
    [],
    false,
  ],
  ['test failure exit, zero cases', CAUGHT, 1, ok(), 'error', 'lists no test cases: the harness failed before any test ran', [], true],
  [
    'test failure exit but every case passed',
    CAUGHT,
    1,
    ok('pass', 'skip'),
    'error',
    'every test in the JUnit report at junit.xml passed',
    [],
    true,
  ],
  [
    'exit 0 with failures: inconsistent',
    PASS,
    0,
    ok('pass', 'fail'),
    'error',
    'exit 0 but the JUnit report at junit.xml lists 1 test as failed (t1)',
    ['t1'],
    false,
  ],
  ['exit 0, all passed', PASS, 0, ok('pass', 'skip'), 'pass', undefined, [], true],
  [
    'exit 0, zero cases: no tests ran, an error',
    PASS,
    0,
    ok(),
    'error',
    'no tests ran: the report at junit.xml lists no test cases; if that is expected, set `allowNoTests: true`',
    [],
    true,
  ],
  [
    'a test file that could not load and no failed test: an error',
    CAUGHT,
    1,
    { kind: 'ok', cases: [{ id: 'a', outcome: 'pass' }], broken: ['t/b.test.js'] },
    'error',
    'lists a test file that could not run (t/b.test.js) and no failed test',
    [],
    false,
  ],
  [
    'a file that could not load beside a failed test: still caught',
    CAUGHT,
    1,
    { kind: 'ok', cases: [{ id: 'a', outcome: 'fail' }], broken: ['t/b.test.js'] },
    'caught',
    undefined,
    ['a'],
    true,
  ],
  ['exit 0, no report: a pass, outcomes not recorded', PASS, 0, { kind: 'missing' }, 'pass', 'per-test outcomes not recorded', [], false],
  ['a harness exit code stays an error whatever the report says', HARNESS, 4, ok('fail'), 'error', 'exit 4: pytest usage error', [], false],
];
for (const [title, base, code, report, verdict, reason, failed, trusted] of cases) {
  test(title, () => {
    const r = judgeReport(base, code, report, 'junit.xml');
    assert.is(r.verdict, verdict);
    if (reason === undefined) assert.is(r.reason, undefined);
    else assert.match(r.reason ?? '', reason);
    assert.equal(r.failed, failed);
    assert.is(r.trusted, trusted);
  });
}

test('allowNoTests: exit 0 with zero cases passes, saying it ran none', () => {
  const r = judgeReport(PASS, 0, ok(), 'junit.xml', undefined, true);
  assert.is(r.verdict, 'pass');
  assert.match(r.reason ?? '', 'lists no test cases: this gate ran no tests');
});

test('a missing report names how the runner writes one', () => {
  assert.match(judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.xml', 'pytest').reason ?? '', 'pytest --junitxml=PATH');
  assert.match(judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.xml', 'node').reason ?? '', '--test-reporter=junit');
});

test('allowNoTests: the empty report is trusted; a caught verdict from the report is proven', () => {
  assert.is(judgeReport(PASS, 0, ok(), 'junit.xml', undefined, true).trusted, true);
  const caught = judgeReport(CAUGHT, 1, ok('pass', 'fail'), 'junit.xml');
  assert.equal([caught.verdict, caught.proven], ['caught', true]);
});

test('only a missing report, not a stale or unreadable one, gets the hint on writing one', () => {
  const stale = { kind: 'stale', written: '2020-01-01T00:00:00.000Z' } as const;
  assert.is(
    judgeReport(CAUGHT, 1, stale, 'r.xml', 'pytest').reason,
    testMsg.reportCannotTell(1, testMsg.reportStale('r.xml', stale.written), ''),
  );
  assert.not.match(
    judgeReport(CAUGHT, 1, { kind: 'stale', written: '2020-01-01T00:00:00.000Z' }, 'r.xml', 'pytest').reason ?? '',
    '--junitxml',
  );
  assert.not.match(judgeReport(CAUGHT, 1, { kind: 'unreadable', why: 'bad' }, 'r.xml', 'pytest').reason ?? '', '--junitxml');
  assert.is(
    judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.xml').reason,
    judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.xml', undefined).reason,
  );
  assert.not.match(judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.xml').reason ?? '', 'PATH');
});

test('a report of another format is named as that report, with how to write it, in every reason', () => {
  const missing = judgeReport(CAUGHT, 1, { kind: 'missing' }, 'go-test.json', 'go', false, 'go-json').reason ?? '';
  assert.is(
    missing,
    'exit 1 and no `go test -json` report at go-test.json: cannot tell a failed test from a broken harness; make the gate write it (e.g. `go test -json ./... > PATH`) or drop `report` from the tier',
  );
  const reasons = [
    judgeReport(CAUGHT, 1, { kind: 'stale', written: '2020-01-01T00:00:00.000Z' }, 'r.json', 'go', false, 'go-json').reason,
    judgeReport(CAUGHT, 1, { kind: 'unreadable', why: 'bad' }, 'r.json', 'go', false, 'go-json').reason,
    judgeReport(CAUGHT, 1, ok(), 'r.json', 'go', false, 'go-json').reason,
    judgeReport(PASS, 0, ok('fail'), 'r.json', 'go', false, 'go-json').reason,
    judgeReport(CAUGHT, 1, ok('pass'), 'r.json', 'go', false, 'go-json').reason,
    judgeReport(PASS, 0, ok(), 'r.json', 'go', true, 'go-json').reason,
  ];
  for (const r of reasons) {
    assert.match(r ?? '', 'the `go test -json` report at r.json');
    assert.not.match(r ?? '', 'JUnit');
  }
  assert.match(
    judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.json', 'jest', false, 'jest-json').reason ?? '',
    'no jest JSON report at r.json',
  );
  assert.match(
    judgeReport(CAUGHT, 1, { kind: 'missing' }, 'r.json', 'vitest', false, 'vitest-json').reason ?? '',
    '`vitest run --reporter=json --outputFile=PATH`) or drop `report`',
  );
});

test.run();
