/**
 * Each runner's failed tests, read from what it printed (test/fixtures/failures/<runner>/<case>.txt,
 * captured by scripts/capture-failures.mjs from the real runners: jest 30, vitest 3, mocha 11, node --test
 * on Node 20, 22 and 24, uvu, node-tap 21, tape 5, ava 6, jasmine 7, pytest 9, unittest (Python 3.11), go and cargo, each on the
 * same two failures: `math > adds`, an equality that fails, and `throws`, an Error('boom')). Each case: the
 * id, the repository-relative file and line, and the first line of the message, as `judge --json`, the
 * ledger row and the blocked screen carry them.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_FAILURES_READ, failedTestsOf } from '../../src/verdict/runner-output.js';
import type { RunnerName } from '../../src/types.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

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
  // A test file whose name holds a space (the capture above with its path renamed): the file is the whole name,
  // not the part after the space that a frame's `❯ file:line:col` reads.
  [
    'vitest',
    'caught-space',
    [
      ['test/sp ace.test.js::math > adds', 'test/sp ace.test.js', 4, 'AssertionError: expected 2 to be 3 // Object.is equality'],
      ['test/sp ace.test.js::throws', 'test/sp ace.test.js', 9, 'Error: boom'],
    ],
  ],
  ['pytest', 'caught-space', [['tests/test_sp ace.py::test_bad', 'tests/test_sp ace.py', 7, 'assert 2 == 3']]],
  [
    'mocha',
    'caught',
    [
      [`${JS}::throws`, JS, 9, 'Error: boom'],
      [`${JS}::math > adds`, JS, 4, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'],
    ],
  ],
  // An assertion in a helper the test called: the test's own line (its Context frame), not the helper's.
  [
    'mocha',
    'caught-helper',
    [
      [
        'test/range.test.js::range > should support negative ranges',
        'test/range.test.js',
        10,
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      ],
      [
        'test/range.test.js::range > fails in its own body',
        'test/range.test.js',
        13,
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      ],
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
  // No short test summary (`-rN`): the FAILURES headings name them; `--tb=line`: its one line a failure gives the line.
  ...(['caught-rN', 'caught-tb-line'] as const).map((c): [RunnerName, string, Want] => [
    'pytest',
    c,
    [
      ['tests/test_math.py::TestMath::test_adds', 'tests/test_math.py', 3, 'assert (1 + 1) == 3'],
      ['tests/test_math.py::test_throws', 'tests/test_math.py', 10, 'ValueError: boom'],
    ],
  ]),
  // A doctest (`--doctest-modules`): its place (printed absolute) and what it expected and got; one that raised, the exception.
  ['pytest', 'doctest', [['src/calc.py::calc.half', 'src/calc.py', 4, 'Expected 2.0, got 1.0']]],
  ['pytest', 'doctest-raise', [['src/edge.py::edge.f', 'src/edge.py', 4, "unexpected exception: ValueError('zero')"]]],
  // A fixture that raised in the code under test: the test's id, the place the first frame of the project's code gives (conftest.py's).
  ['pytest', 'fixture', [['tests/test_calc.py::test_one', 'tests/conftest.py', 8, 'ValueError: n must be positive']]],
  // pytest 9's subtests (unittest's subTest), each its own failure; an error raised in the code under test: the
  // test file's line, not the raising module's, and the error whole where the short summary cuts it (`ValueErro...`).
  [
    'pytest',
    'caught-subtests',
    [
      ['tests/test_misc.py::TestMiscellaneous::test_cases [escapes]', 'tests/test_misc.py', 14, 'AssertionError: 2 != 1'],
      ['tests/test_misc.py::TestMiscellaneous::test_cases [common]', 'tests/test_misc.py', 14, 'AssertionError: 3 != 1'],
      [
        'tests/test_misc.py::TestMiscellaneous::test_incorrect_load',
        'tests/test_misc.py',
        9,
        "ValueError: File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')` when you read it",
      ],
      ['tests/test_misc.py::TestKw::test_kw (i=1)', 'tests/test_misc.py', 25, 'AssertionError: 1 != 0'],
    ],
  ],
  // A parent test whose subtest failed is not listed apart: the subtest is the failure.
  ...(['caught', 'caught-v'] as const).map((c): [RunnerName, string, Want] => [
    'go',
    c,
    [
      ['example.com/m/math::TestAdds', 'math/math_test.go', 7, 'Add(1, 1) = 2, want 3'],
      ['example.com/m/math::TestSub/inner', 'math/math_test.go', 15, 'boom'],
    ],
  ]),
  // unittest (Python 3.11): each FAIL/ERROR heading, id its dotted name (a subtest's description after it); the last frame
  // in the project's code (the code under test's, for an error it raised) and the exception the traceback ends with.
  ...(['caught', 'caught-v'] as const).map((c): [RunnerName, string, Want] => [
    'unittest',
    c,
    [
      ['unit.test_math.MathTest.test_throws', 'calc.py', 3, 'ValueError: n must be positive'],
      ['unit.test_math.MathTest.test_adds', 'unit/test_math.py', 8, 'AssertionError: 2 != 3'],
      ['unit.test_math.MathTest.test_cases (i=2)', 'unit/test_math.py', 23, 'AssertionError: 2 != 1'],
      ['unit.test_math.MathTest.test_rejects_zero', 'unit/test_math.py', 14, 'AssertionError: ValueError not raised'],
    ],
  ]),
  // A setUpClass that raised (the class's fixture is what failed), and an expected failure that passed (no traceback).
  [
    'unittest',
    'class-fixture',
    [
      ['test_fixture.U.setUpClass', 'test_fixture.py', 13, 'RuntimeError: no db'],
      ['test_fixture.T.test_u', undefined, undefined, 'unexpected success'],
    ],
  ],
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

test('a path printed as a file URL, absolute or with ./ is made repository-relative; the root itself (absolute or relative), a folder, the folder above it and a path out of it are left out', () => {
  const text = output('mocha', 'caught');
  const at = (where: string) =>
    failedTestsOf('mocha', text.replaceAll('test/math.test.js', where), { root: '/x', base: '.' }).map((f) => f.file ?? null);
  for (const where of ['file:///x/test/math.test.js', '/x/test/math.test.js', './test/math.test.js'])
    assert.equal(at(where), [JS, JS], where);
  assert.equal(at('../up/math.test.js'), [null, null]);
  // node's `test at <file>:<line>:<col>` takes any path: the root itself and its parent are no test file.
  const node = output('node', 'caught-24');
  const nodeAt = (where: string) =>
    failedTestsOf('node', node.replaceAll('test/math.test.js', where), { root: '/x', base: '.' }).map((f) => f.file ?? null);
  assert.equal(nodeAt('/x'), [null, null]);
  assert.equal(nodeAt('/'), [null, null]);
  assert.equal(nodeAt(''), [null, null]);
  assert.equal(nodeAt('/x/a..'), ['a..', 'a..']);
  // The root and a folder printed relative (`./`, `.`, `sub/`) are no test file either.
  for (const where of ['./', '.', 'sub/', './sub/']) assert.equal(nodeAt(where), [null, null], where);
  assert.equal(nodeAt('./sub'), ['sub', 'sub']);
  // Nor is a file printed empty in a package's folder (its base).
  assert.equal(
    failedTestsOf('node', node.replaceAll('test/math.test.js', ''), { root: '/x', base: 'pkg' }).map((f) => f.file ?? null),
    [null, null],
  );
  // Without a file there is no line either: the failure carries its id, title and message only.
  assert.equal(failedTestsOf('node', node.replaceAll('test/math.test.js', '/'), { root: '/x', base: '.' })[1], {
    id: 'throws',
    title: 'throws',
    message: 'Error: boom',
  });
});

test('a file without a line, a go test with no file line, a failure printed twice, and more than MAX_FAILURES_READ failures', () => {
  const ctx = { root: '/x', base: '.', packageDir: () => 'math' };
  assert.equal(failedTestsOf('pytest', 'FAILED tests/test_math.py::test_adds - assert 2 == 3\n', ctx), [
    { id: 'tests/test_math.py::test_adds', title: 'test_adds', file: 'tests/test_math.py', message: 'assert 2 == 3' },
  ]);
  const go = (body: string) => `${body}FAIL\nFAIL\texample.com/m/math\t0.01s\nFAIL\n`;
  assert.equal(failedTestsOf('go', go('--- FAIL: TestQuiet (0.00s)\n'), ctx), [
    { id: 'example.com/m/math::TestQuiet', title: 'TestQuiet', message: 'failed' },
  ]);
  assert.equal(
    failedTestsOf('go', go('--- FAIL: TestA (0.00s)\n--- FAIL: TestA (0.00s)\n'), ctx).map((f) => f.id),
    ['example.com/m/math::TestA'],
  );
  const many = (n: number) => go(Array.from({ length: n }, (_, i) => `--- FAIL: Test${i} (0.00s)\n    a_test.go:${i + 1}: no\n`).join(''));
  assert.is(failedTestsOf('go', many(MAX_FAILURES_READ), ctx).length, MAX_FAILURES_READ);
  const read = failedTestsOf('go', many(MAX_FAILURES_READ + 1), ctx);
  assert.is(read.length, MAX_FAILURES_READ);
  assert.is(read.at(-1)!.id, `example.com/m/math::Test${MAX_FAILURES_READ - 1}`);
});

test("unittest before Python 3.11 (the heading names the class alone), a frame in an installed package or python's own library, a module that could not load", () => {
  const text = output('unittest', 'caught').replaceAll(/\((unit\.test_math\.MathTest)\.\w+\)/g, '($1)');
  assert.equal(
    read('unittest', 'caught').map(([id]) => id),
    failedTestsOf('unittest', text, { root: '/x', base: '.' }).map((f) => f.id),
  );
  const deps = [
    'ERROR: test_deps (unit.test_a.T.test_deps)',
    '-'.repeat(70),
    'Traceback (most recent call last):',
    '  File "/x/unit/test_a.py", line 5, in test_deps',
    '    yaml.load(1)',
    '  File "/x/.venv/lib/python3.11/site-packages/yaml/__init__.py", line 79, in load',
    '    loader = Loader(stream)',
    '  File "/usr/lib/python3.11/json/__init__.py", line 3, in x',
    '    raise TypeError("no")',
    'TypeError: no',
    '',
    '='.repeat(70),
    'ERROR: test_gone (unittest.loader._FailedTest.test_gone)',
    '-'.repeat(70),
    'ImportError: Failed to import test module: test_gone',
    '',
    '-'.repeat(70),
    'Ran 2 tests in 0.001s',
    '',
    'FAILED (errors=2)',
  ].join('\n');
  assert.equal(failedTestsOf('unittest', deps, { root: '/x', base: '.' }), [
    { id: 'unit.test_a.T.test_deps', title: 'T.test_deps', file: 'unit/test_a.py', line: 5, message: 'TypeError: no' },
  ]);
});

test('pytest -rN on a doctest: the heading names it whole, its file the one its block says', () => {
  const text = output('pytest', 'doctest').replace(/=+ short test summary info =+\nFAILED .*\n/, '');
  assert.equal(
    failedTestsOf('pytest', text, { root: '/x', base: '.' }).map((f) => [f.id, f.file, f.line, f.message]),
    [['src/calc.py::calc.half', 'src/calc.py', 4, 'Expected 2.0, got 1.0']],
  );
});

test('a passing output, and a runner without a reader, name no failed test', () => {
  assert.equal(failedTestsOf('jest', 'Tests:       2 passed, 2 total\n', { root: '/x', base: '.' }), []);
  assert.equal(failedTestsOf('tsc', 'a.ts(1,1): error TS1005\n', { root: '/x', base: '.' }), []);
});

test.run();
