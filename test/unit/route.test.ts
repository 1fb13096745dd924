import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { defaultScope } from '../../src/config/defaults.js';
import { route, scopeMatcher, skipTiers, touchedPaths } from '../../src/route/route.js';
import { ChangeList, type ChangedPath } from '../../src/git/change-list.js';
import { MAX_FILES_PER_ROW } from '../../src/config/defaults.js';

const config = resolveConfig({
  tiers: [
    { name: 't1-properties', run: 'true', skipWhenTestAdjacent: true },
    { name: 't2-fixtures', run: 'true' },
  ],
});
const match = scopeMatcher(defaultScope);
const m = (path: string): ChangedPath => ({ status: 'M', path });

const adjacent: [string, string][] = [
  ['conftest.py', '**/conftest.py'],
  ['pkg/sub/conftest.py', '**/conftest.py'],
  ['pytest.ini', '**/pytest.ini'],
  ['tox.ini', '**/tox.ini'],
  ['fixtures/data.json', '**/fixtures/**'],
  ['a/b/fixtures/deep/x.json', '**/fixtures/**'],
  ['tests/test_x.py', '**/tests/**'],
  ['src/tests/helper.py', '**/tests/**'],
  ['test/unit/a.ts', '**/test/**'],
  ['test_module.py', '**/test_*'],
  ['pkg/test_utils.py', '**/test_*'],
  ['src/__tests__/a.js', '**/__tests__/**'],
  ['src/__snapshots__/a.snap', '**/__snapshots__/**'],
  ['src/__fixtures__/a.json', '**/__fixtures__/**'],
  ['src/a.test.ts', '**/*.test.*'],
  ['src/a.spec.js', '**/*.spec.*'],
  ['vitest.config.ts', '**/{vitest,jest,vite}.config.*'],
  ['packages/x/jest.config.js', '**/{vitest,jest,vite}.config.*'],
  ['dir with space/tests/ünï code.py', '**/tests/**'],
  ['.hidden/tests/x.py', '**/tests/**'],
  ['tests/odd\nnäme "x".txt', '**/tests/**'],
  ['a\nb/fixtures/c\nd.json', '**/fixtures/**'],
  ['src/we ird\n.test.ts', '**/*.test.*'],
];
for (const [path, marker] of adjacent) {
  test(`test-adjacent: ${path}`, () => {
    const plan = route([m(path)], config.tiers, match, 'pre-push');
    assert.equal(plan.hits, [{ path, marker }]);
    assert.equal(
      plan.tiers.map((t) => t.run),
      [false, true],
    );
    assert.is(plan.tiers[0]!.skip, 'scope');
  });
}

const plain = ['src/app.py', 'README.md', 'src/testing.py', 'contest.py', 'src/latest/x.ts', 'mytests.txt', 'attest_x.py'];
for (const path of plain) {
  test(`not test-adjacent: ${path}`, () => {
    const plan = route([m(path)], config.tiers, match, 'pre-push');
    assert.equal(plan.hits, []);
    assert.equal(
      plan.tiers.map((t) => t.run),
      [true, true],
    );
  });
}

test('a rename out of tests/ is still test-adjacent (old path counts)', () => {
  const plan = route([{ status: 'R100', from: 'tests/helper.py', path: 'src/helper.py' }], config.tiers, match, 'pre-push');
  assert.equal(plan.files, ['tests/helper.py', 'src/helper.py']);
  assert.equal(plan.hits, [{ path: 'tests/helper.py', marker: '**/tests/**' }]);
  assert.is(plan.tiers[0]!.run, false);
});

test('a rename into tests/ is test-adjacent (new path counts)', () => {
  const plan = route([{ status: 'R090', from: 'src/a.py', path: 'tests/a.py' }], config.tiers, match, 'pre-push');
  assert.equal(
    plan.hits.map((h) => h.path),
    ['tests/a.py'],
  );
});

test('the skip reason names the path, the marker and how many more', () => {
  const plan = route([m('src/x.py'), m('tests/a.py'), m('conftest.py')], config.tiers, match, 'pre-push');
  assert.is(plan.tiers[0]!.reason, 'test-adjacent: tests/a.py matches **/tests/** (and 1 more)');
});

test('a tier not configured for the hook is skipped for that reason, not by scope', () => {
  const cfg = resolveConfig({
    tiers: [
      { name: 'lint', run: 'true', hooks: ['pre-commit'] },
      { name: 'full', run: 'true' },
    ],
  });
  const plan = route([m('src/a.ts')], cfg.tiers, match, 'pre-push');
  assert.equal(
    plan.tiers.map((t) => [t.run, t.skip]),
    [
      [false, 'hook'],
      [true, undefined],
    ],
  );
});

test('custom scope replaces the defaults', () => {
  const custom = scopeMatcher(['e2e/**']);
  const plan = route([m('tests/a.py'), m('e2e/x.ts')], config.tiers, custom, 'pre-push');
  assert.equal(plan.hits, [{ path: 'e2e/x.ts', marker: 'e2e/**' }]);
});

test('an empty change runs every tier and has no hits', () => {
  const plan = route([], config.tiers, match, 'manual');
  assert.equal(plan.files, []);
  assert.equal(
    plan.tiers.map((t) => t.run),
    [true, true],
  );
});

test('one hit: the skip reason names it and no more', () => {
  const plan = route([m('src/x.py'), m('tests/a.py')], config.tiers, match, 'pre-push');
  assert.is(plan.tiers[0]!.reason, 'test-adjacent: tests/a.py matches **/tests/**');
});

test('a rename among plain changes: the renamed file counts both paths, the others one', () => {
  const changes: ChangedPath[] = [m('src/a.py'), { status: 'R100', from: 'src/old.py', path: 'src/new.py' }, m('src/b.py')];
  assert.equal(touchedPaths(changes), ['src/a.py', 'src/old.py', 'src/new.py', 'src/b.py']);
  assert.equal(route(changes, config.tiers, match, 'pre-push').files, ['src/a.py', 'src/old.py', 'src/new.py', 'src/b.py']);
});

test(`a row keeps the first ${MAX_FILES_PER_ROW} paths and counts them all`, () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => m(`src/f${i}.py`));
  const over = route(many(MAX_FILES_PER_ROW + 1), config.tiers, match, 'pre-push');
  assert.is(over.files.length, MAX_FILES_PER_ROW);
  assert.is(over.files.at(-1), `src/f${MAX_FILES_PER_ROW - 1}.py`);
  assert.is(over.fileCount, MAX_FILES_PER_ROW + 1);
  const at = route(many(MAX_FILES_PER_ROW), config.tiers, match, 'pre-push');
  assert.equal([at.files.length, at.fileCount], [MAX_FILES_PER_ROW, MAX_FILES_PER_ROW]);
});

test('paths: a tier runs only when a touched path (deleted or renamed-from too) matches a glob and no `!glob`; a docs-only change skips it', () => {
  const tiers = resolveConfig({
    tiers: [
      { name: 'unit', run: 'true', paths: ['src/**', 'test/**', 'package.json', '!src/**/*.md'] },
      { name: 'any', run: 'true' },
    ],
  }).tiers;
  const runs = (changes: ChangedPath[] | ChangeList) => route(changes, tiers, match, 'pre-push').tiers.map((t) => t.run);
  assert.equal(runs([m('README.md'), m('docs/a.md')]), [false, true]);
  assert.equal(runs([m('src/notes.md')]), [false, true]);
  assert.equal(runs([m('README.md'), m('src/a.js')]), [true, true]);
  assert.equal(runs([{ status: 'D', path: 'package.json' }]), [true, true]);
  assert.equal(runs([{ status: 'R100', from: 'src/old.js', path: 'lib/new.js' }]), [true, true]);
  assert.equal(runs(new ChangeList('M\0docs/x.md\0M\0test/a.test.js\0')), [true, true]);
  assert.equal(runs(new ChangeList('M\0docs/x.md\0')), [false, true]);
  const skipped = route([m('README.md')], tiers, match, 'pre-push').tiers[0]!;
  assert.equal(
    [skipped.skip, skipped.reason],
    ['paths', 'no changed path matches its paths (src/**, test/**, package.json, !src/**/*.md)'],
  );
});

test('a listing (ChangeList) routes as its parsed changes do', () => {
  const text = 'M\0src/a.py\0R100\0tests/old.py\0src/new.py\0A\0conftest.py\0';
  const plan = route(new ChangeList(text), config.tiers, match, 'pre-push');
  assert.equal(plan.files, ['src/a.py', 'tests/old.py', 'src/new.py', 'conftest.py']);
  assert.is(plan.fileCount, 4);
  assert.equal(plan.hits, [
    { path: 'tests/old.py', marker: '**/tests/**' },
    { path: 'conftest.py', marker: '**/conftest.py' },
  ]);
  assert.equal(
    plan.tiers.map((t) => t.run),
    [false, true],
  );
});

test('skipTiers (GATE_LADDER_SKIP): a named tier that would run does not, with its own reason; others, and tiers already skipped, are as they were', () => {
  const plan = route([m('tests/x.py')], config.tiers, match, 'pre-push');
  // t1 is already skipped by t0-scope (test-adjacent); t2 runs.
  assert.equal(
    plan.tiers.map((t) => [t.tier.name, t.run]),
    [
      ['t1-properties', false],
      ['t2-fixtures', true],
    ],
  );
  const skipped = skipTiers(plan, ['t2-fixtures', 't1-properties'], 'GATE_LADDER_SKIP');
  assert.equal(
    skipped.tiers.map((t) => [t.tier.name, t.run, t.skip, t.reason]),
    [
      ['t1-properties', false, plan.tiers[0]!.skip, plan.tiers[0]!.reason],
      ['t2-fixtures', false, 'env', 'GATE_LADDER_SKIP names it'],
    ],
  );
  assert.is(skipped.tiers[1]!.tier, plan.tiers[1]!.tier);
  assert.equal([skipped.files, skipped.fileCount, skipped.hits], [plan.files, plan.fileCount, plan.hits], 'the rest of the plan is kept');
  // Nothing named, or only names of tiers that would not run: the same plan.
  assert.is(skipTiers(plan, [], 'X'), plan);
  assert.is(skipTiers(plan, ['t1-properties', 'nope'], 'X'), plan);
  const clean = route([m('src/a.py')], config.tiers, match, 'pre-push');
  const one = skipTiers(clean, ['t1-properties'], 'X');
  assert.equal(
    one.tiers.map((t) => [t.tier.name, t.run, t.skip ?? null]),
    [
      ['t1-properties', false, 'env'],
      ['t2-fixtures', true, null],
    ],
  );
  assert.is(one.tiers[1], clean.tiers[1], 'an unnamed tier is the same entry');
});

test.run();
