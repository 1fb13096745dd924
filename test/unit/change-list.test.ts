import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChangeList, parseNameStatusZ } from '../../src/git/change-list.js';
import { defaultScope } from '../../src/config/defaults.js';
import { route, scopeHits, scopeMatcher, touchedPaths } from '../../src/route/route.js';
import type { ResolvedTier } from '../../src/config/resolved.js';

/** Paths on the edges of the default markers and of the status letters git prints. */
const names = [
  'a',
  'M',
  'A',
  'D',
  'R100',
  'tests',
  'test',
  'fixtures',
  '__tests__',
  'conftest.py',
  'test_x.py',
  'a.test.js',
  '.test.',
  'a.spec.ts',
  'vitest.config.ts',
  'jest.setup.js',
  'xjest.setup.js',
  'tests.txt',
  'a b',
  'ümlaut.test.ts',
  'src',
  'x\ny',
  'README.md',
];
const paths: string[] = [];
for (const a of names) {
  paths.push(a);
  for (const b of names) paths.push(`${a}/${b}`, `src/${a}/${b}`);
}

/** A listing as git writes it: `status NUL path NUL`, renames and copies with both paths. */
function listing(entries: [string, ...string[]][]): string {
  return entries.map((e) => `${e.join('\0')}\0`).join('');
}

const statuses = ['M', 'A', 'D', 'T', 'R100', 'C075'];
const entries: [string, ...string[]][] = paths.map((p, i) => {
  const status = statuses[i % statuses.length]!;
  return status.startsWith('R') || status.startsWith('C') ? [status, paths[(i * 7) % paths.length]!, p] : [status, p];
});
const small = listing(entries);
// Long enough to be scanned whole (ChangeList scans listings of 64 KB and more).
const big = small.repeat(Math.ceil((64 * 1024) / small.length) + 1);

const scopes: string[][] = [
  [...defaultScope],
  // Globs that would also match a status field: the listing's walk must pass over those.
  ['M', '**/M', 'R100', '**/A/**', '*.py'],
  ['**/tests/**', 'src/**', '**/*test*'],
  // Not every glob has a shortcut: every path is tested one by one.
  ['**/[ab]', '**/tests/**'],
];

for (const [size, text] of [
  ['short', small],
  ['long', big],
] as const)
  for (const scope of scopes) {
    test(`${size} listing: hits, count and paths agree with the split listing: ${scope.slice(0, 3).join(' ')}`, () => {
      const match = scopeMatcher(scope);
      const list = new ChangeList(text);
      const all = touchedPaths(parseNameStatusZ(text));
      assert.is(list.count, all.length);
      assert.equal(list.paths(), all);
      assert.equal(list.paths(5), all.slice(0, 5));
      assert.equal(list.hits(match), scopeHits(all, match));
    });
  }

test('a scope whose globs all have shortcuts scans the listing; one with a picomatch glob does not', () => {
  assert.ok(scopeMatcher(defaultScope).scanner() instanceof RegExp);
  assert.is(scopeMatcher(['**/[ab]', '**/tests/**']).scanner(), undefined);
});

test('a status letter that a glob matches is not a hit; the path with that name is', () => {
  const match = scopeMatcher(['M']);
  assert.equal(
    new ChangeList(
      listing([
        ['M', 'src/a.ts'],
        ['A', 'M'],
      ]),
    ).hits(match),
    [{ path: 'M', marker: 'M' }],
  );
  assert.equal(new ChangeList(listing([['M', 'src/a.ts']])).hits(match), []);
});

test('empty listing, a stray NUL, and a listing without its last NUL', () => {
  const match = scopeMatcher(defaultScope);
  assert.is(new ChangeList('').count, 0);
  assert.equal(new ChangeList('').hits(match), []);
  const odd = new ChangeList('\0M\0tests/a.py\0A\0src/b.ts');
  assert.equal(odd.paths(), ['tests/a.py', 'src/b.ts']);
  assert.equal(odd.hits(match), [{ path: 'tests/a.py', marker: '**/tests/**' }]);
});

test('route gives the same plan from a listing as from its objects, and keeps at most 1000 paths', () => {
  const tiers = [
    { name: 't1', run: 'true', skipWhenTestAdjacent: true, hooks: ['pre-push'] },
    { name: 't2', run: 'true', hooks: ['pre-push'] },
  ] as unknown as ResolvedTier[];
  const match = scopeMatcher(defaultScope);
  const big = listing(
    Array.from({ length: 2500 }, (_, i) => ['M', i === 2400 ? 'pkg/tests/late.py' : `pkg/src/f${i}.ts`] as [string, string]),
  );
  const fromList = route(new ChangeList(big), tiers, match, 'pre-push');
  const fromObjects = route(parseNameStatusZ(big), tiers, match, 'pre-push');
  // `present` is a function (the paths still there, listed when asked): compared by what it gives.
  const { present: presentList, ...listPlan } = fromList;
  const { present: presentObjects, ...objectPlan } = fromObjects;
  assert.equal(listPlan, objectPlan);
  assert.equal(presentList!(), presentObjects!());
  assert.is(fromList.fileCount, 2500);
  assert.is(fromList.files.length, 1000);
  assert.equal(fromList.hits, [{ path: 'pkg/tests/late.py', marker: '**/tests/**' }]);
  assert.is(fromList.tiers[0]!.run, false);
});

test.run();
