/** The default scope, marker by marker: what each one makes test-adjacent, and what no marker may take for a test. */
import picomatch from 'picomatch';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultScope } from '../../src/config/defaults.js';
import { scopeMatcher } from '../../src/route/route.js';
import { shortcut } from '../../src/util/glob.js';

/** Per marker: paths it must match (and that no earlier marker takes first). */
const MARKERS: [string, string[]][] = [
  ['**/conftest.py', ['conftest.py', 'pkg/conftest.py']],
  ['**/pytest.ini', ['pytest.ini', 'sub/pytest.ini']],
  ['**/tox.ini', ['tox.ini']],
  ['**/fixtures/**', ['fixtures/a.json', 'src/fixtures/deep/b.txt']],
  ['**/tests/**', ['tests/a.py', 'pkg/tests/unit/b.py']],
  ['**/test/**', ['test/a.js', 'packages/x/test/b.js']],
  ['**/test_*', ['test_math.py', 'src/pkg/test_io.py', 'test_helpers.go']],
  ['**/__tests__/**', ['src/__tests__/a.js']],
  ['**/__snapshots__/**', ['src/__snapshots__/a.js.snap']],
  ['**/__fixtures__/**', ['src/__fixtures__/a.json']],
  ['**/*.test.*', ['src/a.test.ts', 'a.test.mjs']],
  ['**/*.spec.*', ['src/a.spec.ts']],
  ['**/{vitest,jest,vite}.config.*', ['vitest.config.ts', 'jest.config.js', 'web/vite.config.mjs']],
  ['**/vitest.{workspace,setup}.*', ['vitest.workspace.ts', 'vitest.setup.js']],
  ['**/jest.setup.*', ['jest.setup.js']],
  ['**/*_test.*', ['pkg/math_test.go', 'src/io_test.py', 'a_test.rs']],
  ['**/*_spec.rb', ['lib/user_spec.rb']],
  ['**/spec/**', ['spec/models/user.rb', 'app/spec/helper.js']],
  ['**/testdata/**', ['pkg/parse/testdata/input.txt', 'testdata/x']],
  ['**/__mocks__/**', ['src/__mocks__/fs.js']],
  ['**/*_tests/**', ['integration_tests/a.py', 'e2e_tests/b.js', 'unit_tests/c.rs', 'crate/integration_tests/d.rs']],
  ['**/*-tests/**', ['e2e-tests/login.ts', 'packages/api-tests/a.ts']],
  ['**/tests_*/**', ['tests_integration/a.py', 'src/tests_e2e/b.py']],
  ['**/pyproject.toml', ['pyproject.toml', 'packages/lib/pyproject.toml']],
  ['**/setup.cfg', ['setup.cfg']],
];

/** Paths with "test" or "spec" in them that are not tests: no marker may match them. */
const NOT_TESTS = [
  'latest/a.txt',
  'src/latest/b.js',
  'contests/a.py',
  'src/contests/b.ts',
  'protest.py',
  'src/protest.py',
  'attestation.ts',
  'src/attestation.ts',
  'testing.md',
  'src/testimonial.js',
  'specs.md',
  'spectral/a.ts',
  'inspect/a.py',
  'src/respec.rb',
  'latest_tests.md',
  'tests.md',
  'mytests.txt',
  'test.js',
  'src/test.ts',
  'tests-list.txt',
  'datatest/a.txt',
  'mocks/a.js',
  'setup.py',
  'pyproject.lock',
  'src/setup.cfg.example',
  'pytest.ini.bak',
  'a_test',
  'README.md',
];

const match = scopeMatcher(defaultScope);

for (const [marker, paths] of MARKERS) {
  test(`default scope ${marker}: ${paths.join(', ')}`, () => {
    assert.ok(defaultScope.includes(marker), `${marker} is a default marker`);
    for (const p of paths) assert.is(match(p), marker, p);
  });
}

test('every default marker has a test here', () => {
  assert.equal(
    defaultScope.filter((g) => !MARKERS.some(([m]) => m === g)),
    [],
  );
});

test('paths that only look like tests match no default marker (a marker names whole path segments, not a substring)', () => {
  assert.equal(
    NOT_TESTS.filter((p) => match(p) !== undefined).map((p) => `${p} (${match(p)})`),
    [],
  );
});

test('the new markers give picomatch`s answers, through their shortcuts (no picomatch on a push)', () => {
  const all = [...MARKERS.flatMap(([, ps]) => ps), ...NOT_TESTS];
  for (const glob of defaultScope) {
    assert.ok(shortcut(glob) !== undefined, `${glob} has a shortcut`);
    const theirs = picomatch(glob, { dot: true });
    const ours = scopeMatcher([glob]);
    assert.equal(
      all.filter((p) => (ours(p) !== undefined) !== theirs(p)),
      [],
      glob,
    );
  }
});

test.run();
