/**
 * Real runners (jest, vitest, mocha, uvu, node:test, ava, jasmine, tap, tape, pytest), installed as this project's dev
 * dependencies and linked into scenario repositories, each case a tier run through the installed CLI:
 * all pass, one failing assertion, a test file that fails to import, no test files, a test file with
 * no tests, a missing npm script, a timeout; where they show something the runner does: two failures
 * beside a skipped test (mocha's exit 2), every test skipped, a test that calls process.exit(0),
 * --passWithNoTests, and npm init's placeholder test script. Every case asserts the verdict and the line the reason
 * quotes; what was observed is written to build/verdicts-matrix.json, from which
 * `npm run docs:verdicts` renders docs/verdicts.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inFastSet, nodeSensitiveOnly, nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { toolPresent } from '../helpers/system-tool.js';
import { execa } from 'execa';
import { PROJECT, cleanEnv, runnerModules, withRepo } from '../helpers/repo.js';

const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
if (!hasPytest)
  process.stderr.write('runners.test: python3 -m pytest is not available (apt-get install python3-pytest); the pytest cases will fail\n');

type Case =
  | 'pass'
  | 'caught'
  | 'import'
  | 'no-files'
  | 'zero'
  | 'no-script'
  | 'timeout'
  | 'allowed'
  | 'mixed'
  | 'skipped'
  | 'exit'
  | 'pass-no-tests'
  | 'placeholder'
  | 'config';
const CASES: readonly Case[] = [
  'pass',
  'caught',
  'import',
  'no-files',
  'zero',
  'no-script',
  'timeout',
  'allowed',
  'mixed',
  'skipped',
  'exit',
  'pass-no-tests',
  'placeholder',
  'config',
];
/** Cases a scenario runs only when it gives them files: where they show something its runner does. */
const OPTIONAL: ReadonlySet<Case> = new Set(['allowed', 'mixed', 'skipped', 'exit', 'pass-no-tests', 'config']);
/** Cases whose command runs no runner: a missing script, npm init's placeholder test script. */
const NO_RUNNER: ReadonlySet<Case> = new Set(['no-script', 'placeholder']);
const PLACEHOLDER = 'echo "Error: no test specified" && exit 1';

/** What each case must give, and the words the reason must quote (per runner where they differ). */
interface Expect {
  verdict: 'pass' | 'caught' | 'error';
  /** A fragment of the reason: the deciding line, as the runner printed it. */
  quotes?: string;
}

interface Scenario {
  /** The matrix's column: the runner, and how it reports where one runner is run two ways. */
  runner: string;
  /** The profile detected, when the column names more than the runner. */
  profile?: string;
  /** How a tier runs a case folder (`cases/<case>`). */
  run: (folder: string, c: Case) => string;
  /** Run each case in its folder (the tier's `cwd`) rather than naming the folder in the command. */
  inFolder?: boolean;
  scripts?: (folder: string, c: Case) => string;
  files: Partial<Record<Case, Record<string, string>>>;
  /** The cases a linter's column runs (a clean file, a finding, a broken config, no files): a test runner's runs them all. */
  only?: readonly Case[];
  expect: Partial<Record<Case, Expect>>;
}

const HANG_JS = 'setInterval(() => {}, 1000); await new Promise(() => {});';

const QUIET_MISSING = 'npm: missing script "no-script" (package.json here has no such script)';
const PLACEHOLDER_SAYS = 'npm: package.json\'s "placeholder" script is npm init\'s placeholder';
const SKIPPED = 'no tests ran (every test was skipped)';

const JEST: Scenario = {
  runner: 'jest',
  // Through npm scripts: the runner is read from package.json.
  run: (c) => `npm run --silent ${c}`,
  scripts: (f, c) => `jest${c === 'pass-no-tests' ? ' --passWithNoTests' : ''} ${f}`,
  files: {
    pass: { 'a.test.js': "test('adds', () => { expect(1 + 1).toBe(2); });\n" },
    skipped: { 'a.test.js': "test.skip('a', () => { expect(1).toBe(2); });\ntest.skip('b', () => {});\n" },
    exit: { 'a.test.js': "test('a', () => {});\ntest('b', () => { process.exit(0); });\ntest('c', () => { expect(1).toBe(2); });\n" },
    'pass-no-tests': { 'README.md': 'no tests here\n' },
    caught: { 'a.test.js': "test('adds', () => { expect(1 + 1).toBe(3); });\ntest('ok', () => {});\n" },
    import: { 'a.test.js': "const x = require('./nope');\ntest('adds', () => {});\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "test('hangs', () => new Promise(() => {}), 1e6);\n" },
    allowed: { 'README.md': 'no tests here\n' },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'Tests:       1 failed, 1 passed, 2 total' },
    import: { verdict: 'error', quotes: "Cannot find module './nope' from 'cases/import/a.test.js'" },
    'no-files': { verdict: 'error', quotes: 'No tests found, exiting with code 1' },
    zero: { verdict: 'error', quotes: 'Your test suite must contain at least one test.' },
    'no-script': { verdict: 'error', quotes: QUIET_MISSING },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'No tests found, exiting with code 1' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`Tests:       2 skipped, 2 total\`` },
    exit: { verdict: 'error', quotes: 'a test called process.exit, so jest stopped before its summary: `●  process.exit called with "0"`' },
    'pass-no-tests': { verdict: 'error', quotes: 'no tests ran: `No tests found, exiting with code 0`' },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const VITEST: Scenario = {
  runner: 'vitest',
  run: (f, c) => `npx vitest run${c === 'pass-no-tests' ? ' --passWithNoTests' : ''} --root ${f}`,
  files: {
    skipped: {
      'a.test.js': "import { test, expect } from 'vitest';\ntest.skip('a', () => { expect(1).toBe(2); });\ntest.skip('b', () => {});\n",
    },
    'pass-no-tests': { 'README.md': 'no tests here\n' },
    pass: { 'a.test.js': "import { test, expect } from 'vitest';\ntest('adds', () => { expect(1 + 1).toBe(2); });\n" },
    caught: {
      'a.test.js': "import { test, expect } from 'vitest';\ntest('adds', () => { expect(1 + 1).toBe(3); });\ntest('ok', () => {});\n",
    },
    import: { 'a.test.js': "import { test } from 'vitest';\nimport x from './nope.js';\ntest('adds', () => {});\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': `import { test } from 'vitest';\ntest('hangs', async () => { ${HANG_JS} }, 1e6);\n` },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'Tests  1 failed | 1 passed (2)' },
    import: { verdict: 'error', quotes: "Error: Cannot find module './nope.js'" },
    'no-files': { verdict: 'error', quotes: 'No test files found, exiting with code 1' },
    zero: { verdict: 'error', quotes: 'Error: No test suite found in file' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'No test suite found in file' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`Tests  2 skipped (2)\`` },
    'pass-no-tests': { verdict: 'error', quotes: 'no tests ran: `No test files found, exiting with code 0`' },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const MOCHA: Scenario = {
  runner: 'mocha',
  run: (c) => `npm run --silent ${c}`,
  scripts: (f) => `mocha ${f}`,
  files: {
    // Two failures: mocha exits 2, which a detected mocha (the tier's caught left at [1]) must still read as a catch.
    mixed: {
      'a.test.js':
        "const assert = require('assert');\nit('a', () => { assert.equal(1, 2); });\nit('b', () => { assert.equal(1, 3); });\nit.skip('c', () => {});\n",
    },
    skipped: { 'a.test.js': "const assert = require('assert');\nit.skip('a', () => { assert.equal(1, 2); });\nit.skip('b', () => {});\n" },
    exit: {
      'a.test.js':
        "const assert = require('assert');\nit('a', () => {});\nit('b', () => { process.exit(0); });\nit('c', () => { assert.equal(1, 2); });\n",
    },
    pass: { 'a.test.js': "const assert = require('assert');\nit('adds', () => { assert.equal(1 + 1, 2); });\n" },
    caught: { 'a.test.js': "const assert = require('assert');\nit('adds', () => { assert.equal(1 + 1, 3); });\nit('ok', () => {});\n" },
    import: { 'a.test.js': "const x = require('./nope');\nit('adds', () => {});\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "it('hangs', function () { this.timeout(0); return new Promise(() => {}); });\n" },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: '1 failing' },
    import: { verdict: 'error', quotes: "Error: Cannot find module './nope'" },
    'no-files': { verdict: 'error', quotes: 'Error: No test files found' },
    zero: { verdict: 'error', quotes: '0 passing' },
    'no-script': { verdict: 'error', quotes: QUIET_MISSING },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: '0 passing' },
    mixed: { verdict: 'caught', quotes: 'mocha: `2 failing`' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`0 passing` },
    exit: { verdict: 'error', quotes: 'exit 0 without a mocha summary' },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const UVU: Scenario = {
  runner: 'uvu',
  run: (f) => `node node_modules/uvu/bin.js ${f}`,
  files: {
    mixed: {
      'a.test.js':
        "const { test } = require('uvu');\nconst assert = require('uvu/assert');\ntest('a', () => { assert.is(1, 2); });\ntest('b', () => { assert.is(1, 3); });\ntest.skip('c', () => {});\ntest.run();\n",
    },
    skipped: { 'a.test.js': "const { test } = require('uvu');\ntest.skip('a', () => {});\ntest.skip('b', () => {});\ntest.run();\n" },
    pass: {
      'a.test.js':
        "const { test } = require('uvu');\nconst assert = require('uvu/assert');\ntest('adds', () => { assert.is(1 + 1, 2); });\ntest.run();\n",
    },
    caught: {
      'a.test.js':
        "const { test } = require('uvu');\nconst assert = require('uvu/assert');\ntest('adds', () => { assert.is(1 + 1, 3); });\ntest('ok', () => {});\ntest.run();\n",
    },
    import: { 'a.test.js': "const { test } = require('uvu');\nconst x = require('./nope');\ntest('adds', () => {});\ntest.run();\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: {
      'a.test.js': "const { test } = require('uvu');\ntest('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\ntest.run();\n",
    },
    allowed: { 'README.md': 'no tests here\n' },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'Total:     2' },
    import: { verdict: 'error', quotes: "Error: Cannot find module './nope'" },
    'no-files': { verdict: 'error', quotes: 'Total:     0' },
    zero: { verdict: 'error', quotes: 'Total:     0' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'Total:     0' },
    mixed: { verdict: 'caught', quotes: 'uvu: `Total:     2`' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`Total:     0\`` },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const NODE: Scenario = {
  runner: 'node',
  // In the case's folder, with no path: node finds its test files there on every version (Node 22 and
  // later no longer take a folder argument), and TAP, the reporter Node 20 uses when not on a terminal,
  // on every version (later ones default to spec).
  inFolder: true,
  run: () => 'node --test --test-reporter=tap',
  files: {
    pass: {
      'a.test.js':
        "const test = require('node:test');\nconst assert = require('assert');\ntest('adds', () => { assert.equal(1 + 1, 2); });\n",
    },
    skipped: { 'a.test.js': "const test = require('node:test');\ntest('a', { skip: true }, () => {});\ntest.skip('b', () => {});\n" },
    // Beside another file: the file that exits reads as a passed "test" of its own, its tests lost.
    exit: {
      'a.test.js':
        "const test = require('node:test');\nconst assert = require('assert');\ntest('a', () => {});\ntest('b', () => { process.exit(0); });\ntest('c', () => { assert.equal(1, 2); });\n",
      'b.test.js': "const test = require('node:test');\ntest('other', () => {});\n",
    },
    caught: {
      'a.test.js':
        "const test = require('node:test');\nconst assert = require('assert');\ntest('adds', () => { assert.equal(1 + 1, 3); });\ntest('ok', () => {});\n",
    },
    import: { 'a.test.js': "const test = require('node:test');\nconst x = require('./nope');\ntest('adds', () => {});\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "const test = require('node:test');\ntest('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n" },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: '# fail 1' },
    import: { verdict: 'error', quotes: "Error: Cannot find module './nope'" },
    'no-files': { verdict: 'error', quotes: '# tests 0' },
    zero: { verdict: 'error', quotes: 'a test file that ran no test' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: '# tests 0' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`# tests 2\`` },
    exit: { verdict: 'error', quotes: 'a test file reported no test (it has none, or it exited before its tests reported' },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/**
 * node's dot reporter: a mark per test, no counts, no names for what passed. What it cannot tell
 * apart from a passing test (a file without tests, a file that exited 0 in a test, a skipped test)
 * passes, and the pass says so.
 */
const DOT_UNSEEN =
  "node's dot reporter names no test: a test file without tests, one that exited early (process.exit(0) in a test) and a skipped test each pass as a dot";
const NODE_DOT: Scenario = {
  ...NODE,
  runner: 'node (dot)',
  profile: 'node',
  run: () => 'node --test --test-reporter=dot',
  expect: {
    pass: { verdict: 'pass', quotes: DOT_UNSEEN },
    caught: { verdict: 'caught', quotes: 'node: `✖ adds (' },
    import: {
      verdict: 'error',
      quotes:
        "a test file failed outside any test (it cannot load, or it exited non-zero; node's dot reporter does not say why, --test-reporter=spec does): `✖ ",
    },
    'no-files': { verdict: 'error', quotes: 'exit 0 without a node summary' },
    zero: { verdict: 'pass', quotes: DOT_UNSEEN },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    skipped: { verdict: 'pass', quotes: DOT_UNSEEN },
    exit: { verdict: 'pass', quotes: DOT_UNSEEN },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const PYTEST: Scenario = {
  runner: 'pytest',
  run: (c) => `npm run --silent ${c}`,
  scripts: (c) => `python3 -m pytest -q -p no:cacheprovider ${c}`,
  files: {
    pass: { 'test_a.py': 'def test_adds():\n    assert 1 + 1 == 2\n' },
    caught: { 'test_a.py': 'def test_adds():\n    assert 1 + 1 == 3\n\ndef test_ok():\n    pass\n' },
    import: { 'test_a.py': 'import nope\n\ndef test_adds():\n    pass\n' },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'test_a.py': '# no tests yet\n' },
    timeout: { 'test_a.py': 'import time\n\ndef test_hangs():\n    time.sleep(1000)\n' },
    allowed: { 'test_a.py': '# no tests yet\n' },
    skipped: { 'test_a.py': 'import pytest\n\n@pytest.mark.skip\ndef test_a():\n    pass\n\n@pytest.mark.skip\ndef test_b():\n    pass\n' },
    // os._exit(0) ends pytest with exit 0 mid-run: its -q progress line stops, no summary follows.
    exit: { 'test_a.py': 'import os\n\ndef test_a():\n    pass\n\ndef test_b():\n    os._exit(0)\n\ndef test_c():\n    assert 1 == 2\n' },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: '1 failed, 1 passed in' },
    import: { verdict: 'error', quotes: "ModuleNotFoundError: No module named 'nope'" },
    'no-files': { verdict: 'error', quotes: 'no tests ran in' },
    zero: { verdict: 'error', quotes: 'no tests ran in' },
    'no-script': { verdict: 'error', quotes: QUIET_MISSING },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'no tests ran' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`2 skipped in` },
    exit: {
      verdict: 'error',
      quotes: 'exit 0 without a pytest summary, so nothing shows the tests ran to the end (a test that called os._exit); last output: `.`',
    },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/**
 * python -m unittest, run as the command itself (detected from its words), one discovery per case
 * folder. Python before 3.12 exits 0 with no tests, 3.12 and later exit 5: both are "no tests ran".
 */
const UNITTEST_CASE = (body: string) => `import unittest\n\n\nclass T(unittest.TestCase):\n${body}`;
const UNITTEST: Scenario = {
  runner: 'unittest',
  run: (c) => `python3 -m unittest discover -s ${c}`,
  files: {
    pass: { 'test_a.py': UNITTEST_CASE('    def test_adds(self):\n        self.assertEqual(1 + 1, 2)\n') },
    caught: {
      'test_a.py': UNITTEST_CASE('    def test_adds(self):\n        self.assertEqual(1 + 1, 3)\n\n    def test_ok(self):\n        pass\n'),
    },
    import: { 'test_a.py': `import nope\n${UNITTEST_CASE('    def test_adds(self):\n        pass\n')}` },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'test_a.py': '# no tests yet\n' },
    timeout: { 'test_a.py': UNITTEST_CASE('    def test_hangs(self):\n        import time\n        time.sleep(1000)\n') },
    allowed: { 'test_a.py': '# no tests yet\n' },
    skipped: {
      'test_a.py': UNITTEST_CASE(
        "    @unittest.skip('later')\n    def test_a(self):\n        pass\n\n    @unittest.skip('later')\n    def test_b(self):\n        pass\n",
      ),
    },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'FAILED (failures=1)' },
    import: { verdict: 'error', quotes: "unittest could not load a test module: `ModuleNotFoundError: No module named 'nope'`" },
    'no-files': { verdict: 'error', quotes: 'Ran 0 tests in' },
    zero: { verdict: 'error', quotes: 'Ran 0 tests in' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'Ran 0 tests in' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`Ran 2 tests in` },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

const AVA: Scenario = {
  runner: 'ava',
  run: (f) => `npx ava ${f}`,
  files: {
    pass: { 'a.test.js': "const test = require('ava');\ntest('adds', (t) => { t.is(1 + 1, 2); });\n" },
    caught: { 'a.test.js': "const test = require('ava');\ntest('adds', (t) => { t.is(1 + 1, 3); });\ntest('ok', (t) => { t.pass(); });\n" },
    import: { 'a.test.js': "const test = require('ava');\nconst x = require('./nope');\ntest('adds', (t) => { t.pass(); });\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "const test = require('ava');\ntest('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n" },
    allowed: { 'README.md': 'no tests here\n' },
    mixed: {
      'a.test.js':
        "const test = require('ava');\ntest('a', (t) => { t.is(1, 2); });\ntest('b', (t) => { t.is(1, 3); });\ntest.skip('c', (t) => { t.pass(); });\n",
    },
    skipped: {
      'a.test.js': "const test = require('ava');\ntest.skip('a', (t) => { t.is(1, 2); });\ntest.skip('b', (t) => { t.pass(); });\n",
    },
    exit: {
      'a.test.js':
        "const test = require('ava');\ntest.serial('a', (t) => { t.pass(); });\ntest.serial('b', () => { process.exit(0); });\ntest.serial('c', (t) => { t.is(1, 2); });\n",
    },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'ava: `1 test failed`' },
    import: {
      verdict: 'error',
      quotes: "an uncaught exception in cases/import/a.test.js, outside any test: `Error: Cannot find module './nope'`",
    },
    'no-files': { verdict: 'error', quotes: 'no tests ran: `✘ Based on your configuration,' },
    zero: { verdict: 'error', quotes: 'no tests ran: `✘ No tests found in cases/zero/a.test.js' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'no tests ran (allowed by `allowNoTests`): `✘ Based on your configuration,' },
    mixed: { verdict: 'caught', quotes: 'ava: `2 tests failed`' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`2 tests skipped\`` },
    exit: {
      verdict: 'error',
      quotes: "process.exit was called (in a test, or by the file itself), so ava stopped before the file's tests finished",
    },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/** jasmine through npm scripts: a detected jasmine takes its own failure code, 3, when the tier lists no `caught`. */
const JASMINE: Scenario = {
  runner: 'jasmine',
  run: (c) => `npm run --silent ${c}`,
  scripts: (f) => `jasmine "${f}/*.spec.js"`,
  files: {
    pass: { 'a.spec.js': "describe('math', () => { it('adds', () => { expect(1 + 1).toBe(2); }); });\n" },
    caught: { 'a.spec.js': "describe('math', () => {\n  it('adds', () => { expect(1 + 1).toBe(3); });\n  it('ok', () => {});\n});\n" },
    import: { 'a.spec.js': "const x = require('./nope');\ndescribe('math', () => { it('adds', () => {}); });\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.spec.js': '// no specs yet\n' },
    timeout: { 'a.spec.js': "describe('s', () => { it('hangs', () => new Promise(() => setInterval(() => {}, 1000)), 1e6); });\n" },
    allowed: { 'README.md': 'no tests here\n' },
    mixed: {
      'a.spec.js':
        "describe('s', () => {\n  it('a', () => { expect(1).toBe(2); });\n  it('b', () => { expect(1).toBe(3); });\n  xit('c', () => {});\n});\n",
    },
    skipped: { 'a.spec.js': "describe('s', () => { xit('a', () => { expect(1).toBe(2); }); xit('b', () => {}); });\n" },
    exit: {
      'a.spec.js':
        "describe('s', () => {\n  it('a', () => {});\n  it('b', () => { process.exit(0); });\n  it('c', () => { expect(1).toBe(2); });\n});\n",
    },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'jasmine: `2 specs, 1 failure`' },
    import: {
      verdict: 'error',
      quotes: "jasmine could not load a spec file, a helper or its config: `Error: Cannot find module './nope'`",
    },
    'no-files': {
      verdict: 'error',
      quotes: 'no tests ran (exit 2: jasmine called the run incomplete (no specs found, or a focused fit/fdescribe)): `No specs found`',
    },
    zero: { verdict: 'error', quotes: '`No specs found`' },
    'no-script': { verdict: 'error', quotes: QUIET_MISSING },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'no tests ran (allowed by `allowNoTests`): `No specs found`' },
    mixed: { verdict: 'caught', quotes: 'jasmine: `3 specs, 2 failures, 1 pending spec`' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`2 specs, 0 failures, 2 pending specs\`` },
    exit: {
      verdict: 'error',
      quotes: 'exit 4 (jasmine exited early: process.exit was called while the specs ran) without a jasmine summary',
    },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/** node-tap with coverage off: test files that cover no code of their own would fail the run on coverage alone. */
const TAP: Scenario = {
  runner: 'tap',
  run: (f) => `npx tap --disable-coverage ${f}`,
  files: {
    pass: { 'a.test.js': "const t = require('tap');\nt.test('adds', async (t) => { t.equal(1 + 1, 2); });\n" },
    caught: {
      'a.test.js':
        "const t = require('tap');\nt.test('adds', async (t) => { t.equal(1 + 1, 3); });\nt.test('ok', async (t) => { t.pass('fine'); });\n",
    },
    import: { 'a.test.js': "const t = require('tap');\nconst x = require('./nope');\nt.test('adds', async (t) => { t.pass('fine'); });\n" },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "const t = require('tap');\nt.test('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n" },
    allowed: { 'README.md': 'no tests here\n' },
    mixed: {
      'a.test.js':
        "const t = require('tap');\nt.test('a', async (t) => { t.equal(1, 2); });\nt.test('b', async (t) => { t.equal(1, 3); });\nt.skip('c', async (t) => { t.pass('x'); });\n",
    },
    skipped: {
      'a.test.js':
        "const t = require('tap');\nt.skip('a', async (t) => { t.equal(1, 2); });\nt.skip('b', async (t) => { t.pass('x'); });\n",
    },
    exit: {
      'a.test.js':
        "const t = require('tap');\nt.test('a', async (t) => { t.pass('x'); });\nt.test('b', async () => { process.exit(0); });\nt.test('c', async (t) => { t.equal(1, 2); });\n",
    },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'tap: `# { total: 2, pass: 1, fail: 1 }`' },
    import: {
      verdict: 'error',
      quotes: "a test file failed before any test (it cannot load, or it threw before its tests): `Error: Cannot find module './nope'`",
    },
    'no-files': { verdict: 'error', quotes: 'no tests ran: `No valid test files found matching "cases/no-files"`' },
    zero: { verdict: 'error', quotes: 'no tests ran: `ok 1 - cases/zero/a.test.js # SKIP no tests found`' },
    'no-script': { verdict: 'error', quotes: 'npm error Missing script: "no-script"' },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'no tests ran (allowed by `allowNoTests`): `No valid test files found matching "cases/allowed"`' },
    mixed: { verdict: 'caught', quotes: 'tap: `# { total: 3, pass: 0, fail: 2, skip: 1 }`' },
    skipped: { verdict: 'error', quotes: `${SKIPPED}: \`# { total: 2, pass: 0, skip: 2 }\`` },
    exit: {
      verdict: 'error',
      quotes: 'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles)',
    },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/**
 * tape through npm scripts (`tape 'cases/x/*.js'`), as most tape projects run it. No test file matched,
 * a file without tests and every test skipped all print `# tests 0` and exit 0; a file that cannot
 * load is node's own crash, before any test; process.exit in a test ends it and every test after it,
 * which tape reports as tests that never ended.
 */
const TAPE_LOAD = 'tape could not load a test file (or it threw before any test ran)';
const TAPE: Scenario = {
  runner: 'tape',
  run: (c) => `npm run --silent ${c}`,
  scripts: (f) => `tape '${f}/*.js'`,
  files: {
    pass: { 'a.test.js': "const test = require('tape');\ntest('adds', (t) => { t.equal(1 + 1, 2); t.end(); });\n" },
    caught: {
      'a.test.js':
        "const test = require('tape');\ntest('adds', (t) => { t.equal(1 + 1, 3); t.end(); });\ntest('ok', (t) => { t.pass('fine'); t.end(); });\n",
    },
    import: {
      'a.test.js': "const test = require('tape');\nconst x = require('./nope');\ntest('adds', (t) => { t.pass('fine'); t.end(); });\n",
    },
    'no-files': { 'README.md': 'no tests here\n' },
    zero: { 'a.test.js': '// no tests yet\n' },
    timeout: { 'a.test.js': "const test = require('tape');\ntest('hangs', () => { setInterval(() => {}, 1000); });\n" },
    allowed: { 'README.md': 'no tests here\n' },
    mixed: {
      'a.test.js':
        "const test = require('tape');\ntest('a', (t) => { t.equal(1, 2); t.end(); });\ntest('b', (t) => { t.equal(1, 3); t.end(); });\ntest.skip('c', (t) => { t.pass('x'); t.end(); });\n",
    },
    skipped: {
      'a.test.js':
        "const test = require('tape');\ntest.skip('a', (t) => { t.equal(1, 2); t.end(); });\ntest.skip('b', (t) => { t.pass('x'); t.end(); });\n",
    },
    exit: {
      'a.test.js':
        "const test = require('tape');\ntest('a', (t) => { t.pass('x'); t.end(); });\ntest('b', () => { process.exit(0); });\ntest('c', (t) => { t.equal(1, 2); t.end(); });\n",
    },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'tape: `not ok 1 should be strictly equal`' },
    import: { verdict: 'error', quotes: `${TAPE_LOAD}: \`Error: Cannot find module './nope'\`` },
    'no-files': { verdict: 'error', quotes: 'no tests ran: `# tests 0`' },
    zero: { verdict: 'error', quotes: 'no tests ran: `# tests 0`' },
    'no-script': { verdict: 'error', quotes: QUIET_MISSING },
    timeout: { verdict: 'error', quotes: 'timed out after' },
    allowed: { verdict: 'pass', quotes: 'no tests ran (allowed by `allowNoTests`): `# tests 0`' },
    mixed: { verdict: 'caught', quotes: 'tape: `not ok 1 should be strictly equal`' },
    skipped: { verdict: 'error', quotes: 'no tests ran: `# tests 0`' },
    exit: {
      verdict: 'error',
      quotes:
        'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended): `not ok 2 test exited without ending: b`',
    },
    placeholder: { verdict: 'error', quotes: PLACEHOLDER_SAYS },
  },
};

/**
 * Linters and formatters, each case in its own folder (the tier's `cwd`) with its own config: a clean
 * file passes, a finding is caught quoting it (file:line and rule), a config that does not parse and a
 * path with no files are errors quoting the tool.
 */
const LINT_CASES: readonly Case[] = ['pass', 'caught', 'config', 'no-files'];
const UNUSED_JS = 'const a = 1;\nconst unused = 2;\nconsole.log(a);\n';
const CLEAN_JS = 'const a = 1;\nconsole.log(a);\n';
const ESLINT_CONFIG = "export default [{ rules: { 'no-unused-vars': 'error' } }];\n";
const ESLINT: Scenario = {
  runner: 'eslint',
  inFolder: true,
  only: LINT_CASES,
  run: (_f, c) => (c === 'no-files' ? 'npx eslint nothere' : 'npx eslint .'),
  files: {
    pass: { 'eslint.config.mjs': ESLINT_CONFIG, 'a.js': CLEAN_JS },
    caught: { 'eslint.config.mjs': ESLINT_CONFIG, 'a.js': UNUSED_JS },
    config: { 'eslint.config.mjs': "export default [{ rules: { 'no-unused-vars': 'error' } }\n", 'a.js': CLEAN_JS },
    'no-files': { 'eslint.config.mjs': ESLINT_CONFIG },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: "a.js:2:7 no-unused-vars: 'unused' is assigned a value but never used`" },
    config: {
      verdict: 'error',
      quotes: 'eslint could not lint the code, so nothing was checked: `SyntaxError: Unexpected end of input`; fix its config',
    },
    'no-files': { verdict: 'error', quotes: '`No files matching the pattern "nothere" were found.`' },
  },
};
const PRETTIER: Scenario = {
  runner: 'prettier',
  inFolder: true,
  only: LINT_CASES,
  run: (_f, c) => (c === 'no-files' ? 'npx prettier --check nothere.js' : 'npx prettier --check .'),
  files: {
    pass: { '.prettierrc': '{}\n', 'a.js': CLEAN_JS },
    caught: { '.prettierrc': '{}\n', 'a.js': CLEAN_JS, 'b.js': 'const b  =  2\n' },
    config: { '.prettierrc': '{ "semi": \n', 'a.js': CLEAN_JS },
    'no-files': { '.prettierrc': '{}\n' },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'prettier: `b.js` is not formatted' },
    config: { verdict: 'error', quotes: 'prettier could not check the formatting: `[error] Invalid configuration for file' },
    'no-files': { verdict: 'error', quotes: '`[error] No files matching the pattern were found: "nothere.js".`' },
  },
};
const BIOME_CONFIG = '{ "linter": { "rules": { "correctness": { "noUnusedVariables": "error" } } } }\n';
const BIOME: Scenario = {
  runner: 'biome',
  inFolder: true,
  only: LINT_CASES,
  run: (_f, c) => (c === 'no-files' ? 'npx biome lint nothere.js' : 'npx biome lint .'),
  files: {
    pass: { 'biome.json': BIOME_CONFIG, 'a.js': CLEAN_JS },
    caught: { 'biome.json': BIOME_CONFIG, 'a.js': UNUSED_JS },
    config: { 'biome.json': '{ "linter": \n', 'a.js': CLEAN_JS },
    'no-files': { 'biome.json': BIOME_CONFIG },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: 'biome: `a.js:2:7 lint/correctness/noUnusedVariables: This variable unused is unused.`' },
    config: { verdict: 'error', quotes: 'biome could not check the code as configured: `' },
    'no-files': { verdict: 'error', quotes: '`Cannot read file.`' },
  },
};
const FLAKE8: Scenario = {
  runner: 'flake8',
  inFolder: true,
  only: LINT_CASES,
  run: (_f, c) => (c === 'no-files' ? 'flake8 nothere.py' : 'flake8 .'),
  files: {
    pass: { 'a.py': 'x = 1\n' },
    caught: { 'a.py': 'import os\nx = 1\n' },
    config: { 'setup.cfg': '[flake8]\nmax-line-length = abc\n', 'a.py': 'x = 1\n' },
    'no-files': { 'README.md': 'no code here\n' },
  },
  expect: {
    pass: { verdict: 'pass' },
    caught: { verdict: 'caught', quotes: "flake8: 1 finding, the first: `./a.py:1:1: F401 'os' imported but unused`" },
    config: { verdict: 'error', quotes: "flake8 could not check the code: `ValueError: invalid literal for int() with base 10: 'abc'`" },
    'no-files': { verdict: 'error', quotes: "`nothere.py:0:1: E902 FileNotFoundError: [Errno 2] No such file or directory: 'nothere.py'`" },
  },
};

const hasFlake8 = toolPresent('the flake8 column', spawnSync('flake8', ['--version']).status === 0, 'apt-get install flake8');
const SCENARIOS: readonly Scenario[] = [
  JEST,
  VITEST,
  MOCHA,
  UVU,
  NODE,
  NODE_DOT,
  AVA,
  JASMINE,
  TAP,
  TAPE,
  PYTEST,
  UNITTEST,
  ESLINT,
  PRETTIER,
  BIOME,
  ...(hasFlake8 ? [FLAKE8] : []),
];
const TIMEOUT_S = 2;

interface Observed {
  runner: string;
  case: Case;
  verdict: string;
  reason: string;
  detected: string;
  why: string;
}
const observed: Observed[] = [];

/** The tier of one case: `no-script` names a script that is not there; `timeout` hangs; `allowed` sets allowNoTests. */
function tierOf(s: Scenario, c: Case) {
  const folder = `cases/${c}`;
  // Quiet (`--silent`) where the cases are scripts: npm then prints nothing of a missing script, and package.json must say it.
  const run = s.scripts ? `npm run --silent ${c}` : NO_RUNNER.has(c) ? `npm run ${c}` : s.run(folder, c);
  const cwd = s.inFolder && !NO_RUNNER.has(c) ? { cwd: folder } : {};
  return { name: c, run, ...cwd, timeout: c === 'timeout' ? TIMEOUT_S : 120, ...(c === 'allowed' && { allowNoTests: true }) };
}

interface Outcome {
  stderr: string;
  results: { tier: string; verdict: string; reason?: string }[];
  plan: { tier: string; runner?: { runner?: string; why: string } }[];
  rows: Record<string, unknown>[];
}

/**
 * Cases a scenario runs: the optional ones only where it shows something new (`allowed`: exit 0, exit 1
 * or pytest's exit 5 with no tests). In `npm test`'s fast set, each runner once: the failing assertion,
 * read from the runner's own output (detection, the profile, the failed test named, the row).
 */
const casesOf = (s: Scenario): Case[] =>
  CASES.filter((c) => (s.only ? s.only.includes(c) : !OPTIONAL.has(c) || s.files[c] !== undefined)).filter(
    (c) => !inFastSet || c === 'caught',
  );

/** One scenario repository, its cases as tiers, judged by one CLI run (`--calibrate`: every tier runs whatever the verdicts before it). */
function scenario(s: Scenario): Promise<Outcome> {
  const files: Record<string, string> = { '.gitignore': 'node_modules\n__pycache__/\n.tap/\n' };
  const scripts: Record<string, string> = {};
  for (const c of casesOf(s)) {
    for (const [path, text] of Object.entries(s.files[c] ?? {})) files[`cases/${c}/${path}`] = text;
    if (s.scripts && !NO_RUNNER.has(c)) scripts[c] = s.scripts(`cases/${c}`, c);
  }
  // npm init's placeholder: quiet (`--silent`) where the cases are scripts, so package.json must say it; else npm's banner does.
  scripts.placeholder = PLACEHOLDER;
  files['package.json'] = `${JSON.stringify({ name: `scenario-${s.runner.replace(/\W+/g, '-')}`, private: true, scripts }, null, 2)}\n`;
  files['gate-ladder.config.mjs'] = `export default ${JSON.stringify({ tiers: casesOf(s).map((c) => tierOf(s, c)) }, null, 2)};\n`;
  return withRepo({ files, install: false, pushInitial: false }, async (repo) => {
    unlinkSync(join(repo.dir, 'node_modules'));
    symlinkSync(runnerModules(), join(repo.dir, 'node_modules'), 'dir');
    repo.write('notes.txt', 'a change to judge\n');
    repo.commit('change');
    const cli = join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs');
    const r = await execa(process.execPath, [cli, 'run', '--base', 'HEAD~1', '--calibrate', '--json'], {
      cwd: repo.dir,
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
      timeout: 300_000,
      stdin: 'ignore',
    });
    const out = JSON.parse(String(r.stdout)) as { targets: { plan: Outcome['plan']; results: Outcome['results'] }[] };
    return { stderr: String(r.stderr), results: out.targets[0]!.results, plan: out.targets[0]!.plan, rows: repo.ledger() };
  });
}

// The scenarios' runs overlap (each is mostly a runner starting up); each test then reads its own.
let runs: Promise<Outcome[]> | undefined;
// Node-sensitive: node:test is the Node under test itself, and its reporters' output changes between
// Nodes; every other runner's output is its own. On the Nodes that run only what differs (scripts/test.mjs
// NODE_SENSITIVE), only node:test's scenarios run.
const byNode = (s: Scenario) => s.profile === 'node' || s.runner === 'node';
const RUN = nodeSensitiveOnly ? SCENARIOS.filter(byNode) : SCENARIOS;
const outcomes = () => (runs ??= Promise.all(RUN.map(scenario)));

RUN.forEach((s, i) => {
  (byNode(s) ? nodeTest : test)(`${s.runner}: ${casesOf(s).join(', ')}`, async () => {
    const o = (await outcomes())[i]!;
    for (const c of casesOf(s)) {
      const res = o.results.find((x) => x.tier === c);
      assert.ok(res, `${s.runner}/${c}: no result\n${o.stderr}`);
      const plan = o.plan.find((x) => x.tier === c)!;
      const want = s.expect[c]!;
      const reason = res.reason ?? '';
      observed.push({
        runner: s.runner,
        case: c,
        verdict: res.verdict,
        reason,
        detected: plan.runner?.runner ?? '',
        why: plan.runner?.why ?? '',
      });
      assert.is(res.verdict, want.verdict, `${s.runner}/${c}: ${reason}\n${o.stderr.slice(-3000)}`);
      if (want.quotes)
        assert.ok(reason.includes(want.quotes), `${s.runner}/${c}: the reason should quote "${want.quotes}", it is: ${reason}`);
      if (!NO_RUNNER.has(c)) {
        assert.is(plan.runner?.runner, s.profile ?? s.runner, `${s.runner}/${c}: detected ${JSON.stringify(plan.runner)}`);
        assert.is(o.rows.find((x) => x.tier === c)?.runner, s.profile ?? s.runner, `${s.runner}/${c}: the row names the runner`);
      }
    }
  });
});

test.after(() => {
  // The fast set's one case per runner is not the matrix docs/verdicts.md is rendered from.
  if (observed.length === 0 || inFastSet || nodeSensitiveOnly) return;
  const dir = join(PROJECT, 'build');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'verdicts-matrix.json'), `${JSON.stringify({ cases: CASES, observed }, null, 2)}\n`);
});

test.run();
