/** Real node:test and pytest runs writing real JUnit reports: what the report adds to the exit code. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, nodeTestId, withRepo } from '../helpers/repo.js';

const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
if (!hasPytest)
  process.stderr.write('reports.test: python3 -m pytest is not available (apt-get install python3-pytest); the pytest tests will fail\n');

const tier = (run: string, runner: string, junit = 'junit.xml') =>
  `export default { tiers: [{ name: 't1', run: ${JSON.stringify(run)}, runner: '${runner}', junit: '${junit}', timeout: 120 }] };\n`;

// The file, not its folder: Node 22 and 24 take a folder argument for a test file (and fail it).
const NODE_RUN = 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/value.test.mjs';
const IS_GOOD = nodeTestId('test/value.test.mjs', 'value > is good');
const NO_TABS = nodeTestId('test/value.test.mjs', 'value > has no tabs');
const NODE_TESTS = {
  '.gitignore': 'node_modules\njunit.xml\n',
  'src/value.txt': 'good\n',
  'test/value.test.mjs': `import { describe, test } from 'node:test';
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
describe('value', () => {
  test('is good', () => assert.equal(readFileSync('src/value.txt', 'utf8').trim(), 'good'));
  test('has no tabs', () => assert.ok(!readFileSync('src/value.txt', 'utf8').includes('\\t')));
});
`,
};

const PY_RUN = 'python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml tests';
const PY_TESTS = {
  '.gitignore': 'node_modules\nreport.xml\n__pycache__/\n',
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py':
    'from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n\nclass TestMore:\n    def test_zero(self):\n        assert add(0, 0) == 0\n',
  'pytest.ini': '[pytest]\npythonpath = .\n',
};

/** Commits a change, runs the ladder on it by hand, and returns the run, its rows and its test records. */
function runOn(repo: Repo, edit: Record<string, string>, env: Record<string, string> = {}) {
  for (const [path, content] of Object.entries(edit)) repo.write(path, content);
  repo.commit('change');
  const r = repo.cli(['run', '--base', 'HEAD~1'], { env, timeoutMs: 180_000 });
  const testsFile = join(repo.dir, '.git', 'gate-ladder', 'tests.jsonl');
  const records = existsSync(testsFile)
    ? readFileSync(testsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
  return { r, rows: repo.ledger(), records };
}

test('node:test: a failing test is caught; every outcome is recorded beside the ledger, joinable by run', () =>
  withRepo({ files: { ...NODE_TESTS, 'gate-ladder.config.ts': tier(NODE_RUN, 'node') } }, (repo) => {
    const { r, rows, records } = runOn(repo, { 'src/value.txt': 'bad\n' });
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 't1 caught a problem');
    assert.match(r.out, `t1: 1 test failed: ${IS_GOOD}`);
    assert.equal(
      rows.map((x) => [x.verdict, x.failed]),
      [['caught', [IS_GOOD]]],
    );
    assert.is(records.length, 1);
    assert.is(records[0].run, rows[0]!.run);
    assert.is(records[0].tier, 't1');
    assert.equal(records[0].fail, [IS_GOOD]);
    assert.equal(records[0].pass, [NO_TABS]);
    assert.is(rows[0]!.tests, undefined);
  }));

test('node:test: a missing test file exits 1 with no report: an error, not a catch', () =>
  withRepo(
    {
      files: {
        ...NODE_TESTS,
        'gate-ladder.config.ts': tier('node --test --test-reporter=junit --test-reporter-destination=junit.xml test/nope.test.mjs', 'node'),
      },
    },
    (repo) => {
      const { r, rows, records } = runOn(repo, { 'src/other.txt': 'x\n' });
      assert.is(r.code, 2, r.out);
      assert.match(r.out, 'exit 1 and no JUnit report at junit.xml: cannot tell a failed test from a broken harness');
      assert.match(r.out, 'This is not a verdict on the patch');
      assert.equal(
        rows.map((x) => x.verdict),
        ['error'],
      );
      assert.equal(records, []);
    },
  ));

test('node:test: a bad option is an error by its exit code', () =>
  withRepo(
    { files: { ...NODE_TESTS, 'gate-ladder.config.ts': tier(NODE_RUN.replace('node --test', 'node --no-such-flag --test'), 'node') } },
    (repo) => {
      const { r } = runOn(repo, { 'src/other.txt': 'x\n' });
      assert.is(r.code, 2, r.out);
      assert.match(r.out, 'exit 9: node was given a bad option');
    },
  ));

test('node:test: zero tests is an error ("no tests ran"), a pass with allowNoTests saying that it ran none', () =>
  withRepo(
    {
      files: {
        ...NODE_TESTS,
        'empty/README': 'no tests here\n',
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml', cwd: 'empty', runner: 'node', junit: 'junit.xml' }] };\n`,
      },
    },
    (repo) => {
      const { r, rows, records } = runOn(repo, { 'src/other.txt': 'x\n' });
      assert.is(r.code, 2, r.out);
      assert.match(r.out, 'no tests ran: the report at empty/junit.xml lists no test cases; if that is expected, set `allowNoTests: true`');
      assert.equal(
        rows.map((x) => x.verdict),
        ['error'],
      );
      assert.equal(records, []);
      repo.write(
        'gate-ladder.config.ts',
        `export default { tiers: [{ name: 't1', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml', cwd: 'empty', runner: 'node', junit: 'junit.xml', allowNoTests: true }] };\n`,
      );
      const allowed = runOn(repo, { 'src/other.txt': 'y\n' });
      assert.is(allowed.r.code, 0, allowed.r.out);
      assert.match(allowed.r.out, 'empty/junit.xml lists no test cases: this gate ran no tests');
      assert.match(String(allowed.rows[1]!.reason), 'ran no tests');
    },
  ));

test('node:test: exit 0 while the report lists a failure is an error (they disagree)', () =>
  withRepo({ files: { ...NODE_TESTS, 'gate-ladder.config.ts': tier(`${NODE_RUN}; exit 0`, 'node') } }, (repo) => {
    const { r, records } = runOn(repo, { 'src/value.txt': 'bad\n' });
    assert.is(r.code, 2, r.out);
    assert.match(r.out, `exit 0 but the JUnit report at junit.xml lists 1 test as failed (${IS_GOOD})`);
    assert.equal(records, [], 'a report that disagrees with its runner is not history');
  }));

test('a stale report is never read as this run: it is removed before the gate, and an old one is refused', () =>
  withRepo(
    {
      files: {
        ...NODE_TESTS,
        'old/junit.xml': '<testsuites><testcase name="old" classname="test"><failure/></testcase></testsuites>\n',
        'gate-ladder.config.ts': tier('exit 1', 'node'),
      },
    },
    (repo) => {
      // Left over from an earlier run in the work tree (ignored by git).
      repo.write('junit.xml', readFileSync(join(repo.dir, 'old/junit.xml'), 'utf8'));
      const first = runOn(repo, { 'src/other.txt': 'x\n' });
      assert.is(first.r.code, 2, first.r.out);
      assert.match(first.r.out, 'no JUnit report at junit.xml');
      assert.not.ok(existsSync(join(repo.dir, 'junit.xml')), 'the stale report was removed before the gate ran');
      // A gate that copies an old report in (keeping its mtime) does not make it this run's.
      utimesSync(join(repo.dir, 'old/junit.xml'), new Date('2020-01-01'), new Date('2020-01-01'));
      repo.write('gate-ladder.config.ts', tier('cp -p old/junit.xml junit.xml; exit 1', 'node'));
      const second = runOn(repo, { 'src/other.txt': 'y\n' });
      assert.is(second.r.code, 2, second.r.out);
      assert.match(second.r.out, 'the JUnit report at junit.xml is from an earlier run (written 2020-01-01');
      assert.not.match(second.r.out, 'caught a problem');
    },
  ));

test('pytest: a failing test is caught, with pytest ids (file::Class::test)', () =>
  withRepo({ files: { ...PY_TESTS, 'gate-ladder.config.ts': tier(PY_RUN, 'pytest', 'report.xml') } }, (repo) => {
    const { r, rows, records } = runOn(repo, { 'calc.py': 'def add(a, b):\n    return a - b\n' });
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 't1: 1 test failed: tests/test_calc.py::test_add');
    assert.equal(rows[0]!.failed, ['tests/test_calc.py::test_add']);
    assert.equal(records[0].pass, ['tests/test_calc.py::TestMore::test_zero']);
  }));

test('pytest: a collection error (exit 2) is an error even though the report lists an errored case', () =>
  withRepo({ files: { ...PY_TESTS, 'gate-ladder.config.ts': tier(PY_RUN, 'pytest', 'report.xml') } }, (repo) => {
    const { r, rows, records } = runOn(repo, { 'tests/test_broken.py': 'import no_such_module_here\n' });
    assert.is(r.code, 2, r.out);
    // The cause, as without a report (was `exit 2: pytest was interrupted or hit collection errors`).
    assert.match(
      r.out,
      "pytest could not collect the tests (tests/test_broken.py): `ModuleNotFoundError: No module named 'no_such_module_here'`",
    );
    assert.equal(
      rows.map((x) => [x.verdict, x.exit]),
      [['error', 2]],
    );
    assert.equal(records, []);
  }));

test('pytest: a usage error (exit 4) is an error', () =>
  withRepo({ files: { ...PY_TESTS, 'gate-ladder.config.ts': tier(`${PY_RUN} --no-such-option`, 'pytest', 'report.xml') } }, (repo) => {
    const { r } = runOn(repo, { 'calc.py': '# touched\ndef add(a, b):\n    return a + b\n' });
    assert.is(r.code, 2, r.out);
    assert.match(r.out, 'a pytest usage error: `__main__.py: error: unrecognized arguments: --no-such-option`');
  }));

test('pytest: zero tests collected (exit 5) is an error', () =>
  withRepo({ files: { ...PY_TESTS, 'gate-ladder.config.ts': tier(`${PY_RUN} -k no_such_test`, 'pytest', 'report.xml') } }, (repo) => {
    const { r } = runOn(repo, { 'calc.py': '# touched\ndef add(a, b):\n    return a + b\n' });
    assert.is(r.code, 2, r.out);
    assert.match(r.out, 'exit 5: pytest collected no tests');
  }));

test('pytest: a failing run whose command writes no report is an error that says how to write one', () =>
  withRepo(
    { files: { ...PY_TESTS, 'gate-ladder.config.ts': tier('python3 -m pytest -q -p no:cacheprovider tests', 'pytest', 'report.xml') } },
    (repo) => {
      const { r } = runOn(repo, { 'calc.py': 'def add(a, b):\n    return a - b\n' });
      assert.is(r.code, 2, r.out);
      assert.match(r.out, 'exit 1 and no JUnit report at report.xml');
      assert.match(r.out, 'pytest --junitxml=PATH');
    },
  ));

test.run();
