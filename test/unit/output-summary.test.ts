/**
 * The one screen of a blocked tier's output (verdict/output-summary.ts, pure) and the log that holds all of
 * it (gates/gate-log.ts): the summary at the end, every failure's first lines before any gets more, each
 * failed test named, dependency stack frames and blank lines left out, gaps marked, at most 40 lines.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resultForMachines, summarizeOutput } from '../../src/verdict/output-summary.js';
import { shownOutputLine } from '../../src/util/escape.js';
import type { GateResult } from '../../src/gates/result.js';
import { LOG_MAX_BYTES, LOGS_KEPT, openGateLog } from '../../src/gates/gate-log.js';
import { outputMsg } from '../../src/run/messages.js';
import { keepFor } from '../../src/verdict/runner-output.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const noise = (n: number) => Array.from({ length: n }, (_, i) => `noise line ${i}`);

/** mocha's spec reporter: counts before the failures' details. */
const mocha = [
  ...noise(1500),
  '  120 passing (2s)',
  '  3 failing',
  '',
  '  1) math',
  '       adds numbers:',
  '     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  '',
  '3 !== 2',
  '',
  '      at Context.<anonymous> (test/math.test.js:5:12)',
  '      at process.processImmediate (node:internal/timers:476:21)',
  ...Array.from({ length: 30 }, (_, i) => `      extra detail ${i} of the first failure`),
  '',
  '  2) math',
  '       parses dates:',
  '     Error: boom',
  '      at parse (node_modules/dates/index.js:1:1)',
  '',
  '  3) math',
  '       rounds down:',
  '     AssertionError: 1 == 2',
  '',
].join('\n');

test("keepFor jest: after a 'Test suite failed to run' line, the blank lines up to its reason and the reason are kept, then nothing more; at most five lines on", () => {
  const fed = (lines: string[]) => {
    const keep = keepFor('jest')!;
    return lines.map((line) => keep(line));
  };
  const head = '  ● Test suite failed to run';
  assert.equal(fed([head, '', '   ', '    Cannot find module', 'after the reason']), [true, true, true, true, false]);
  assert.equal(fed([head, '', '', '', '', '', 'six lines on']), [true, true, true, true, true, true, false]);
});

test('mocha: the counts, each of the three failures with its message, within 40 lines; no noise, no dependency frame', () => {
  const s = summarizeOutput({ text: mocha, keep: keepFor('mocha') });
  assert.ok(s.lines.length <= 40, s.lines.join('\n'));
  const text = s.lines.join('\n');
  for (const want of [
    '120 passing',
    '3 failing',
    'adds numbers:',
    'Expected values to be strictly equal',
    'parses dates:',
    'Error: boom',
    'rounds down:',
    'AssertionError: 1 == 2',
  ])
    assert.match(text, want, text);
  assert.not.match(text, 'noise line');
  assert.not.match(text, 'node_modules');
  assert.not.match(text, 'node:internal');
  assert.ok(s.lines.includes('…'), 'the gap above is marked');
  assert.is(s.shown, s.lines.filter((l) => l !== '…').length);
  // The third failure is reached before the first's 30 lines of detail run out the screen.
  assert.ok(text.indexOf('rounds down') > text.indexOf('adds numbers'));
});

test('a failed test the chosen lines do not name (known from its JUnit report) is listed on a line of its own', () => {
  const s = summarizeOutput({ text: `${noise(100).join('\n')}\n1 failed\n`, failed: ['test/a.test.js > suite > handles empty input'] });
  assert.equal(s.lines.at(-1), 'failed: handles empty input');
  assert.match(s.lines.join('\n'), '1 failed');
});

test('colours stripped, a redrawn line shown as drawn last, a long line cut, and nothing that says a failure: the end', () => {
  const text = `${noise(100).join('\n')}\n\u001b[31mprogress 10%\rprogress 100%\u001b[0m\n${'x'.repeat(500)}\n`;
  const s = summarizeOutput({ text, max: 5, width: 50 });
  assert.is(s.lines.length, 5);
  assert.is(s.lines.at(-2), 'progress 100%');
  assert.is(s.lines.at(-1), `${'x'.repeat(49)}…`);
  assert.is(s.lines[0], '…');
});

test('nothing to show: no lines', () => {
  assert.equal(summarizeOutput({ text: '' }), { lines: [], shown: 0 });
});

test('a gate log holds every byte as it comes, counts its lines, and only the newest logs are kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-logs-'));
  try {
    for (let i = 0; i < LOGS_KEPT + 3; i++) writeFileSync(join(dir, `20200101-000000-${String(i).padStart(3, '0')}-old.log`), 'old\n');
    const log = openGateLog(dir, 't1 unit/fast', new Date('2026-12-06T08:22:13.123Z'));
    assert.is(log.path, join(dir, '20261206-082213-123-t1_unit_fast.log'));
    log.write(Buffer.from('one\ntw'));
    assert.is(readFileSync(log.path!, 'utf8'), 'one\ntw', 'written as it comes, before the gate ends');
    log.write(Buffer.from('o\nthree'));
    assert.is(log.lines(), 3);
    log.close();
    const kept = readdirSync(dir).sort();
    assert.is(kept.length, LOGS_KEPT);
    assert.is(kept.at(-1), '20261206-082213-123-t1_unit_fast.log');
    assert.not.ok(kept.includes('20200101-000000-000-old.log'), 'the oldest went');
    const again = openGateLog(dir, 't1 unit/fast', new Date('2026-12-06T08:22:13.123Z'));
    assert.is(again.path, join(dir, '20261206-082213-123-t1_unit_fast-2.log'));
    again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("mocha's spec reporter: the tree drawn first (passing tests, the failed ones' `1) title`) gives no lines; each failure's details below `N failing` do", () => {
  const tree = Array.from({ length: 30 }, (_, i) => `      ✓ should throw an error when arg ${i} is invalid`);
  const text = [
    '',
    '  range',
    ...tree.slice(0, 15),
    '    1) should support negative ranges',
    ...tree.slice(15),
    '    2) fails in its own body',
    '',
    '  30 passing (12ms)',
    '  2 failing',
    '',
    '  1) range',
    '       should support negative ranges:',
    '',
    "      AssertionError [ERR_ASSERTION]: '-2-1' !== '-1-1'",
    '      at matchRange (test/range.test.js:4:10)',
    '      at Context.<anonymous> (test/range.test.js:10:5)',
    '',
    '  2) range',
    '       fails in its own body:',
    '',
    '      AssertionError [ERR_ASSERTION]: 1 !== 2',
    '      at Context.named (test/range.test.js:13:12)',
    '',
  ].join('\n');
  const s = summarizeOutput({ text, failed: ['range > should support negative ranges', 'range > fails in its own body'] });
  assert.not.ok(
    s.lines.some((l) => l.includes('✓')),
    s.lines.join('\n'),
  );
  assert.not.ok(s.lines.includes('    1) should support negative ranges'), s.lines.join('\n'));
  for (const l of [
    "      AssertionError [ERR_ASSERTION]: '-2-1' !== '-1-1'",
    '      AssertionError [ERR_ASSERTION]: 1 !== 2',
    '  2 failing',
  ])
    assert.ok(s.lines.includes(l), `${l}\n${s.lines.join('\n')}`);
});

test('a log past LOG_MAX_BYTES keeps the first bytes, says so at its end and to the run (cut), and the message says the log holds only those', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-logs-'));
  try {
    const log = openGateLog(dir, 't1');
    log.write(Buffer.from('a\n'));
    assert.is(log.cut(), undefined);
    log.write(Buffer.alloc(LOG_MAX_BYTES, 0x78));
    assert.is(log.cut(), LOG_MAX_BYTES);
    log.close();
    assert.match(readFileSync(log.path!, 'utf8').slice(-120), `more bytes of output were not kept]`);
    const said = outputMsg.leftOut('t1', 1, 2, log.path, log.cut());
    assert.match(said, 'is longer than a log keeps: its first 64 MiB are in');
    assert.not.match(said, 'whole output');
    assert.match(outputMsg.leftOut('t1', 2, 2, log.path), 'the whole output of t1 (2 lines) is also in');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a log that cannot be written costs the log, not the count', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-logs-'));
  try {
    writeFileSync(join(dir, 'file'), '');
    const log = openGateLog(join(dir, 'file', 'logs'), 't1');
    assert.is(log.path, undefined);
    log.write(Buffer.from('a\nb\n'));
    assert.is(log.lines(), 2);
    log.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a tab in a runner's output (go's `FAIL\\tpkg`): the screen expands it, a machine's summary and a failed test's message keep a real one; an escape stays escaped", () => {
  const tail =
    '--- FAIL: TestAdd (0.00s)\n    calc_test.go:7: got\t3\nFAIL\nFAIL\texample.com/m/calc\t0.002s\nbell\u0007 \u001b]0;title\u0007\n';
  const result: GateResult = { tier: 't', verdict: 'caught', exitCode: 1, signal: null, seconds: 1, timedOut: false, tail };
  const summary = resultForMachines(result).summary ?? [];
  assert.ok(summary.includes('FAIL\texample.com/m/calc\t0.002s'), JSON.stringify(summary));
  assert.ok(!summary.some((l) => l.includes('\\t')), JSON.stringify(summary));
  assert.ok(summary.includes('bell\\x07'), JSON.stringify(summary));
  assert.is(shownOutputLine('FAIL\texample.com/m/calc\t0.002s'), 'FAIL    example.com/m/calc      0.002s');
  assert.is(shownOutputLine('ab\tc\u001b[31m'), 'ab      c\\x1b[31m');
  assert.equal(outputMsg.failedTests([{ id: 'm::TestAdd', title: 'TestAdd', file: 'calc/calc_test.go', line: 7, message: 'got\t3' }]), [
    '  failed: calc/calc_test.go:7 TestAdd: got     3',
  ]);
});

test("two failing mocha workspaces of one npm run: the first workspace's failure is on the screen, not only the second's", () => {
  const run = (name: string, title: string, message: string) => [
    '',
    `> ${name}@1.0.0 test`,
    `> node mocha.js ${name}.test.js`,
    '',
    '',
    `  1) ${title}`,
    '',
    '  0 passing (3ms)',
    '  1 failing',
    '',
    `  1) ${title}:`,
    '',
    `      ${message}`,
    '      + expected - actual',
    '',
    `      at Context.<anonymous> (${name}.test.js:2:28)`,
    '',
  ];
  const text = [
    '',
    '> mono@1.0.0 test',
    '> npm test --workspaces',
    ...run('a', 'adds', 'AssertionError [ERR_ASSERTION]: 2 == 3'),
    'npm error Lifecycle script `test` failed with error:',
    'npm error code 1',
    'npm error path /x/packages/a',
    ...run('b', 'doubles', 'AssertionError [ERR_ASSERTION]: 4 == 5'),
    'npm error Lifecycle script `test` failed with error:',
    'npm error code 1',
    'npm error path /x/packages/b',
  ].join('\n');
  const s = summarizeOutput({ text, failed: ['packages/a/a.test.js::adds', 'packages/b/b.test.js::doubles'] });
  const at = (l: string) => s.lines.indexOf(l);
  for (const l of [
    '      AssertionError [ERR_ASSERTION]: 2 == 3',
    '      AssertionError [ERR_ASSERTION]: 4 == 5',
    '  1) adds:',
    '  1) doubles:',
  ])
    assert.ok(at(l) !== -1, `${l}\n${s.lines.join('\n')}`);
  assert.ok(
    at('      AssertionError [ERR_ASSERTION]: 2 == 3') < at('      AssertionError [ERR_ASSERTION]: 4 == 5'),
    'in the order printed',
  );
  // Each tree is still left out: its `1) adds` is not a failure's head.
  assert.is(at('  1) adds'), -1, s.lines.join('\n'));
  assert.not.ok(
    s.lines.some((l) => l.startsWith('failed: ')),
    `every failed test named on the screen:\n${s.lines.join('\n')}`,
  );
});

test.run();
