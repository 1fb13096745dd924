import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { strykerEvidence } from '../../src/evidence/stryker.js';

const report = (mutants: object[], testFiles?: object) => ({
  schemaVersion: '2',
  thresholds: { high: 80, low: 60 },
  projectRoot: '/repo',
  files: { 'src/math.js': { language: 'javascript', source: '', mutants } },
  ...(testFiles && { testFiles }),
});
const mutant = (id: string, status: string, killedBy?: string[]) => ({
  id,
  mutatorName: 'ArithmeticOperator',
  location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
  status,
  ...(killedBy && { killedBy }),
});
const testFiles = {
  'test/math.test.js': {
    tests: [
      { id: '0', name: 'math adds' },
      { id: '1', name: 'math subtracts' },
    ],
  },
  '/repo/test/other.test.ts': { tests: [{ id: '2', name: 'other > works' }] },
};

test('only Killed mutants are evidence; Timeout, RuntimeError, Survived and the rest are not', () => {
  const r = strykerEvidence(
    report(
      [
        mutant('1', 'Killed', ['0']),
        mutant('2', 'Killed', ['0', '1']),
        mutant('3', 'Timeout', ['1']),
        mutant('4', 'RuntimeError', ['1']),
        mutant('5', 'Survived'),
        mutant('6', 'NoCoverage'),
      ],
      testFiles,
    ),
    ['math adds', 'math subtracts'],
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.evidence.killed, 2);
  assert.is(r.evidence.ignored, 4);
  assert.equal(
    [...r.evidence.kills],
    [
      ['math adds', 2],
      ['math subtracts', 1],
    ],
  );
  assert.equal(r.evidence.unmatched, []);
});

test('killedBy ids map through testFiles to the ids in our history (file + title path)', () => {
  const r = strykerEvidence(report([mutant('1', 'Killed', ['2', '0'])], testFiles), [
    'test/other.test.ts::other > works',
    'test/math.test.js::math adds',
    'test/zzz.test.js::math adds',
  ]);
  assert.ok(r.ok);
  if (r.ok) assert.equal([...r.evidence.kills.keys()].sort(), ['test/math.test.js::math adds', 'test/other.test.ts::other > works']);
});

test('a test with no history here is recorded under the report name, and listed as unmatched', () => {
  const r = strykerEvidence(report([mutant('1', 'Killed', ['1', 'unknown-id'])], testFiles), []);
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal([...r.evidence.kills.keys()], ['test/math.test.js::math subtracts', 'unknown-id']);
    assert.equal(r.evidence.unmatched, ['test/math.test.js::math subtracts', 'unknown-id']);
  }
});

test('without testFiles, killedBy ids are taken as names', () => {
  const r = strykerEvidence(report([mutant('1', 'Killed', ['math adds'])]), ['math adds']);
  assert.ok(r.ok);
  if (r.ok) assert.equal([...r.evidence.kills], [['math adds', 1]]);
});

test('not a mutation report', () => {
  assert.is(strykerEvidence({ tests: [] }, []).ok, false);
  assert.is(strykerEvidence(null, []).ok, false);
});

test.run();
