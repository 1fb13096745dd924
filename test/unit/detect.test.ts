import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectRunner, shellCommands, shellSegments } from '../../src/runners/detect.js';
import { makeDryRun } from '../../src/runners/detect-io.js';
import type { Scripts } from '../../src/runners/detect.js';

const SCRIPTS: Scripts = {
  test: 'npm run build && npm run test:unit',
  build: 'tsc -p .',
  'test:unit': 'vitest run --coverage',
  'test:e2e': 'playwright test',
  both: 'jest && playwright test',
  legacy: 'tape test/*.js',
  py: 'python3 -m pytest -q',
  deep: 'npm run deeper',
  deeper: 'npm run deepest',
  deepest: 'npm test',
};

// [command, scripts, configured runner, runner, why fragment]
const cases: [string | string[], Scripts | undefined, string | undefined, string | undefined, string][] = [
  ['vitest run', undefined, undefined, 'vitest', 'the command runs `vitest run`'],
  ['npx jest --ci', undefined, undefined, 'jest', 'runs `npx jest --ci`'],
  ['CI=1 ./node_modules/.bin/mocha test', undefined, undefined, 'mocha', 'mocha'],
  ['node node_modules/uvu/bin.js tests', undefined, undefined, 'uvu', 'uvu'],
  ['node --test test/', undefined, undefined, 'node', 'node --test test/'],
  ['node --test-reporter=junit --test', undefined, undefined, 'node', 'node'],
  ['python -m pytest -q', undefined, undefined, 'pytest', 'pytest'],
  ['uv run pytest tests', undefined, undefined, 'pytest', 'pytest'],
  [['pytest', '-q', 'tests dir'], undefined, undefined, 'pytest', 'pytest -q tests dir'],
  ['go test ./...', undefined, undefined, 'go', 'go test'],
  ['python3 -m unittest', undefined, undefined, 'unittest', 'the command runs `python3 -m unittest`'],
  ['python -m unittest discover -s tests', undefined, undefined, 'unittest', 'unittest discover'],
  ['python3.12 -munittest -v', undefined, undefined, 'unittest', 'unittest'],
  ['python -X dev -W error -m unittest', undefined, undefined, 'unittest', 'unittest'],
  ['coverage run -m unittest discover', undefined, undefined, 'unittest', 'coverage run'],
  ['python -m coverage run --rcfile .coveragerc -m unittest', undefined, undefined, 'unittest', 'coverage run'],
  ['uv run python -m unittest', undefined, undefined, 'unittest', 'unittest'],
  // Debian's names for pytest; hatch's own test command runs pytest (before: no runner, judged by exit code).
  ['pytest-3 -q', undefined, undefined, 'pytest', 'pytest-3'],
  ['hatch test -- -x', undefined, undefined, 'pytest', 'hatch test'],
  ['hatch run test', undefined, undefined, undefined, 'no known test runner'],
  // tox and nox print the command that failed and its code: read from the output (runners/env-tools.ts).
  ['tox -e py311', undefined, undefined, undefined, 'tox runs the tests: the command it says failed is read with its runner'],
  ['nox -s tests', undefined, undefined, undefined, 'nox runs the tests'],
  ['python -W error -m pytest -q', undefined, undefined, 'pytest', 'pytest'],
  ['python manage.py test', undefined, undefined, 'unittest', 'manage.py test'],
  ['python -c "import unittest"', undefined, undefined, undefined, 'no known test runner'],
  ['cargo test --workspace', undefined, undefined, 'cargo', 'cargo test'],
  ['cargo nextest run', undefined, undefined, 'nextest', 'nextest'],
  ['npx playwright test', undefined, undefined, 'playwright', 'playwright test'],
  ['npm test', SCRIPTS, undefined, 'vitest', 'npm script "test:unit" runs `vitest run --coverage`'],
  ['npm t', SCRIPTS, undefined, 'vitest', 'vitest'],
  ['npm run -s test:e2e', SCRIPTS, undefined, 'playwright', 'npm script "test:e2e"'],
  ['pnpm test:unit', SCRIPTS, undefined, 'vitest', 'pnpm script "test:unit"'],
  ['pnpm run test:unit', SCRIPTS, undefined, 'vitest', 'vitest'],
  ['yarn test:unit', SCRIPTS, undefined, 'vitest', 'yarn script'],
  ['yarn jest', SCRIPTS, undefined, 'jest', 'runs `jest`'],
  ['bun run py', SCRIPTS, undefined, 'pytest', 'bun script "py"'],
  // bun runs a script by its bare name, as pnpm and yarn do; `bun test` is bun's own runner.
  ['bun py', SCRIPTS, undefined, 'pytest', 'bun script "py"'],
  ['bun test', { test: 'jest' }, undefined, undefined, 'no known test runner'],
  ['bun x jest', undefined, undefined, 'jest', 'runs `jest`'],
  ['npm run both', SCRIPTS, undefined, undefined, 'several runners (jest, playwright)'],
  ['npm run legacy', SCRIPTS, undefined, 'tape', 'npm script "legacy" runs `tape test/*.js`'],
  ['npm run deep', SCRIPTS, undefined, undefined, 'no known test runner'],
  ['make test', undefined, undefined, undefined, 'no known test runner in the command: judged by exit code'],
  ['npm run test:quick', SCRIPTS, undefined, undefined, 'package.json has no script "test:quick"'],
  ['npm test', null, undefined, undefined, 'no package.json'],
  ['npm test', SCRIPTS, 'jest', 'jest', "`runner: 'jest'` in the config"],
  ['ava --verbose', undefined, undefined, 'ava', 'the command runs `ava --verbose`'],
  ['npx ava test/', undefined, undefined, 'ava', 'ava'],
  ['node node_modules/ava/entrypoints/cli.mjs', undefined, undefined, 'ava', 'ava'],
  ['jasmine --config=spec/support/jasmine.json', undefined, undefined, 'jasmine', 'jasmine'],
  ['node ./node_modules/jasmine/bin/jasmine.js', undefined, undefined, 'jasmine', 'jasmine'],
  ['tap --disable-coverage', undefined, undefined, 'tap', 'tap --disable-coverage'],
  ['c8 tap test/*.js', undefined, undefined, 'tap', 'tap'],
  // A wrapper's option written apart from its value: the value is not the command.
  ['c8 -r lcov ava', undefined, undefined, 'ava', 'the command runs `c8 -r lcov ava`'],
  ['nyc --lines 90 -r text mocha test', undefined, undefined, 'mocha', 'mocha'],
  ['nice -n 5 jest', undefined, undefined, 'jest', 'jest'],
  ['env -u CI vitest run', undefined, undefined, 'vitest', 'vitest'],
  // tsx passes node's flags on; borp runs node's test runner with node's reporters.
  ['tsx --test test/*.ts', undefined, undefined, 'node', 'tsx --test'],
  ['borp --coverage', undefined, undefined, 'node', 'borp'],
  ['./node_modules/.bin/tap', undefined, undefined, 'tap', 'tap'],
  ['node node_modules/tap/dist/esm/run.mjs', undefined, undefined, 'tap', 'tap'],
  ['npm test', { test: 'cross-env CI=1 ava' }, undefined, 'ava', 'npm script "test" runs `cross-env CI=1 ava`'],
  ['yarn test', { test: 'tap' }, undefined, 'tap', 'yarn script "test"'],
  // As arguments the same words name a reporter, an environment or a plugin, not the runner (eslint is the check it runs).
  ['eslint --env jasmine .', undefined, undefined, 'eslint', 'a check (eslint)'],
  ['some-linter --format tap', undefined, undefined, undefined, 'no known test runner'],
  ['eslint --plugin ava .', undefined, undefined, 'eslint', 'a check (eslint)'],
  ['mocha --reporter tap', undefined, undefined, 'mocha', 'mocha'],
  ['node --test --test-reporter tap', undefined, undefined, 'node', 'node'],
  // tape: as the command, by its bin's path, under nyc or c8, through ljharb's `npm test` → `npm run tests-only` chain, and piped into a TAP reporter.
  ['tape test/*.js', undefined, undefined, 'tape', 'the command runs `tape test/*.js`'],
  ['node node_modules/tape/bin/tape test/a.js', undefined, undefined, 'tape', 'tape'],
  ['./node_modules/.bin/tape -r @babel/register test/*.js', undefined, undefined, 'tape', 'tape'],
  ["nyc tape 'test/**/*.js'", undefined, undefined, 'tape', 'the command runs `nyc tape test/**/*.js`'],
  ['c8 --reporter text tape test', undefined, undefined, 'tape', 'tape'],
  [
    'npm test',
    { test: 'npm run tests-only', 'tests-only': "nyc tape 'test/**/*.js'" },
    undefined,
    'tape',
    'npm script "tests-only" runs `nyc tape test/**/*.js`',
  ],
  ['tape test/*.js | tap-spec', undefined, undefined, 'tape', 'tape'],
  // Not tape: another tool of its family, and the word as an argument.
  ['browserify test/a.js | tape-run', undefined, undefined, undefined, 'no known test runner'],
  ['some-tool --harness tape', undefined, undefined, undefined, 'no known test runner'],
];

for (const [run, scripts, configured, runner, why] of cases) {
  test(`detect: ${JSON.stringify(run)}${scripts === null ? ' (no package.json)' : ''}`, () => {
    const d = detectRunner(run, configured as never, () => (scripts === undefined ? {} : scripts));
    assert.is(d.runner, runner, d.why);
    assert.ok(d.why.includes(why), `why: ${d.why}`);
  });
}

test("npm's pre and post scripts run around a script: what they run is beside the runner; a TAP reporter the output is piped into is not", () => {
  const scripts = {
    pretest: 'npm run lint',
    lint: 'eslint .',
    test: 'npm run tests-only',
    'tests-only': "nyc tape 'test/**/*.js' | tap-spec",
    posttest: 'aud --production',
  };
  const d = detectRunner('npm test', undefined, () => scripts);
  assert.is(d.runner, 'tape', d.why);
  assert.equal(d.besides, ['eslint .', 'aud --production']);
  // The pre and post scripts of a script npm runs itself, not of one it only names; pnpm does not run them.
  assert.equal(detectRunner('npm run tests-only', undefined, () => scripts).besides, undefined);
  assert.equal(detectRunner('pnpm test', undefined, () => scripts).besides, undefined);
  assert.equal(detectRunner('npm test --ignore-scripts', undefined, () => scripts).besides, undefined);
  // A runner in a pre script is a runner of the tier too.
  assert.is(detectRunner('npm test', undefined, () => ({ pretest: 'jest', test: 'mocha' })).runner, undefined);
});

test('package.json is read only when a package manager is named', () => {
  let reads = 0;
  detectRunner('vitest run && node x.js', undefined, () => {
    reads++;
    return {};
  });
  assert.is(reads, 0);
  detectRunner('npm test && npm run build', undefined, () => {
    reads++;
    return { test: 'jest' };
  });
  assert.is(reads, 1, 'read once per detection');
});

test('a missing script, no package.json, and the words a shell "not found" may name', () => {
  const d = detectRunner('npm run test:quick', undefined, () => SCRIPTS);
  assert.is(d.missingScript, 'test:quick');
  assert.equal(d.managers, ['npm']);
  const legacy = detectRunner('npm run legacy', undefined, () => SCRIPTS);
  assert.ok(legacy.words.includes('tape'));
  assert.is(legacy.missingScript, undefined);
  assert.equal(legacy.managers, ['npm']);
  assert.is(detectRunner('npm test', undefined, () => null).noPackageJson, true);
  // pnpm and yarn run a binary when no script has the name: not a missing script.
  assert.is(detectRunner('pnpm vitest', undefined, () => ({})).runner, 'vitest');
  assert.is(detectRunner('pnpm vitest', undefined, () => ({})).missingScript, undefined);
  assert.is(detectRunner('yarn run nope', undefined, () => ({})).missingScript, 'nope');
  assert.equal(detectRunner('npx whatever', undefined, () => ({})).managers, ['npm']);
  // A wrapper the shell cannot find (`uv run pytest` without uv) is the command's own word too.
  for (const w of ['uv', 'poetry', 'pipenv', 'hatch'])
    assert.ok(detectRunner(`${w} run pytest`, undefined, () => null).words.includes(w), w);
  assert.is(detectRunner('tox -e py', undefined, () => null).envTool, 'tox');
  assert.is(detectRunner('cd py && nox', undefined, () => null).envTool, 'nox');
  assert.is(detectRunner('pytest', undefined, () => null).envTool, undefined);
});

test('control characters of a script are escaped in the reason', () => {
  const d = detectRunner('npm test', undefined, () => ({ test: 'jest \x1b[31mred' }));
  assert.ok(d.why.includes('\\x1b[31mred'), d.why);
});

test("npm init's placeholder test script, through any script that runs it", () => {
  const placeholder = { test: 'echo "Error: no test specified" && exit 1', ci: 'npm test' };
  for (const cmd of ['npm test', 'npm run ci', 'yarn test', 'pnpm test']) {
    const d = detectRunner(cmd, undefined, () => placeholder);
    assert.is(d.placeholderScript, 'test', cmd);
    assert.is(d.runner, undefined);
    assert.match(d.why, "is npm init's placeholder");
  }
  assert.is(detectRunner('npm test', undefined, () => ({ test: "echo 'Error: no test specified' && exit 1" })).placeholderScript, 'test');
  assert.is(
    detectRunner('npm test', undefined, () => ({ test: 'echo "Error: no test specified" && exit 1 || jest' })).placeholderScript,
    undefined,
  );
  assert.is(detectRunner('npm test', undefined, () => ({ test: 'jest' })).placeholderScript, undefined);
});

test('shellCommands: each command with its text as written and the operator after it; an operator in quotes splits nothing', () => {
  assert.equal(
    shellCommands(`jest -t "a && b"&&tsc 'x;y' || (z)`).map((c) => [c.words, c.text, c.then]),
    [
      [['jest', '-t', 'a && b'], 'jest -t "a && b"', '&&'],
      [['tsc', 'x;y'], 'tsc "x;y"', '||'],
      [[], '', '('],
      [['z'], 'z', ')'],
      [[], '', ''],
    ],
  );
});

test('shellSegments: operators, quotes, escapes', () => {
  assert.equal(shellSegments(`a "b c" 'd' && e|f; g\\ h || (i)`), [['a', 'b c', 'd'], ['e'], ['f'], ['g h'], ['i']]);
});

test('shell words as a shell reads them: redirections are no command, escaped quotes stay in their word, comments end the line', () => {
  assert.equal(shellSegments('jest 2>&1 | tee out.log'), [['jest'], ['tee', 'out.log']]);
  assert.equal(shellSegments('echo "say \\"hi\\"" && mocha'), [['echo', 'say "hi"'], ['mocha']]);
  assert.equal(shellSegments('vitest run > out.txt 2> err.txt < /dev/null # all of it'), [['vitest', 'run']]);
  assert.equal(shellSegments('a\nb \\\n  c'), [['a'], ['b', 'c']]);
  assert.is(detectRunner('jest 2>&1 | tee out.log', undefined, () => null).runner, 'jest');
  assert.equal(detectRunner('jest 2>&1 | tee out.log', undefined, () => null).besides, ['tee out.log']);
  assert.is(detectRunner('echo "say \\"hi\\"" && mocha', undefined, () => null).runner, 'mocha');
  assert.is(detectRunner('npm test', undefined, () => ({ test: 'echo "say \\"hi\\"" && mocha' })).runner, 'mocha');
});

test('commands beside the runner are named (what may fail when the tests pass); harmless ones are not', () => {
  const scripts = { test: 'node --test && npm run check:type:ts', 'check:type:ts': 'tsd && tsc -p tsconfig.ts.json' };
  const d = detectRunner('npm test', undefined, () => scripts);
  assert.is(d.runner, 'node');
  assert.equal(d.besides, ['tsd', 'tsc -p tsconfig.ts.json']);
  assert.is(detectRunner('echo start && cd app && jest', undefined, () => null).besides, undefined);
  assert.equal(detectRunner('jest; eslint \x1b[2J.', undefined, () => null).besides, ['eslint \\x1b[2J.']);
});

test('a command that only type-checks is read as one (tsc, vue-tsc, through scripts and npx); beside a runner or another tool it is not', () => {
  const scripts = { typecheck: 'tsc --noEmit', 'check:types': 'npx vue-tsc -b', both: 'tsc && eslint .', test: 'vitest run && tsc' };
  assert.is(detectRunner('npm run typecheck', undefined, () => scripts).typeCheck, 'tsc');
  assert.is(detectRunner('npm run check:types', undefined, () => scripts).typeCheck, 'vue-tsc');
  assert.is(detectRunner('tsc -p tsconfig.build.json && tsc -p test', undefined, () => null).typeCheck, 'tsc');
  assert.is(detectRunner('npm run both', undefined, () => scripts).typeCheck, undefined);
  assert.is(detectRunner('npm test', undefined, () => scripts).typeCheck, undefined);
  assert.is(detectRunner('eslint .', undefined, () => null).typeCheck, undefined);
});

const MAKEFILE = [
  'PYTHON ?= python3',
  'PYTEST = $(PYTHON) -m pytest',
  '',
  '.PHONY: all test lint check',
  'all: build',
  '',
  'build:',
  '\t@echo building',
  'test: ## run the tests',
  '\t@$(PYTEST) -q \\',
  '\t  tests',
  '',
  'lint:',
  '\t-ruff check .',
  'check: lint test',
  'sub:',
  '\t$(MAKE) -C sub test',
  'js: ; npx jest --ci',
].join('\n');

/** `makeDryRun` in a folder holding `makefile` as its Makefile (real make), or with the text on stdin. */
function madeIn<T>(makefile: string, fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'gl-make-'));
  try {
    writeFileSync(join(dir, 'Makefile'), makefile);
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('make -n says what a target runs: variables (the last definition wins, as make takes it), continued lines, prefixes, prerequisites, inline recipes', () =>
  madeIn(MAKEFILE, (dir) => {
    assert.equal(makeDryRun(dir, ['test']), { recipe: ['python3 -m pytest -q tests'] });
    assert.equal(makeDryRun(dir, ['check']), { recipe: ['ruff check .', 'python3 -m pytest -q tests'] });
    assert.equal(makeDryRun(dir, []), { recipe: ['echo building'] }, 'the default goal');
    assert.equal(makeDryRun(dir, ['-j', '4', 'js']), { recipe: ['npx jest --ci'] });
    assert.match((makeDryRun(dir, ['nope']) as { unread: string }).unread, 'No rule to make target');
    // A variable defined twice: make takes the last definition.
    assert.equal(
      makeDryRun(dir, ['test'], 'RUN = jest\nRUN = vitest run\ntest:\n\t$(RUN)\n'),
      { recipe: ['vitest run'] },
      'the text on stdin',
    );
    // Each target once, as make makes it: a prerequisite cycle (which make drops) ends.
    const cycle = ['a: b', '\t@echo a', 'b: a c', '\t@npx jest', 'c:', '\t@echo c'].join('\n');
    assert.equal(makeDryRun(dir, ['a'], cycle), { recipe: ['echo c', 'npx jest', 'echo a'] });
  }));

test('make: the runner read from what make -n prints; a make line in it is not asked again; why when make cannot say', () => {
  const asked: string[][] = [];
  const make = (recipe: string[]) => (args: readonly string[]) => {
    asked.push([...args]);
    return { recipe };
  };
  const d = detectRunner('make test', undefined, () => null, make(['python3 -m pytest -q tests']));
  assert.is(d.runner, 'pytest');
  assert.is(d.make, true);
  assert.match(d.why, '`make test` runs `python3 -m pytest -q tests`');
  assert.equal(asked, [['test']]);
  assert.equal(detectRunner('make check', undefined, () => null, make(['ruff check .', 'npx jest'])).besides, ['ruff check .']);
  // A sub-make's line, printed by make -n with the sub-make's own recipe after it: read, not run again.
  asked.length = 0;
  assert.is(detectRunner('make sub', undefined, () => null, make(['make -C sub test', 'npx vitest run'])).runner, 'vitest');
  assert.equal(asked, [['sub']]);
  const unread = detectRunner(
    'make test',
    undefined,
    () => null,
    () => ({ unread: 'make is not installed here' }),
  );
  assert.is(unread.runner, undefined);
  assert.is(unread.make, true);
  assert.match(unread.why, 'make could not say what it runs (make is not installed here): judged by exit code; set `runner` on the tier');
  assert.is(detectRunner('jest', undefined, () => null, make(['x'])).make, undefined);
});

test("Django's test command is read as unittest (its runner prints unittest's output); other manage.py commands are not", () => {
  for (const cmd of [
    'python manage.py test',
    'python3 -W error manage.py test app',
    './manage.py test --parallel 2',
    'django-admin test',
    'uv run python manage.py test',
  ]) {
    assert.is(detectRunner(cmd, undefined, () => null).runner, 'unittest', cmd);
  }
  for (const cmd of ['python manage.py migrate', 'python manage.py runserver test', 'python script.py', './manage.py check']) {
    assert.is(detectRunner(cmd, undefined, () => null).runner, undefined, cmd);
  }
});

test.run();
