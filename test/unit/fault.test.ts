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
];

for (const [title, input, fault] of cases) test(title, () => assert.equal(errorFault(input), fault));

test('hadScript and packageJsonIn', () => {
  assert.ok(hadScript(PKG({ test: 'x' }), 'test'));
  assert.not.ok(hadScript(PKG({ test: 'x' }), 'toString'));
  assert.not.ok(hadScript('{ not json', 'test'));
  assert.equal(['.', '', './', 'pkg/a/', undefined].map(packageJsonIn), [
    'package.json',
    'package.json',
    'package.json',
    'pkg/a/package.json',
    'package.json',
  ]);
});

test.run();
