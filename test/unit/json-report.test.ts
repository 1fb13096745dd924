import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseGoJson, parseJestJson } from '../../src/evidence/json-report.js';
import { validateConfig } from '../../src/config/load.js';

// The shape of `jest --json` (vitest's json reporter writes the same), trimmed.
const JEST = JSON.stringify({
  numFailedTests: 1,
  testResults: [
    {
      name: '/repo/test/math.test.js',
      status: 'failed',
      assertionResults: [
        { ancestorTitles: ['math'], title: 'adds', status: 'passed' },
        { ancestorTitles: ['math', 'deep'], title: 'fails', status: 'failed' },
        { ancestorTitles: [], title: 'later', status: 'pending' },
        { ancestorTitles: [], title: 'some day', status: 'todo' },
      ],
    },
    { name: '/repo/test/broken.test.js', status: 'failed', message: '● Test suite failed to run', assertionResults: [] },
  ],
});

test('jest/vitest JSON: ids are file::titles, a file with no results that failed is broken', () => {
  const r = parseJestJson(JEST, { root: '/repo' });
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.cases, [
    { id: 'test/math.test.js::math > adds', outcome: 'pass' },
    { id: 'test/math.test.js::math > deep > fails', outcome: 'fail' },
    { id: 'test/math.test.js::later', outcome: 'skip' },
    { id: 'test/math.test.js::some day', outcome: 'skip' },
  ]);
  assert.equal(r.broken, ['test/broken.test.js']);
});

test('jest/vitest JSON: not JSON, or not a test report', () => {
  assert.equal(parseJestJson(''), { ok: false, why: 'the file is empty' });
  assert.match(String((parseJestJson('{') as { why: string }).why), 'not JSON');
  assert.match(String((parseJestJson('{"a":1}') as { why: string }).why), 'no "testResults" list');
});

const GO = [
  '{"Action":"start","Package":"example.com/m"}',
  '{"Action":"run","Package":"example.com/m","Test":"TestAdd"}',
  '{"Action":"output","Package":"example.com/m","Test":"TestAdd","Output":"    add_test.go:8: got 3\\n"}',
  '{"Action":"fail","Package":"example.com/m","Test":"TestAdd","Elapsed":0}',
  '{"Action":"pass","Package":"example.com/m","Test":"TestSub","Elapsed":0}',
  '{"Action":"skip","Package":"example.com/m","Test":"TestLater","Elapsed":0}',
  '{"Action":"fail","Package":"example.com/m","Elapsed":0.01}',
  '{"ImportPath":"example.com/m/broken [example.com/m/broken.test]","Action":"build-output","Output":"./x.go:3:1: syntax error\\n"}',
  '{"ImportPath":"example.com/m/broken [example.com/m/broken.test]","Action":"build-fail"}',
  '{"Action":"fail","Package":"example.com/m/broken","Elapsed":0,"FailedBuild":"example.com/m/broken [example.com/m/broken.test]"}',
  'FAIL',
].join('\n');

test('go test -json: the last pass/fail/skip of each test; a package that failed with no failed test is broken', () => {
  const r = parseGoJson(GO);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.cases, [
    { id: 'example.com/m::TestAdd', outcome: 'fail' },
    { id: 'example.com/m::TestSub', outcome: 'pass' },
    { id: 'example.com/m::TestLater', outcome: 'skip' },
  ]);
  assert.equal(r.broken, ['example.com/m/broken']);
  assert.equal(parseGoJson('ok  \texample.com/m\n'), { ok: false, why: 'no `go test -json` events in it' });
});

test('config: report and allowNoTests are validated; junit and report are one or the other', () => {
  const ok = validateConfig(
    { tiers: [{ name: 't', run: 'jest --json --outputFile=r.json', report: { format: 'jest-json', path: 'r.json' }, allowNoTests: true }] },
    'c.ts',
  );
  assert.ok(ok.ok);
  if (ok.ok) assert.equal([ok.config.tiers[0]!.report, ok.config.tiers[0]!.allowNoTests], [{ format: 'jest-json', path: 'r.json' }, true]);
  const junit = validateConfig({ tiers: [{ name: 't', run: 'x', junit: 'j.xml' }] }, 'c.ts');
  if (junit.ok) assert.equal(junit.config.tiers[0]!.report, { format: 'junit', path: 'j.xml' });
  const bad = validateConfig({ tiers: [{ name: 't', run: 'x', report: { format: 'tap', path: '' }, allowNoTests: 'yes' }] }, 'c.ts');
  assert.not.ok(bad.ok);
  if (!bad.ok) {
    assert.ok(
      bad.problems.some((p) => p.includes('tiers[0].report.format must be one of junit, jest-json, vitest-json, go-json')),
      bad.problems.join('\n'),
    );
    assert.ok(
      bad.problems.some((p) => p.includes('tiers[0].allowNoTests must be true or false')),
      bad.problems.join('\n'),
    );
  }
  const both = validateConfig({ tiers: [{ name: 't', run: 'x', junit: 'j.xml', report: { format: 'junit', path: 'j.xml' } }] }, 'c.ts');
  assert.ok(!both.ok && both.problems.some((p) => p.includes('has both `junit` and `report`')));
});

test.run();
