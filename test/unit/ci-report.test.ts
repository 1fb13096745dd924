/** `gate-ladder ci`'s output for the CI: GitHub annotations and the markdown step summary (pure). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { annotationsFor, escapeData, escapeProperty, githubAnnotations, githubCommand } from '../../src/report/ci-annotations.js';
import { ciSummary, type SummaryTarget } from '../../src/report/ci-summary.js';
import { mdText } from '../../src/report/escape.js';
import type { GateResult } from '../../src/gates/result.js';
import type { TierFigures } from '../../src/report/model.js';

const result = (over: Partial<GateResult>): GateResult => ({
  tier: 't1',
  verdict: 'pass',
  exitCode: 0,
  signal: null,
  seconds: 0.25,
  timedOut: false,
  tail: '',
  ...over,
});

test('escaping follows @actions/core: data escapes % CR LF; properties also : and ,', () => {
  assert.is(escapeData('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext: a, b');
  assert.is(escapeProperty('a: b, 100%\n'), 'a%3A b%2C 100%25%0A');
});

test('a failed test with file and line: one ::error at that line, title escaped as a property', () => {
  const line = githubCommand({
    file: 'test/math, v2.test.js',
    line: 5,
    title: 't2: math > adds: 1+1',
    message: 'expected 2\nreceived 3 (100%)',
  });
  assert.is(line, '::error file=test/math%2C v2.test.js,line=5,title=t2%3A math > adds%3A 1+1::expected 2%0Areceived 3 (100%25)');
});

test('control characters from gate output cannot reach the log raw: shown as escapes, one line per command', () => {
  const line = githubCommand({ title: 'evil\u001b[31m', message: 'a\u001b[2Jb\r\n::warning::forged' });
  assert.not.match(line, '\u001b');
  assert.is(line.split('\n').length, 1);
  assert.match(line, 'evil\\x1b[31m');
  assert.is(line, '::error title=evil\\x1b[31m::a\\x1b[2Jb%0A::warning::forged');
});

test('annotations: each failed test of a caught tier; a tier with no test named gets one of its own; a pass none', () => {
  const anns = annotationsFor([
    result({ tier: 't1', verdict: 'pass' }),
    result({
      tier: 't2',
      verdict: 'caught',
      exitCode: 1,
      failed: ['test/a.test.js::adds', 'test/a.test.js::subtracts'],
      failures: [
        { id: 'test/a.test.js::adds', title: 'adds', file: 'test/a.test.js', line: 4, message: 'expected 2' },
        { id: 'test/a.test.js::subtracts', title: 'subtracts', message: 'boom' },
      ],
    }),
    result({ tier: 't3', verdict: 'caught', exitCode: 1 }),
    result({ tier: 't4', verdict: 'error', exitCode: 127, reason: 'command not found' }),
  ]);
  assert.equal(
    anns.map((a) => [a.file, a.line, a.title]),
    [
      ['test/a.test.js', 4, 't2: adds'],
      [undefined, undefined, 't2: subtracts'],
      [undefined, undefined, 'gate-ladder: t3 caught a problem'],
      [undefined, undefined, 'gate-ladder: t4 could not give a verdict'],
    ],
  );
  assert.match(anns[3]!.message, 'command not found');
  assert.match(anns[3]!.message, 'not a verdict on the patch');
});

test("an error the patch caused is annotated at the file it broke, with the line the runner named; the harness's stays unplaced", () => {
  const anns = annotationsFor([
    result({
      tier: 't1',
      verdict: 'error',
      exitCode: 2,
      reason: 'tsc could not compile',
      cause: 'patch',
      causeFile: 'src/a.ts',
      causeLine: 12,
    }),
    result({
      tier: 't2',
      verdict: 'error',
      exitCode: 1,
      reason: 'no "test" script',
      cause: 'patch',
      causeFile: 'package.json',
      causeScript: 'test',
    }),
    result({ tier: 't3', verdict: 'error', exitCode: 1, reason: 'jest config broken', cause: 'harness' }),
  ]);
  assert.equal(
    anns.map((a) => [a.file, a.line, a.title]),
    [
      ['src/a.ts', 12, 'gate-ladder: t1: the patch broke src/a.ts'],
      ['package.json', undefined, 'gate-ladder: t2: the patch broke package.json'],
      [undefined, undefined, 'gate-ladder: t3 could not give a verdict'],
    ],
  );
  assert.match(anns[0]!.message, 'tsc could not compile');
  assert.match(anns[0]!.message, 'Fix src/a.ts');
  assert.not.match(anns[0]!.message, 'not a verdict on the patch');
  assert.match(anns[1]!.message, 'took the "test" script');
  const [stopped] = annotationsFor([
    result({
      tier: 't1',
      verdict: 'error',
      reason: 'the test binary aborted',
      cause: 'patch',
      causeFile: 'src/lib.rs',
      causeStopped: true,
    }),
  ]);
  assert.equal([stopped!.file, stopped!.title], ['src/lib.rs', 'gate-ladder: t1: the patch broke src/lib.rs']);
  assert.match(stopped!.message, 'ended the test process');
  assert.not.match(stopped!.message, 'cannot load');
  assert.match(
    githubAnnotations([result({ tier: 't1', verdict: 'error', cause: 'patch', causeFile: 'src/a.ts', causeLine: 12 })]).lines[0]!,
    /^::error file=src\/a\.ts,line=12,title=/,
  );
});

test('at most 10 annotations (GitHub shows 10 errors a step); the rest are counted', () => {
  const failures = Array.from({ length: 13 }, (_, i) => ({ id: `t${i}`, title: `test ${i}`, message: 'x' }));
  const { lines, left } = githubAnnotations([result({ verdict: 'caught', exitCode: 1, failures })]);
  assert.is(lines.length, 10);
  assert.is(left, 3);
  assert.ok(lines.every((l) => l.startsWith('::error title=t1%3A test ')));
});

test('mdText: markdown and HTML cannot act, a table cell cannot be broken', () => {
  assert.is(
    mdText('a|b <img src=x> *bold* [l](u) `c` \\ &amp;'),
    'a\\|b &lt;img src=x&gt; \\*bold\\* \\[l\\]\\(u\\) \\`c\\` \\\\ &amp;amp;',
  );
  assert.is(mdText('line1\nline2\u001b'), 'line1\\\\nline2\\\\x1b');
});

const figures: TierFigures[] = [
  {
    tier: 't1',
    runs: 4,
    caught: 1,
    errors: 0,
    passes: 3,
    median_s: 0.2,
    total_s: 1,
    yield: 1,
    error_rate: 0,
    not_applied: 0,
    not_applicable: 0,
  },
  {
    tier: 't2|x',
    runs: 2,
    caught: 1,
    errors: 1,
    passes: 0,
    median_s: 3,
    total_s: 6,
    yield: 0.167,
    error_rate: 0.5,
    not_applied: 0,
    not_applicable: 0,
  },
];

test('summary: headline by exit code, the range, one row per planned tier, failed tests, ledger figures', () => {
  const target: SummaryTarget = {
    ref: 'refs/pull/7/head',
    head: 'b'.repeat(40),
    base: 'a'.repeat(40),
    files: 2,
    plan: [
      { tier: 't0', run: false, reason: 'test-adjacent: tests/x' },
      { tier: 't1', run: true },
      { tier: 't2|x', run: true },
      { tier: 't3', run: true },
    ],
    verdict: 'caught',
    results: [
      result({ tier: 't1', seconds: 0.21 }),
      result({
        tier: 't2|x',
        verdict: 'caught',
        exitCode: 1,
        seconds: 1.5,
        failed: ['test/a.test.js::adds <b>'],
        failures: [{ id: 'test/a.test.js::adds <b>', title: 'adds <b>', file: 'test/a.test.js', line: 4, message: 'expected *2*\nstack…' }],
      }),
    ],
  };
  const md = ciSummary({ exit: 1, how: 'GitHub pull_request event #7: its head against its base', targets: [target], figures });
  assert.match(md, '## gate-ladder: check failed: a tier caught a problem (exit 1)');
  assert.match(md, 'GitHub pull\\_request event \\#7: its head against its base.');
  assert.match(md, 'refs/pull/7/head at `bbbbbbbbbbbb` against `aaaaaaaaaaaa`: 2 changed paths.');
  assert.match(md, '| t0 | not run |  | test-adjacent: tests/x |');
  assert.match(md, '| t1 | pass | 0.2 |  |');
  assert.match(md, '| t2\\|x | **caught** | 1.5 | 1 failed test: test/a.test.js::adds &lt;b&gt; |');
  assert.match(md, '| t3 | not run |  | not reached: an earlier tier stopped the ladder |');
  assert.match(md, '- `test/a.test.js:4` adds &lt;b&gt; (t2\\|x): expected \\*2\\*\n');
  assert.match(md, '| t1 | 4 | 1 | 0 | 0.2 | 1 | 1 | 0 |');
  assert.match(md, '| t2\\|x | 2 | 1 | 1 | 3 | 6 | 0.167 | 0.5 |');
  assert.not.match(md, 'push blocked');
});

test("summary: a catch whose failed tests come from the runner's output (no report) names them and how many failed in all", () => {
  const target: SummaryTarget = {
    ref: 'refs/heads/main',
    head: 'b'.repeat(40),
    base: 'a'.repeat(40),
    files: 1,
    plan: [{ tier: 't1', run: true }],
    verdict: 'caught',
    results: [
      result({
        tier: 't1',
        verdict: 'caught',
        exitCode: 1,
        failures: [{ id: 'test/a.test.js > adds', title: 'adds', file: 'test/a.test.js', line: 4, message: 'expected 2' }],
        failuresTotal: 300,
      }),
    ],
  };
  const md = ciSummary({ exit: 1, how: 'the given range', targets: [target], figures });
  assert.match(md, '| t1 | **caught** | 0.3 | 300 failed tests: test/a.test.js &gt; adds, … |');
});

test('summary headlines for a pass, an error and a skipped target', () => {
  assert.match(ciSummary({ exit: 0, how: 'x', targets: [], figures: [] }), '## gate-ladder: passed');
  assert.match(
    ciSummary({ exit: 2, how: 'x', targets: [], figures: [] }),
    'check failed: no verdict, the check itself did not complete (exit 2)',
  );
  const skipped = ciSummary({
    exit: 0,
    how: 'x',
    targets: [{ ref: 'HEAD', head: '', base: '', files: 0, plan: [], skipped: 'no config' }],
    figures: [],
  });
  assert.match(skipped, 'HEAD: no config.');
  assert.not.match(skipped, 'Ledger figures');
});

test.run();
