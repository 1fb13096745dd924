/**
 * tox and nox exit 1 whatever failed: a test, a test module that cannot import, no tests collected, or
 * the environment itself. Each is judged by the command they say failed, read with its runner and its
 * own exit code. tox 3.28's outputs (Debian's tox, running Debian's pytest 7.2) are kept whole in
 * test/fixtures/runners/tox/; tox 4's and nox's lines are their printed formats. Before, every failure
 * of `tox` was judged by its exit 1 alone: `caught`, even for a module that cannot import, no tests or
 * a dependency pip could not install.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectRunner } from '../../src/runners/detect.js';
import { envToolFailure } from '../../src/runners/env-tools.js';
import { classify } from '../../src/verdict/verdict.js';
import { errorFault } from '../../src/verdict/fault.js';
import { failedTestsOf } from '../../src/verdict/runner-output.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/tox');

function judge(command: string, code: number, tail: string, allowNoTests = false) {
  const detection = detectRunner(command, undefined, () => null);
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    ...(detection.runner && { runner: detection.runner }),
    output: { detection, allowNoTests, runnerOf: (c) => detectRunner(c, undefined, () => null).runner },
  });
}

const PYTEST = 'tox ran `/x/.tox/py/bin/python -m pytest -q -p no:cacheprovider tests';
// [fixture, exit code, verdict, reason fragment ('' for a pass without a reason)]
const TOX: [string, number, 'pass' | 'caught' | 'error', string][] = [
  ['pass', 0, 'pass', ''],
  ['caught', 1, 'caught', `${PYTEST}\` (exit 1): pytest: \`1 failed, 2 passed in 0.02s\``],
  [
    'import',
    1,
    'error',
    `${PYTEST}\` (exit 2): pytest could not collect the tests (tests/test_imp.py): \`ModuleNotFoundError: No module named 'nope'\``,
  ],
  ['zero', 1, 'error', `${PYTEST} -k zzz\` (exit 5): no tests ran (exit 5: pytest collected no tests): \`2 deselected in 0.00s\``],
  ['deps', 1, 'error', 'tox could not make the test environment, so no test ran: `ERROR: could not install deps [nonexistent-pkg-zz==1.0]'],
  [
    'no-python',
    1,
    'error',
    'tox could not make the test environment, so no test ran: `ERROR: InterpreterNotFound: python3.99`; run `tox` to see why',
  ],
];

for (const [name, code, verdict, reason] of TOX) {
  test(`tox 3: ${name} (exit ${code}) is ${verdict}`, () => {
    const c = judge('tox', code, readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8'));
    assert.is(c.verdict, verdict, c.reason);
    if (reason === '') assert.is(c.reason, undefined);
    else assert.ok((c.reason ?? '').includes(reason), `reason: ${c.reason}`);
    if (verdict === 'caught') assert.is(c.proven, true);
  });
}

test('tox 3: no tests with allowNoTests is a pass that says so', () => {
  const c = judge('tox -- -k zzz', 1, readFileSync(resolve(FIXTURES, 'zero.txt'), 'utf8'), true);
  assert.is(c.verdict, 'pass', c.reason);
  assert.match(c.reason ?? '', 'allowed by `allowNoTests`');
});

// [lines, what envToolFailure reads]
const LINES: [string, ReturnType<typeof envToolFailure>][] = [
  // tox 4: `ENV: exit CODE (T seconds) DIR> COMMAND pid=N`, then `ENV: FAIL code CODE (...)`.
  [
    '1 failed, 2 passed in 0.04s\npy311: exit 1 (0.29 seconds) /p> pytest pid=935973\n  py311: FAIL code 1 (0.32=setup[0.03]+cmd[0.29] seconds)',
    { command: 'pytest', code: 1 },
  ],
  ['py: exit 5 (0.10 seconds) /p> python -m pytest -q tests pid=12\n  py: FAIL code 5', { command: 'python -m pytest -q tests', code: 5 }],
  [
    'format: exit 1 (0.32 seconds) /p> poetry install --only format --no-root pid=2877',
    { setup: 'format: exit 1 (0.32 seconds) /p> poetry install --only format --no-root pid=2877' },
  ],
  [
    'py: exit 1 (1.20 seconds) /p> python -I -m pip install nope pid=7',
    { setup: 'py: exit 1 (1.20 seconds) /p> python -I -m pip install nope pid=7' },
  ],
  [
    'py39: skipped because could not find python interpreter with spec(s): py39',
    { setup: 'py39: skipped because could not find python interpreter with spec(s): py39' },
  ],
  // nox: `nox > Command COMMAND failed with exit code CODE` (a colon after it when the output was silenced).
  [
    'no tests ran in 0.01s\nnox > Command pytest -q failed with exit code 5\nnox > Session tests-3.14 failed.',
    { command: 'pytest -q', code: 5 },
  ],
  [
    'nox > Command python -m pip install . failed with exit code 1:',
    { setup: 'nox > Command python -m pip install . failed with exit code 1:' },
  ],
  [
    'nox > Command /usr/bin/uv venv -p python3.7 /p/.nox/t failed with exit code 1:',
    { setup: 'nox > Command /usr/bin/uv venv -p python3.7 /p/.nox/t failed with exit code 1:' },
  ],
  [
    'nox > Session tests-3.99 skipped: Python interpreter 3.99 not found.',
    { setup: 'nox > Session tests-3.99 skipped: Python interpreter 3.99 not found.' },
  ],
  ['2 passed in 0.01s\n  py: commands succeeded', undefined],
];

test('envToolFailure: the command tox or nox says failed and its code, or the environment that could not be made', () => {
  for (const [text, want] of LINES) assert.equal(envToolFailure(text.split('\n')), want, text);
});

test('tox 4 and nox: the failed command is read with its runner', () => {
  const tox4 = judge(
    'tox',
    1,
    '\nERROR tests/test_a.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.09s\npy: exit 2 (0.30 seconds) /p> pytest tests pid=9\n  py: FAIL code 2 (0.31 seconds)\n  evaluation failed :( (0.40 seconds)\n',
  );
  assert.is(tox4.verdict, 'error', tox4.reason);
  assert.match(tox4.reason ?? '', 'tox ran `pytest tests` (exit 2): pytest could not collect the tests');
  const nox = judge(
    'nox -s tests',
    1,
    'F.\n1 failed, 1 passed in 0.02s\nnox > Command pytest failed with exit code 1\nnox > Session tests failed.\n',
  );
  assert.is(nox.verdict, 'caught', nox.reason);
  assert.match(nox.reason ?? '', 'nox ran `pytest` (exit 1): pytest: `1 failed, 1 passed in 0.02s`');
  // A failure that names no command and no failing test: no catch.
  const bare = judge('tox', 1, 'something broke\n');
  assert.is(bare.verdict, 'error');
  assert.match(bare.reason ?? '', 'exit 1: tox failed and its output names no command that failed nor a test failing');
  // A script tox runs that names no runner: its own exit code decides, as for any script.
  assert.is(judge('tox', 1, 'ERROR: InvocationError for command /p/bin/python run_tests.py (exited with code 1)\n').verdict, 'caught');
});

test('a wrapper the shell cannot find is an error naming it and what to do, never a catch', () => {
  for (const [cmd, tail] of [
    ['uv run pytest -q', '/bin/sh: 1: uv: not found\n'],
    ['poetry run python -m unittest', 'sh: 1: poetry: not found\n'],
    ['tox', 'sh: 1: tox: not found\n'],
  ] as const) {
    const c = judge(cmd, 127, tail);
    assert.is(c.verdict, 'error', cmd);
    assert.is(c.inapplicable, true, cmd);
    assert.match(c.reason ?? '', `command not found: ${cmd.split(' ')[0]}: \``);
    assert.match(c.reason ?? '', 'install it (or fix its name in the tier), or push from a shell whose PATH has it');
  }
});

test('tox: an environment that could not be made cannot apply here; a failed summary with no failed command named is a proven catch', () => {
  const deps = judge('tox', 1, readFileSync(resolve(FIXTURES, 'deps.txt'), 'utf8'));
  assert.is(deps.verdict, 'error');
  assert.is(deps.inapplicable, true);
  const tail =
    'py: commands[0]> pytest\nFAILED tests/test_a.py::test_a - assert 1 == 2\n=========== 1 failed, 2 passed in 0.12s ===========\n';
  assert.equal(judge('tox', 1, tail), { verdict: 'caught', reason: 'pytest: `1 failed, 2 passed in 0.12s`', proven: true });
});

test('tox 4: a failed command that runs a package script is judged by its own exit code, its package.json not read', () => {
  const tail =
    'npm error Lifecycle script `test` failed with error:\npy: exit 1 (0.41 seconds) /p> npm test pid=9\n  py: FAIL code 1 (0.43 seconds)\n';
  assert.equal(judge('tox', 1, tail), { verdict: 'caught', reason: 'tox ran `npm test` (exit 1)' });
  assert.equal(judge('tox', 1, tail.replaceAll('exit 1 (', 'exit 3 (').replace('FAIL code 1', 'FAIL code 3')), {
    verdict: 'error',
    reason:
      "tox ran `npm test` (exit 3): exit 3, which this tier does not count as a test failure; if exit 3 means a test failed, add it to the tier's `caught`, or set the tier's `runner` so its output is read",
  });
});

test("tox and nox: a catch says which runner read it, and that runner's reader names the failed tests from the run's output", () => {
  const tail = readFileSync(resolve(FIXTURES, 'caught.txt'), 'utf8');
  const c = judge('tox', 1, tail);
  assert.is(c.runner, 'pytest');
  assert.equal(
    failedTestsOf(c.runner!, tail, { root: '/x', base: '.' }).map((f) => [f.id, f.file, f.line, f.message]),
    [['tests/test_bad.py::test_bad', 'tests/test_bad.py', 2, 'assert 1 == 2']],
  );
  const nox = judge('nox', 1, 'F.\n1 failed, 1 passed in 0.02s\nnox > Command python -m unittest failed with exit code 1\n');
  assert.is(nox.runner, 'unittest');
  // A tier that names its runner keeps it: nothing to add.
  const named = classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    runner: 'pytest',
    output: { detection: { ...detectRunner('tox', 'pytest', () => null) } },
  });
  assert.is(named.verdict, 'caught');
});

test("tox: a config tox cannot read (real tox 3.28 output) is an error naming its file, the patch's when the push changed tox.ini", () => {
  const cases: [string, string][] = [
    ['config', "`tox.exception.ConfigError: ConfigError: skipsdist: boolean value 'true\\n[testenv' needs to be 'True' or 'False'`"],
    ['config-parse', "`py._vendored_packages.iniconfig.ParseError: /x/tox.ini:1: unexpected line: 'garbage'`"],
    // A `setenv` line without `=`: tox crashes reading it, and says so as a ConfigError.
    [
      'config-crash',
      '`tox.exception.ConfigError: ConfigError: python failed with not enough values to unpack (expected 2, got 1) at Traceback (most recent call last):`',
    ],
  ];
  for (const [name, quoted] of cases) {
    const tail = readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');
    const c = judge('tox -q', 1, tail);
    assert.is(c.verdict, 'error', name);
    assert.is(
      c.reason,
      `tox could not read its config (tox.ini, or its section of setup.cfg or pyproject.toml), so no test ran: ${quoted}; fix the config, or run \`tox\` to see why`,
      name,
    );
    const fault = (changed: string[]) => errorFault({ reason: c.reason!, output: tail, changed, exited: true });
    // iniconfig names the line (`tox.ini:1:`); tox's own ConfigError does not.
    assert.equal(fault(['tox.ini']), { cause: 'patch', file: 'tox.ini', ...(name === 'config-parse' && { line: 1 }) }, name);
    assert.equal(fault(['src/calc.py']), { cause: 'harness' }, name);
  }
  // nox's output is not read for tox's words.
  assert.not.match(judge('nox', 1, readFileSync(resolve(FIXTURES, 'config.txt'), 'utf8')).reason ?? '', 'could not read its config');
});

test.run();
