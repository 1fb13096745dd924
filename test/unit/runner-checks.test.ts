/**
 * Linters, formatters and type checkers as runners: their real output (eslint 10.16, prettier 3.10,
 * biome 2.6, flake8 5.0, kept in test/fixtures/checks/; ruff's from its documented formats, no ruff
 * here) read by their records. A finding is `caught` quoting the first one; a missing or broken config
 * is an `error` quoting the tool.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runnerCaught } from '../../src/config/runner-names.js';
import { detectRunner } from '../../src/runners/detect.js';
import { classify } from '../../src/verdict/verdict.js';
import type { RunnerName } from '../../src/types.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/checks/${name}.txt`, import.meta.url), 'utf8');

/** As a tier that lists no `caught` judges it: the check's own codes (go vet's 1 and 2), else [1]. */
const judged = (runner: RunnerName, code: number, tail: string) =>
  classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, runnerCaught(runner) ?? [1], 30, {
    runner,
    output: { detection: { runner, words: [runner], managers: [] } },
  });

const RUFF_CONCISE = 'bad.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n';
const RUFF_FULL =
  'F401 [*] `os` imported but unused\n --> bad.py:1:8\n  |\n1 | import os\n  |        ^^\n  |\nhelp: Remove unused import: `os`\n\nFound 1 error.\n';
const RUFF_FAILED = 'ruff failed\n  Cause: Failed to parse /repo/pyproject.toml\n  Cause: TOML parse error at line 2, column 1\n';

const cases: [string, RunnerName, number, string, 'caught' | 'error', string][] = [
  [
    'eslint: a rule finds a problem',
    'eslint',
    1,
    fixture('eslint-finding'),
    'caught',
    "eslint: `✖ 1 problem (1 error, 0 warnings)`, the first: `/repo/a.js:2:7 no-unused-vars: 'unused' is assigned a value but never used`",
  ],
  [
    'eslint: no eslint.config',
    'eslint',
    2,
    fixture('eslint-no-config'),
    'error',
    "exit 2: eslint could not lint the code, so nothing was checked: `ESLint couldn't find an eslint.config.* file.`; fix its config (eslint.config.*, and what it imports) or the tier's command, then push again",
  ],
  [
    'eslint: a syntax error in eslint.config.mjs',
    'eslint',
    2,
    fixture('eslint-config-syntax'),
    'error',
    "exit 2: eslint could not lint the code, so nothing was checked: `SyntaxError: Unexpected end of input`; fix its config (eslint.config.*, and what it imports) or the tier's command, then push again",
  ],
  [
    'prettier --check: a file not formatted',
    'prettier',
    1,
    fixture('prettier-finding'),
    'caught',
    'prettier: `bad.js` is not formatted (`[warn] Code style issues found in the above file. Run Prettier with --write to fix.`)',
  ],
  [
    'prettier: a config that does not parse',
    'prettier',
    2,
    fixture('prettier-config'),
    'error',
    'exit 2: prettier could not check the formatting: `[error] Invalid configuration for file "/repo/ok.js":`; fix the file or config it names, or the tier\'s command, then push again',
  ],
  [
    'biome lint: a rule finds an error',
    'biome',
    1,
    fixture('biome-finding'),
    'caught',
    'biome: `bad.js:1:5 lint/correctness/noUnusedVariables: This variable unused is unused.`',
  ],
  [
    'biome: a biome.json that does not parse',
    'biome',
    1,
    fixture('biome-config'),
    'error',
    "exit 1: biome could not check the code as configured: `/repo/biome.json:2:1 parse: Expected an array, an object, or a literal but instead found the end of the file.`; fix its config (biome.json) or the tier's command, then push again",
  ],
  [
    'flake8: a finding',
    'flake8',
    1,
    fixture('flake8-finding'),
    'caught',
    "flake8: 1 finding, the first: `bad.py:1:1: F401 'os' imported but unused`",
  ],
  [
    'flake8: a config value it cannot read (a traceback)',
    'flake8',
    1,
    fixture('flake8-config'),
    'error',
    "exit 1: flake8 could not check the code: `ValueError: invalid literal for int() with base 10: 'abc'`; fix its config ([flake8] in setup.cfg, tox.ini or .flake8) or the tier's command, then push again",
  ],
  ['ruff check: a finding (concise)', 'ruff', 1, RUFF_CONCISE, 'caught', 'ruff: `bad.py:1:8: F401 [*] `os` imported but unused`'],
  ['ruff check: a finding (full)', 'ruff', 1, RUFF_FULL, 'caught', 'ruff: `bad.py:1:8: F401 `os` imported but unused`'],
  [
    'ruff: a pyproject.toml that does not parse',
    'ruff',
    2,
    RUFF_FAILED,
    'error',
    "exit 2: ruff could not check the code: `Cause: Failed to parse /repo/pyproject.toml`; fix its config ([tool.ruff] in pyproject.toml, or ruff.toml) or the tier's command, then push again",
  ],
  // go vet (go 1.19): exit 2 for its findings and for code that does not compile, which is no finding.
  [
    'go vet: findings in two packages',
    'govet',
    2,
    fixture('govet-finding'),
    'caught',
    'govet: 2 findings, the first: `util/util.go:5:15: fmt.Printf format %s has arg 3 of wrong type int`',
  ],
  [
    'go vet: code that does not compile',
    'govet',
    2,
    fixture('govet-compile'),
    'error',
    'exit 2: a compile error, which govet cannot check past: `bad/bad.go:3:35: invalid operation: s + 1 (mismatched types string and untyped int)`; fix the code so that it builds, then push again',
  ],
  [
    'go vet: a bad flag',
    'govet',
    2,
    fixture('govet-usage'),
    'error',
    "exit 2: govet could not check the code: `flag provided but not defined: -badflag`; fix the tier's command, then push again",
  ],
  [
    'go vet: an import cycle',
    'govet',
    1,
    'package example.com/m/a\n\timports example.com/m/b\n\timports example.com/m/a: import cycle not allowed\n',
    'error',
    "exit 1: govet could not check the code: `imports example.com/m/a: import cycle not allowed`; fix what it names (an import cycle, a missing module, a pattern that matches no package) or the tier's command, then push again",
  ],
];

for (const [title, runner, code, tail, verdict, reason] of cases) {
  test(title, () => {
    assert.equal(judged(runner, code, tail), { verdict, reason, ...(verdict === 'caught' && { proven: true }) });
  });
}

test('a clean run of a check is a pass', () => {
  for (const r of ['eslint', 'prettier', 'biome', 'ruff', 'flake8', 'govet'] as const)
    assert.equal(judged(r, 0, ''), { verdict: 'pass' }, r);
});

const scripts = { lint: 'eslint .', format: 'prettier --check .', fix: 'prettier --write .', both: 'eslint . && jest' };
const detections: [string, RunnerName | undefined][] = [
  ['eslint .', 'eslint'],
  ['npx eslint src', 'eslint'],
  ['npm run lint', 'eslint'],
  ['npm run format', 'prettier'],
  ['npm run fix', undefined],
  ['biome check .', 'biome'],
  ['npx @biomejs/biome lint src', 'biome'],
  ['flake8 src', 'flake8'],
  ['go vet ./...', 'govet'],
  ['go build ./...', undefined],
  ['go test ./...', 'go'],
  ['ruff check .', 'ruff'],
  ['ruff format --check .', 'ruff'],
  ['npm run both', 'jest'],
  ['eslint . && prettier --check .', undefined],
  ['jest --env jasmine', 'jest'],
  // A check run as a Python module is that check; a module that is none is no runner.
  ['python3 -m flake8 src', 'flake8'],
  ['python -m ruff check .', 'ruff'],
  ['uv run python -m ruff format --check .', 'ruff'],
  ['python -m ruff format .', undefined],
  ['python3 -m mypy src', undefined],
];
for (const [command, runner] of detections) {
  test(`detected: ${command}`, () => assert.is(detectRunner(command, undefined, () => scripts).runner, runner));
}

/** A tier's command detected as a run detects it, its output read with that detection. */
const judgedCommand = (command: string, code: number, tail: string) => {
  const detection = detectRunner(command, undefined, () => ({
    lint: 'python3 -m flake8 src',
    types: 'python3 -m mypy src',
    spec: 'python3 -m ruff.x check',
  }));
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    ...(detection.runner && { runner: detection.runner }),
    output: { detection },
  });
};

test('python -m X where that python has no X (real output through npm): an error of the harness naming X, for any X, never a finding', () => {
  const flake8 = judgedCommand('npm run lint', 1, fixture('flake8-no-module'));
  assert.equal(flake8, {
    verdict: 'error',
    reason:
      "this python cannot import flake8, so flake8 did not run (install flake8 for that python, or push where the project's virtualenv that has it is active): `/root/.pyenv/versions/3.11.7/bin/python3: No module named flake8`",
    inapplicable: true,
    notFound: 'flake8',
  });
  assert.is(judgedCommand('python3 -m flake8 src', 1, fixture('flake8-no-module')).verdict, 'error');
  const mypy = judgedCommand('npm run types', 1, fixture('mypy-no-module'));
  assert.is(mypy.verdict, 'error');
  assert.match(mypy.reason ?? '', 'this python cannot import mypy, so mypy did not run (install mypy for that python');
  // A dotted module whose package is missing: the package is the one to install.
  const spec = judgedCommand('npm run spec', 1, fixture('ruff-no-package'));
  assert.match(spec.reason ?? '', 'this python cannot import ruff.x, so ruff.x did not run (install ruff for that python');
  // The same words from a module the command does not run (a script's own output) are no such error.
  assert.equal(judgedCommand('flake8 src', 1, fixture('mypy-no-module')).verdict, 'error');
  assert.not.match(judgedCommand('flake8 src', 1, fixture('mypy-no-module')).reason ?? '', 'cannot import');
});

test.run();
