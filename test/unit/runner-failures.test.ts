/**
 * Each runner's failed tests, read from what it printed (test/fixtures/failures/<runner>/<case>.txt,
 * captured by scripts/capture-failures.mjs from the real runners: jest 30, vitest 3, mocha 11, node --test
 * on Node 20, 22 and 24, uvu, node-tap 21, tape 5, ava 6, jasmine 7, pytest 9, go and cargo, each on the
 * same two failures: `math > adds`, an equality that fails, and `throws`, an Error('boom')). Each case: the
 * id, the repository-relative file and line, and the first line of the message, as `judge --json`, the
 * ledger row and the blocked screen carry them.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { failedTestsOf } from '../../src/verdict/runner-output.js';
import type { RunnerName } from '../../src/types.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/failures');
const output = (runner: string, name: string) => readFileSync(resolve(FIXTURES, runner, `${name}.txt`), 'utf8');

/** As the ladder reads them: the gate ran in /x (the fixtures' folder), the tier's cwd the root; go's module example.com/m at the root. */
const read = (runner: RunnerName, name: string) =>
  failedTestsOf(runner, output(runner, name), {
    root: '/x',
    base: '.',
    packageDir: (pkg) => (pkg.startsWith('example.com/m/') ? pkg.slice('example.com/m/'.length) : undefined),
  }).map((f) => [f.id, f.file, f.line, f.message]);

type Want = [id: string, file: string | undefined, line: number | undefined, message: string][];

const JS = 'test/math.test.js';
const CASES: [RunnerName, string, Want][] = [
  [
    'jest',
    'caught',
    [
      [`${JS}::math > adds`, JS, 3, 'expect(received).toBe(expected) // Object.is equality'],
      [`${JS}::throws`, JS, 8, 'boom'],
    ],
  ],
  [
    'vitest',
    'caught',
    [
      [`${JS}::math > adds`, JS, 4, 'AssertionError: expected 2 to be 3 // Object.is equality'],
      [`${JS}::throws`, JS, 9, 'Error: boom'],
    ],
  ],
  [
    'mocha',
    'caught',
    [
      [`${JS}::throws`, JS, 9, 'Error: boom'],
      [`${JS}::math > adds`, JS, 4, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'],
    ],
  ],
  // Node 20 and 22 into a pipe: TAP; the place is the stack's first frame in the test file (the assertion), not the test's declaration.
  [
    'node',
    'caught-20',
    [
      [`${JS}::math > adds`, JS, 5, 'Expected values to be strictly equal:'],
      [`${JS}::throws`, JS, 10, 'boom'],
    ],
  ],
  [
    'node',
    'caught-22',
    [
      [`${JS}::math > adds`, JS, 5, 'Expected values to be strictly equal:'],
      [`${JS}::throws`, JS, 10, 'boom'],
    ],
  ],
  // Node 24: spec; its `failing tests` list, the suite read from the tree above it.
  [
    'node',
    'caught-24',
    [
      [`${JS}::math > adds`, JS, 5, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'],
      [`${JS}::throws`, JS, 10, 'Error: boom'],
    ],
  ],
  [
    'node',
    'spec-20',
    [
      [`${JS}::math > adds`, JS, 5, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'],
      [`${JS}::throws`, JS, 10, 'Error: boom'],
    ],
  ],
  [
    'uvu',
    'caught',
    [
      [`${JS}::math > adds`, JS, 5, 'Expected values to be strictly equal:'],
      [`${JS}::throws`, JS, 10, 'boom'],
    ],
  ],
  [
    'tap',
    'caught',
    [
      [`${JS}::math > adds`, JS, 4, 'should be equal'],
      [`${JS}::throws`, JS, 11, 'boom'],
    ],
  ],
  [
    'tape',
    'caught',
    [
      [`${JS}::math adds`, JS, 3, 'should be strictly equal'],
      [`${JS}::throws`, JS, 11, 'Error: boom'],
    ],
  ],
  [
    'ava',
    'caught',
    [
      [`${JS}::adds`, JS, 3, 'Difference (- actual, + expected)'],
      [`${JS}::throws`, JS, 9, 'Error: boom'],
    ],
  ],
  // --tap names no place for an assertion (its `at:` is ava's own frame).
  [
    'ava',
    'tap',
    [
      ['adds', undefined, undefined, 't.is() failed'],
      [`${JS}::throws`, JS, 9, 'Error thrown in test'],
    ],
  ],
  [
    'jasmine',
    'caught',
    [
      ['spec/math.spec.js::throws', 'spec/math.spec.js', 8, 'Error: boom'],
      ['spec/math.spec.js::math adds', 'spec/math.spec.js', 3, 'Expected 2 to be 3.'],
    ],
  ],
  ...(['caught', 'caught-q', 'caught-v'] as const).map((c): [RunnerName, string, Want] => [
    'pytest',
    c,
    [
      ['tests/test_math.py::TestMath::test_adds', 'tests/test_math.py', 3, 'assert (1 + 1) == 3'],
      ['tests/test_math.py::test_throws', 'tests/test_math.py', 10, 'ValueError: boom'],
    ],
  ]),
  // A parent test whose subtest failed is not listed apart: the subtest is the failure.
  ...(['caught', 'caught-v'] as const).map((c): [RunnerName, string, Want] => [
    'go',
    c,
    [
      ['example.com/m/math::TestAdds', 'math/math_test.go', 7, 'Add(1, 1) = 2, want 3'],
      ['example.com/m/math::TestSub/inner', 'math/math_test.go', 15, 'boom'],
    ],
  ]),
  [
    'cargo',
    'caught',
    [
      ['tests::adds', 'src/lib.rs', 11, 'assertion `left == right` failed'],
      ['tests::throws', 'src/lib.rs', 19, 'boom'],
    ],
  ],
];

for (const [runner, name, want] of CASES) {
  test(`${runner} ${name}: the failed tests, with file, line and message`, () => {
    assert.equal(read(runner, name), want);
  });
}

test('a file outside the folder the gate ran in is left out; a tier in a subfolder prefixes its cwd', () => {
  const text = output('mocha', 'caught');
  const sub = failedTestsOf('mocha', text, { root: '/x', base: 'pkg/a' });
  assert.is(sub[0]!.file, 'pkg/a/test/math.test.js');
  assert.is(sub[0]!.id, 'pkg/a/test/math.test.js::throws');
  const node = failedTestsOf('node', output('node', 'caught-20'), { root: '/elsewhere', base: '.' });
  assert.is(node[0]!.file, undefined);
  assert.is(node[0]!.line, undefined);
  assert.is(node[0]!.id, 'math > adds');
});

test('go without its go.mod known: the package names the test, no file is guessed', () => {
  const got = failedTestsOf('go', output('go', 'caught'), { root: '/x', base: '.' });
  assert.equal(
    got.map((f) => [f.id, f.file, f.line]),
    [
      ['example.com/m/math::TestAdds', undefined, undefined],
      ['example.com/m/math::TestSub/inner', undefined, undefined],
    ],
  );
});

test('a passing output, and a runner without a reader, name no failed test', () => {
  assert.equal(failedTestsOf('jest', 'Tests:       2 passed, 2 total\n', { root: '/x', base: '.' }), []);
  assert.equal(failedTestsOf('tsc', 'a.ts(1,1): error TS1005\n', { root: '/x', base: '.' }), []);
});

test.run();
