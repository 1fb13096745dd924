import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type RootFacts, type StarterInput, starterConfig } from '../../src/install/starter.js';
import { resolveConfig, validateConfig } from '../../src/config/load.js';
import { defaultScope } from '../../src/config/defaults.js';
import { route, scopeMatcher } from '../../src/route/route.js';
import type { TierConfig } from '../../src/types.js';

// The starter config's ladder on real package.json shapes: what it writes, that it is a valid config,
// and how its first pushes route.

const base = { pm: 'npm', preCommit: false, lintStaged: false } as const;

function tiersOf(input: StarterInput): TierConfig[] {
  const { text } = starterConfig(input);
  const body = text.slice(text.indexOf('defineConfig(') + 'defineConfig('.length, text.lastIndexOf(');'));
  const raw = new Function(`return (${body});`)() as { tiers: TierConfig[] };
  const r = validateConfig(raw, 'gate-ladder.config.ts');
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  return raw.tiers;
}

const runs = (tiers: TierConfig[], paths: string[]) =>
  route(
    paths.map((path) => ({ status: 'M', path })),
    resolveConfig({ tiers }).tiers,
    scopeMatcher(defaultScope),
    'pre-push',
  ).tiers.map((t) => [t.tier.name, t.run ? 'run' : `${t.skip}: ${t.reason}`]);

test('vitest + eslint + tsc: lint and type check, then the related tests (skipped when test-adjacent), then the whole suite', () => {
  const input: StarterInput = { ...base, scripts: { test: 'vitest run', lint: 'eslint .', typecheck: 'tsc --noEmit' } };
  const tiers = tiersOf(input);
  assert.equal(
    tiers.map((t) => t.name),
    ['t1-lint', 't1-typecheck', 't1-related', 't2-tests'],
  );
  const related = tiers[2]!;
  assert.is(related.run, 'npx vitest related --run {changed:**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}}');
  assert.is(related.skipWhenTestAdjacent, true);
  assert.is(related.allowNoTests, true);
  assert.is(related.runner, 'vitest');
  const { text } = starterConfig(input);
  assert.match(text, 'their passing here says nothing of the patch');
  assert.match(text, 'lint is often slower than the tests');
  assert.equal(runs(tiers, ['src/math.ts']), [
    ['t1-lint', 'run'],
    ['t1-typecheck', 'run'],
    ['t1-related', 'run'],
    ['t2-tests', 'run'],
  ]);
  assert.equal(runs(tiers, ['src/math.ts', 'src/math.test.ts'])[2], [
    't1-related',
    'scope: test-adjacent: src/math.test.ts matches **/*.test.*',
  ]);
  assert.equal(runs(tiers, ['README.md'])[2]![0], 't1-related');
  assert.match(String(runs(tiers, ['README.md'])[2]![1]), /^changed: no changed path matches/);
});

test("jest: jest's own --findRelatedTests, passing when no test imports the change; through the project's manager", () => {
  const tiers = tiersOf({ ...base, pm: 'yarn', scripts: { test: 'jest --coverage' } });
  assert.equal(
    tiers.map((t) => t.name),
    ['t1-related', 't2-tests'],
  );
  assert.is(tiers[0]!.run, 'yarn jest --findRelatedTests --passWithNoTests {changed:**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}}');
  assert.is(tiers[0]!.runner, 'jest');
});

test('a chained test script: the related tier follows its one runner', () => {
  const tiers = tiersOf({ ...base, scripts: { test: 'tsc -p . && jest', lint: 'eslint .' } });
  assert.ok(
    tiers.some((t) => t.name === 't1-related' && String(t.run).includes('jest --findRelatedTests')),
    JSON.stringify(tiers),
  );
});

test('a test script that moves first (cd, export, a variable): no related tier, the runner from the root would not be the suite', () => {
  for (const test of ['cd packages/core && jest', 'export CI=1 && vitest run', 'NODE_ENV=test jest']) {
    assert.equal(
      tiersOf({ ...base, scripts: { test } }).map((t) => t.name),
      ['t2-tests'],
      test,
    );
  }
  assert.equal(
    tiersOf({ ...base, scripts: { test: 'npm run unit', unit: 'cd core && jest' } }).map((t) => t.name),
    ['t2-tests'],
  );
});

test('mocha, node --test, a project with only `test`: no related tier (the runner has no way to pick them), the suite alone', () => {
  assert.equal(
    tiersOf({ ...base, scripts: { test: 'mocha "test/**/*.js"' } }).map((t) => t.name),
    ['t2-tests'],
  );
  assert.equal(
    tiersOf({ ...base, scripts: { test: 'node --test' } }).map((t) => t.name),
    ['t2-tests'],
  );
  assert.equal(
    tiersOf({ ...base, scripts: { test: 'node scripts/test.mjs' } }).map((t) => t.name),
    ['t2-tests'],
  );
});

test('pnpm named by packageManager but not on PATH: a warning naming it and every tier that runs it', () => {
  const input: StarterInput = { ...base, pm: 'pnpm', scripts: { test: 'vitest run', lint: 'eslint .' }, onPath: (n) => n !== 'pnpm' };
  const { warnings } = starterConfig(input);
  assert.equal(warnings, [{ missing: 'pnpm', tiers: ['t1-lint', 't1-related', 't2-tests'] }]);
  assert.equal(starterConfig({ ...input, onPath: () => true }).warnings, []);
  assert.equal(starterConfig({ ...input, onPath: undefined }).warnings, [], 'not asked: nothing said');
});

const py = (texts: Record<string, string>): RootFacts => ({
  files: ['pyproject.toml', 'tests'],
  testFiles: ['tests/test_a.py'],
  texts: { 'pyproject.toml': '[tool.pytest.ini_options]\n', ...texts },
  python: 'python3',
});

test('pytest: no related tier, and the comment says why; with pytest-testmon among its requirements, --testmon', () => {
  const plain = starterConfig({ ...base, scripts: {}, root: py({}) });
  assert.match(plain.text, 'No tier of related tests: pytest cannot tell which tests a source change affects');
  assert.equal(
    tiersOf({ ...base, scripts: {}, root: py({}) }).map((t) => t.name),
    ['t2-tests'],
  );
  const tiers = tiersOf({ ...base, scripts: {}, root: py({ 'requirements-dev.txt': 'pytest\npytest-testmon==2.1\n' }) });
  assert.equal(
    tiers.map((t) => [t.name, t.run, t.skipWhenTestAdjacent]),
    [
      ['t1-related', 'python3 -m pytest -q --testmon', true],
      ['t2-tests', 'python3 -m pytest -q', undefined],
    ],
  );
  assert.is(tiers[0]!.allowNoTests, true, 'a change that affects no test runs none: pytest exits 5, a pass here');
  assert.equal(starterConfig({ ...base, scripts: {}, root: py({}), onPath: (n) => n !== 'python3' }).warnings, [
    { missing: 'python3', tiers: ['t2-tests'] },
  ]);
});

test.run();
