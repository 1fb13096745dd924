import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Fault, type FaultInput, errorFault, hadScript, packageJsonIn } from '../../src/verdict/fault.js';

const PKG = (scripts: Record<string, string>) => JSON.stringify({ name: 'x', scripts });

// [title, input, fault]
const cases: [string, FaultInput, Fault][] = [
  [
    'a changed test file the reason names: the patch',
    {
      reason: 'a test file could not run (test/parse.test.js): `Jest encountered an unexpected token`',
      output: '',
      changed: ['test/parse.test.js'],
      exited: true,
    },
    { cause: 'patch', file: 'test/parse.test.js' },
  ],
  [
    'named only in the output, as the end of an absolute path',
    {
      reason: 'exit 1: node could not load the code',
      output: 'SyntaxError: /tmp/w/src/a.js: Unexpected token (2:0)',
      changed: ['README.md', 'src/a.js'],
      exited: true,
    },
    { cause: 'patch', file: 'src/a.js' },
  ],
  [
    'a file the push did not change: the harness',
    {
      reason: 'jest could not load its config (jest.config.js): `SyntaxError: Unexpected end of input`',
      output: '/w/jest.config.js:2',
      changed: ['src/sum.js'],
      exited: true,
    },
    { cause: 'harness' },
  ],
  [
    'a changed name inside a longer one is not it',
    { reason: 'cannot load src/a.js.map', output: 'lib/src/a.jsx', changed: ['src/a.js'], exited: true },
    { cause: 'harness' },
  ],
  [
    'a timeout names no file, whatever its output says',
    { reason: 'timed out after 60 s', output: 'test/parse.test.js', changed: ['test/parse.test.js'], exited: false },
    { cause: 'harness' },
  ],
  [
    'the first named of several changed files',
    { reason: 'cannot load b.js, then a.js', output: '', changed: ['a.js', 'b.js'], exited: true },
    { cause: 'patch', file: 'b.js' },
  ],
  [
    "a workspace's runner names its files from the workspace's folder",
    {
      reason: 'workspace c: a test file could not run (c.test.js): `Cannot find module`',
      output: '',
      changed: ['packages/c/c.test.js'],
      dirs: ['packages/c', 'packages/a'],
      exited: true,
    },
    { cause: 'patch', file: 'packages/c/c.test.js' },
  ],
  [
    'a script the base had and the change removed',
    { output: '', changed: ['package.json'], exited: true, missingScript: 'test', packageJsonAtBase: PKG({ test: 'jest' }) },
    { cause: 'patch', file: 'package.json', script: 'test' },
  ],
  [
    'a script the base never had: the harness (replay: not applicable)',
    { output: '', changed: ['package.json'], exited: true, missingScript: 'test', packageJsonAtBase: PKG({ build: 'tsc' }) },
    { cause: 'harness' },
  ],
  [
    'no package.json at the base',
    { output: '', changed: ['package.json'], exited: true, missingScript: 'test', packageJsonAtBase: null },
    { cause: 'harness' },
  ],
  [
    'package.json untouched: the harness',
    { output: '', changed: ['src/a.js'], exited: true, missingScript: 'test', packageJsonAtBase: PKG({ test: 'jest' }) },
    { cause: 'harness' },
  ],
  [
    "a workspace tier's own package.json",
    { output: '', changed: ['packages/a/package.json'], cwd: 'packages/a', exited: true, missingScript: 'test' },
    { cause: 'patch', file: 'packages/a/package.json', script: 'test' },
  ],
  [
    // jest's related-tests run names the changed file in its last line whatever failed: coverage is no file's fault.
    'an error of the whole run (coverage below its threshold) the output names a changed file in: the harness',
    {
      reason:
        'exit 1: jest says coverage is below its threshold: `Jest: "global" coverage threshold for lines (90%) not met: 50%`; no test failed',
      output: 'Ran all test suites related to files matching src/index.ts.',
      changed: ['src/index.ts'],
      exited: true,
      runWide: true,
    },
    { cause: 'harness' },
  ],
  [
    // The parent commit fails the same way: today's node_modules lacks it, whatever the change.
    'a package that is not installed, that the changed file imported before the change too: the harness (install the dependencies)',
    {
      reason: "exit 1: ava could not load the tests: `Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'delay' imported from /w/test.js`",
      output: '',
      changed: ['test.js'],
      exited: true,
      textAtBase: () => "import delay from 'delay';\n",
    },
    { cause: 'harness' },
  ],
  [
    'a package the change made the file import (not installed, nor there before): the patch',
    {
      reason: "pytest could not collect the tests (tests/test_a.py): `ModuleNotFoundError: No module named 'nope_missing'`",
      output: '',
      changed: ['tests/test_a.py'],
      exited: true,
      textAtBase: () => 'def test_a():\n    assert True\n',
    },
    { cause: 'patch', file: 'tests/test_a.py' },
  ],
  [
    "a command not found that package.json's changed script names since the base: the patch",
    {
      output: '',
      changed: ['package.json'],
      exited: true,
      notFound: { command: 'mochaa', tierRun: 'npm test' },
      packageJsonAtBase: PKG({ test: 'mocha' }),
    },
    { cause: 'patch', file: 'package.json', command: 'mochaa' },
  ],
  [
    'a command not found that the scripts named at the base too: not installed here, the harness',
    {
      output: '',
      changed: ['package.json'],
      exited: true,
      notFound: { command: 'mocha', tierRun: 'npm test' },
      packageJsonAtBase: PKG({ test: 'mocha --reporter dot' }),
    },
    { cause: 'harness' },
  ],
  [
    "a command not found that the tier's own command names: the harness",
    {
      output: '',
      changed: ['package.json'],
      exited: true,
      notFound: { command: 'mochaa', tierRun: 'mochaa test/' },
      packageJsonAtBase: PKG({ test: 'mocha' }),
    },
    { cause: 'harness' },
  ],
  [
    'a command not found with package.json untouched, or its base unknown: the harness',
    { output: '', changed: ['src/a.js'], exited: true, notFound: { command: 'mochaa', tierRun: 'npm test' }, packageJsonAtBase: PKG({}) },
    { cause: 'harness' },
  ],
  [
    'a command not found, package.json at the base not known: the harness',
    { output: '', changed: ['package.json'], exited: true, notFound: { command: 'mochaa', tierRun: 'npm test' } },
    { cause: 'harness' },
  ],
  [
    'a command not found in a package.json the patch added: the patch',
    { output: '', changed: ['package.json'], exited: true, notFound: { command: 'mochaa', tierRun: 'npm test' }, packageJsonAtBase: null },
    { cause: 'patch', file: 'package.json', command: 'mochaa' },
  ],
  [
    'a command whose name is part of a longer word at the base (mochaa-cli) was not named there',
    {
      output: '',
      changed: ['package.json'],
      exited: true,
      notFound: { command: 'mochaa', tierRun: 'npm test' },
      packageJsonAtBase: PKG({ test: 'mochaa-cli && ./mochaa.sh' }),
    },
    { cause: 'patch', file: 'package.json', command: 'mochaa' },
  ],
];

// Where a name stands in the text: the edges of a whole path (issue 45: mutation testing's survivors).
const named = (reason: string, changed: string[], more: Partial<FaultInput> = {}): Fault =>
  errorFault({ reason, output: '', changed, exited: true, ...more });
cases.push(
  [
    'a path at the very start of the reason',
    { reason: 'src/a.js: Unexpected token', output: '', changed: ['src/a.js'], exited: true },
    { cause: 'patch', file: 'src/a.js' },
  ],
  [
    'a path that ends the reason',
    { reason: 'cannot load src/a.js', output: '', changed: ['src/a.js'], exited: true },
    { cause: 'patch', file: 'src/a.js' },
  ],
  [
    "the line after the file's name: node's `file:line`",
    { reason: 'node could not load the code', output: '/w/src/a.js:7\n  return x +;\n', changed: ['src/a.js'], exited: true },
    { cause: 'patch', file: 'src/a.js', line: 7 },
  ],
  [
    "tsc's `file(line,col)`",
    { reason: "src/a.ts(12,5): error TS1005: ';' expected.", output: '', changed: ['src/a.ts'], exited: true },
    { cause: 'patch', file: 'src/a.ts', line: 12 },
  ],
  [
    'python\'s `File "x.py", line N`',
    {
      reason: 'pytest could not collect a test file',
      output: '  File "/w/pkg/mod.py", line 3\n    def f(:\n',
      changed: ['pkg/mod.py'],
      exited: true,
    },
    { cause: 'patch', file: 'pkg/mod.py', line: 3 },
  ],
  [
    'named first without a line, then with one: the line',
    {
      reason: 'pytest could not collect tests/test_a.py',
      output: 'ERROR collecting tests/test_a.py\n  File "/w/tests/test_a.py", line 5\n    def f(:\n',
      changed: ['tests/test_a.py'],
      exited: true,
    },
    { cause: 'patch', file: 'tests/test_a.py', line: 5 },
  ],
  [
    'a number that is not a line right after the name (a column pair `(2:0)` after a colon and a space) gives none',
    { reason: 'SyntaxError: /w/src/a.js: Unexpected token (2:0)', output: '', changed: ['src/a.js'], exited: true },
    { cause: 'patch', file: 'src/a.js' },
  ],
);

for (const [title, input, fault] of cases) test(title, () => assert.equal(errorFault(input), fault));

test("go's import cycle names packages, not files: the changed .go file in a package it names is to blame", () => {
  const reason = 'go could not load the packages: `imports example.com/m/a: import cycle not allowed`';
  assert.equal(errorFault({ reason, output: '', changed: ['README.md', 'a/a.go', 'b/b.go'], exited: true }), {
    cause: 'patch',
    file: 'a/a.go',
  });
  // A tier in the module's folder: its packages from there.
  assert.equal(errorFault({ reason, output: '', changed: ['backend/a/a.go'], exited: true, cwd: 'backend' }), {
    cause: 'patch',
    file: 'backend/a/a.go',
  });
  assert.equal(errorFault({ reason, output: '', changed: ['c/c.go', 'a.md'], exited: true }), { cause: 'harness' });
});

test('a whole path: a word character before it is a longer name; a full stop after it ends the sentence unless a name goes on', () => {
  assert.equal(named('cannot load xsrc/a.js here', ['src/a.js']), { cause: 'harness' });
  assert.equal(named('cannot load src/a.js.', ['src/a.js']), { cause: 'patch', file: 'src/a.js' });
  assert.equal(named('cannot load src/a.js. Then', ['src/a.js']), { cause: 'patch', file: 'src/a.js' });
  assert.equal(named('cannot load src/a.js.map', ['src/a.js']), { cause: 'harness' });
  // A word after a space is not part of the name.
  assert.equal(named('cannot load src/a.js x', ['src/a.js']), { cause: 'patch', file: 'src/a.js' });
});

test('an empty changed path names nothing, even between two spaces', () =>
  assert.equal(named('cannot  load src/a.js', ['', 'src/a.js']), { cause: 'patch', file: 'src/a.js' }));

test("the tier's cwd, written ./pkg/, names its files from that folder; of two changed paths named at one place, the longer", () => {
  assert.equal(named('a test file could not run (a.test.js)', ['pkg/a.test.js'], { cwd: './pkg/' }), {
    cause: 'patch',
    file: 'pkg/a.test.js',
  });
  assert.equal(named('cannot load a.js', ['a.js', 'pkg/a.js'], { dirs: ['pkg'] }), { cause: 'patch', file: 'pkg/a.js' });
  assert.equal(named('cannot load a.js', ['pkg/a.js', 'a.js'], { dirs: ['pkg'] }), { cause: 'patch', file: 'pkg/a.js' });
});

test('hadScript and packageJsonIn', () => {
  assert.ok(hadScript(PKG({ test: 'x' }), 'test'));
  assert.not.ok(hadScript(PKG({ test: 'x' }), 'toString'));
  assert.is(hadScript('{ not json', 'test'), false);
  assert.is(hadScript(null, 'test'), false);
  // scripts that is not an object (a string has an own '0') or is null
  assert.is(hadScript(JSON.stringify({ scripts: 'x' }), '0'), false);
  assert.is(hadScript(JSON.stringify({ scripts: null }), 'test'), false);
  assert.equal(['.', '', './', 'pkg/a/', undefined].map(packageJsonIn), [
    'package.json',
    'package.json',
    'package.json',
    'pkg/a/package.json',
    'package.json',
  ]);
});

test.run();
