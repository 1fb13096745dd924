/**
 * pytest's plugins and tox, as Debian ships them (python3-pytest-cov, tox; .ci/run installs them), on
 * real pushes. pytest-cov fails a run whose tests all passed when coverage is below --cov-fail-under,
 * with pytest's failure code 1; tox exits 1 whatever failed. Before, both were judged by that exit 1
 * alone: `caught`, with no test failed (coverage) or none run (a test module that cannot import).
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';
import { toolPresent } from '../helpers/system-tool.js';

/** The python that has pytest-cov: the one on PATH, else Debian's. */
const PYTHON = ['python3', '/usr/bin/python3'].find(
  (p) => spawnSync(p, ['-c', 'import pytest, pytest_cov'], { encoding: 'utf8' }).status === 0,
);
const hasTox = spawnSync('tox', ['--version'], { encoding: 'utf8' }).status === 0;
const withCov = toolPresent('the pytest-cov case', PYTHON !== undefined, 'apt-get install python3-pytest-cov');
const withTox = toolPresent('the tox case', hasTox && PYTHON !== undefined, 'apt-get install tox python3-pytest-cov');

const CALC = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    if a < b:\n        return -(b - a)\n    return a - b\n';
const TEST = 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';

if (withCov)
  test('pytest-cov: every test passed but coverage is below --cov-fail-under: an error quoting pytest-cov, not a catch', () =>
    withRepo(
      {
        files: {
          '.gitignore': '__pycache__/\n.coverage\n',
          'calc.py': CALC,
          'tests/test_calc.py': TEST,
          'gate-ladder.config.mjs': `export default { tiers: [{ name: 't2-cov', run: 'PYTHONPATH=. ${PYTHON ?? 'python3'} -m pytest -q -p no:cacheprovider --cov=calc --cov-fail-under=100 tests', timeout: 120 }] };\n`,
        },
      },
      (repo) => {
        repo.write('calc.py', `${CALC}\n\ndef mul(a, b):\n    return a * b\n`);
        repo.commit('an uncovered function');
        const r = repo.push();
        assert.is.not(r.code, 0, r.out);
        assert.match(r.out, 't2-cov error in');
        assert.match(
          r.out,
          "pytest says coverage is below its threshold (pytest-cov's --cov-fail-under): `FAIL Required test coverage of 100% not reached.",
        );
        assert.match(r.out, 'no test failed (`1 passed in');
        assert.not.match(r.out, 'caught');
      },
    ));

if (withTox)
  test('tox: a failed test is caught, a test module that cannot import and a dependency pip cannot install are errors; each read off what tox says failed, not its exit 1', () =>
    withRepo(
      {
        files: {
          '.gitignore': '__pycache__/\n.tox/\n',
          'calc.py': CALC,
          'tests/test_calc.py': TEST,
          // The environment sees the system's pytest: no download.
          'tox.ini': `[tox]\nenvlist = py\nskipsdist = true\n\n[testenv]\nbasepython = ${PYTHON ?? 'python3'}\nsitepackages = true\nsetenv = PYTHONPATH = {toxinidir}\ncommands = python -m pytest -q -p no:cacheprovider tests\n`,
          'gate-ladder.config.mjs': "export default { tiers: [{ name: 't2-tox', run: 'tox', timeout: 300 }] };\n",
        },
      },
      (repo) => {
        repo.write('tests/test_calc.py', `${TEST}\n\ndef test_add_zero():\n    assert add(0, 0) == 1\n`);
        repo.commit('a failing test');
        const caught = repo.cli(['run', '--base', 'HEAD~1']);
        assert.is(caught.code, 1, caught.out);
        assert.match(caught.stderr, 't2-tox caught in');
        assert.match(caught.stderr, '(exit 1): pytest: `1 failed, 1 passed in');
        // pytest's reader names the failed test under tox, as without it.
        assert.match(caught.stderr, 'failed: tests/test_calc.py:9 test_add_zero: assert 0 == 1');
        assert.match(caught.stderr, '(exit 1: a test failed)');
        const row = repo.ledger().at(-1)!;
        assert.is(row.runner, 'pytest');
        assert.equal(row.failed_tests, [
          { id: 'tests/test_calc.py::test_add_zero', file: 'tests/test_calc.py', line: 9, message: 'assert 0 == 1' },
        ]);

        repo.write('tests/test_calc.py', `import nope_missing\n${TEST}`);
        repo.commit('an import that fails');
        const broken = repo.cli(['run', '--base', 'HEAD~1']);
        assert.is(broken.code, 2, broken.out);
        assert.match(
          broken.stderr,
          "(exit 2): pytest could not collect the tests (tests/test_calc.py): `ModuleNotFoundError: No module named 'nope_missing'`",
        );
        assert.match(broken.stderr, '  The range changed tests/test_calc.py, which cannot load (line 1): the patch broke the harness.');

        repo.write('tests/test_calc.py', TEST);
        repo.write(
          'tox.ini',
          repo.read('tox.ini').replace('sitepackages = true\n', 'sitepackages = true\ndeps = gl-no-such-package-anywhere==1.0\n'),
        );
        repo.commit('a dependency that cannot install');
        const deps = repo.cli(['run', '--base', 'HEAD~1'], { env: { PIP_NO_INDEX: '1', PIP_RETRIES: '0' } });
        assert.is(deps.code, 2, deps.out);
        assert.match(
          deps.stderr,
          'tox could not make the test environment, so no test ran: `ERROR: could not install deps [gl-no-such-package-anywhere==1.0]',
        );
        // A tox.ini the range broke: the patch's error, naming tox.ini.
        repo.write(
          'tox.ini',
          repo
            .read('tox.ini')
            .replace(/deps = .*\n/, '')
            .replace('[testenv]', '[testenv'),
        );
        repo.commit('a tox.ini that does not parse');
        const config = repo.cli(['run', '--base', 'HEAD~1']);
        assert.is(config.code, 2, config.out);
        assert.match(
          config.stderr,
          'tox could not read its config (tox.ini, or its section of setup.cfg or pyproject.toml), so no test ran',
        );
        assert.match(config.stderr, '  The range changed tox.ini, which cannot load: the patch broke the harness.');
        assert.equal(
          repo.ledger().map((r) => [r.verdict, r.error_cause ?? null]),
          [
            ['caught', null],
            ['error', 'patch'],
            ['error', 'harness'],
            ['error', 'patch'],
          ],
        );
      },
    ));

test('python -m flake8 where that python has no flake8 (site-packages off, as outside the virtualenv): an error of the harness naming flake8, never a catch', () =>
  withRepo(
    {
      files: {
        '.gitignore': '__pycache__/\n',
        'src/calc.py': CALC,
        'package.json': '{ "private": true, "scripts": { "lint": "python3 -S -m flake8 src" } }\n',
        'gate-ladder.config.mjs': "export default { tiers: [{ name: 't1-flake8', run: 'npm run lint', timeout: 120 }] };\n",
      },
    },
    (repo) => {
      repo.write('src/calc.py', `${CALC}\n\ndef mul(a, b):\n    return a * b\n`);
      repo.commit('a change');
      assert.match(repo.cli(['run', '--dry-run', '--base', 'HEAD~1']).out, 'runner: flake8 (a check (flake8)');
      const r = repo.push();
      assert.is.not(r.code, 0, r.out);
      assert.match(r.stderr, 't1-flake8 error in');
      assert.match(r.stderr, 'this python cannot import flake8, so flake8 did not run (install flake8 for that python');
      assert.match(r.stderr, 'A Python module it needs, flake8, is not there');
      assert.not.match(r.stderr, 'caught');
      const row = repo.ledger().at(-1)!;
      assert.is(row.verdict, 'error');
      assert.is(row.error_cause, 'harness');
    },
  ));

test.run();
