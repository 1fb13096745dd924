import picomatch from 'picomatch';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultScope } from '../../src/config/defaults.js';
import { compileGlob, isScopePlan, parts, planScope, shortcut } from '../../src/util/glob.js';
import { scopeMatcher } from '../../src/route/route.js';

/** Paths as git prints them, chosen to sit on every edge of the shortcut shapes. */
const names = [
  'a',
  'tests',
  'test',
  'fixtures',
  '__tests__',
  '__snapshots__',
  'conftest.py',
  'pytest.ini',
  'tox.ini',
  'test_x.py',
  'test_',
  'x_test_y',
  'a.test.js',
  '.test.',
  'a.test',
  'test.a',
  'a.spec.ts',
  'spec',
  'vitest.config.ts',
  'vite.config.mjs',
  'jest.config.',
  'jest.config',
  'vitest.workspace.js',
  'vitest.setup.ts',
  'jest.setup.js',
  'xjest.setup.js',
  '.hidden',
  '.tests',
  'tests.txt',
  'fixtures.json',
  'a b',
  'ümlaut.test.ts',
  'src',
  'pkg',
  'node_modules',
  'x.py',
  '.py',
  'README.md',
  'integration_tests',
  '_tests',
  'e2e-tests',
  '-tests',
  'tests_',
  'tests_e2e',
  'testdata',
  '__mocks__',
  'a_test.go',
  'a_test',
  'b_spec.rb',
  '_spec.rb',
  'pyproject.toml',
  'setup.cfg',
  'latest',
  'contests',
  'protest.py',
  'attestation.ts',
  'tests-x',
];
const paths = new Set<string>();
for (const a of names) {
  paths.add(a);
  for (const b of names) {
    paths.add(`${a}/${b}`);
    paths.add(`src/${a}/${b}`);
    paths.add(`${a}/deep/er/${b}`);
  }
}
// Under mutation testing (GL_MUTATION=1, set by scripts/stryker-uvu-runner.mjs) a fifteenth of the paths: a mutant of the matcher reaches every comparison test.
if (process.env.GL_MUTATION === '1') for (const [i, p] of [...paths].entries()) if (i % 15 !== 0 && p.includes('/')) paths.delete(p);

const extra = [
  'tests/**',
  'src/test/**',
  'README.md',
  '**/src/tests',
  '*.py',
  'test_*',
  '*test*',
  '**/*.py',
  'docs/**',
  '**/*test*/**',
  '**/{tests,fixtures}/**',
  '{a,b}.txt',
  'src/*.ts',
  '**/*',
  '**/[abc].txt',
  '!**/x',
  '**/a?b',
  '**/{vitest,jest}.config.{js,ts}',
  // The edges of each shortcut shape: path-anchored directories, prefixes and suffixes; one-character
  // stars; braces that are not one plain group.
  'src/**',
  'tests/**',
  'test*',
  '*.py',
  '*.md',
  '*test',
  '**/*test',
  '**/test*',
  '*',
  '**',
  '**/*',
  '*/**',
  '**/**',
  '{a}',
  '{tests}/**',
  '{,tests}/**',
  '{tests,}/**',
  '{a..c}.txt',
  '}{a,b}',
  '{a,b}{c,d}',
  '{a,b',
  'a,b}',
  '**/{a,b}',
  '**/{tests,src}/**',
  '{src,tests}/**',
  '{test_*,*.py}',
  '**/{*.spec.*,x}',
  'src/tests',
  'test',
  '**/te*st/**',
  '**/*/a',
];

for (const glob of [...defaultScope, ...extra]) {
  test(`${glob}: the same answers as picomatch on ${paths.size} paths`, () => {
    const ours = compileGlob(glob);
    const theirs = picomatch(glob, { dot: true });
    const wrong = [...paths].filter((p) => ours(p) !== theirs(p));
    assert.equal(wrong.slice(0, 5), [], `${glob} disagrees on ${wrong.length} paths`);
  });
}

for (const glob of [...defaultScope, ...extra].filter((g) => shortcut(g) !== undefined)) {
  test(`${glob}: every path it matches contains one of its literal texts (what a listing is scanned for)`, () => {
    const one = new RegExp(shortcut(glob)!);
    const literals = parts(glob)!.map((p) => p.literal);
    const wrong = [...paths].filter((p) => one.test(p) && !literals.some((l) => p.includes(l)));
    assert.equal(wrong.slice(0, 5), [], `${glob}: ${wrong.length} matching paths without ${literals.join(', ')}`);
  });
}

/**
 * The one difference from picomatch found so far (docs/testing.md): a name that is only a dot, the literal and
 * a dot, such as `.test.`, matches `**∕*.test.*` in picomatch but not the same star inside a brace group.
 * Ours answers both as picomatch answers the glob without braces.
 */
test('a brace group answers like its alternatives alone, where picomatch differs on `.test.`', () => {
  assert.is(picomatch('**/*.test.*', { dot: true })('a/.test.'), true);
  assert.is(picomatch('**/{*.test.*,x}', { dot: true })('a/.test.'), false);
  for (const p of ['a/.test.', '.test.', 'a/b.test.c', 'x', 'a/x']) assert.is(compileGlob('**/{*.test.*,x}')(p), true, p);
  assert.is(compileGlob('**/{*.test.*,x}')('a/xy'), false);
});

test('every default scope glob has a string shortcut, so a push never loads picomatch for them', () => {
  assert.equal(
    defaultScope.filter((g) => shortcut(g) === undefined),
    [],
  );
});

test('globs with character classes, extglobs, negation or nested braces fall back to picomatch', () => {
  for (const g of ['**/[abc].txt', '**/a?b', '!**/x', '**/*.+(js|ts)', '**/{a,{b,c}}/**', 'src/*.ts', '**/*'])
    assert.is(shortcut(g), undefined, g);
});

/**
 * Odd characters are ordinary characters to a glob: a path that has them must get the answer picomatch
 * gives the same path with each of them replaced by a plain letter. For every glob, those answered by a
 * shortcut and those answered by picomatch alike (picomatch's own `.` stops at a newline).
 */
const ODD = ['\n', '\r', '\t', '\u0001', '\u007f', '"', "'", ' ', 'é', 'ファ'];
const oddPaths: [string, string][] = [];
for (const p of paths) {
  if (!p.includes('/')) continue;
  for (const [i, c] of ODD.entries()) {
    // the odd character inside a name, and as a whole name of its own
    const at = (p.length * (i + 1)) % p.length;
    if (p[at] === '/' || p[at - 1] === '/') continue;
    oddPaths.push([`${p.slice(0, at)}${c}${p.slice(at)}`, `${p.slice(0, at)}${'x'.repeat(c.length)}${p.slice(at)}`]);
  }
}
// Under mutation testing a quarter of them: each odd character still sits in every position kind.
if (process.env.GL_MUTATION === '1') oddPaths.splice(0, oddPaths.length, ...oddPaths.filter((_, i) => i % 4 === 0));

for (const glob of [...defaultScope, ...extra]) {
  test(`${glob}: odd characters in ${oddPaths.length} paths are ordinary characters`, () => {
    const ours = compileGlob(glob);
    const theirs = picomatch(glob, { dot: true });
    const wrong = oddPaths.filter(([odd, plain]) => ours(odd) !== theirs(plain)).map(([odd]) => JSON.stringify(odd));
    assert.equal(wrong.slice(0, 5), [], `${glob} disagrees on ${wrong.length} paths`);
  });
}

test('the scope matcher treats odd characters as ordinary ones too', () => {
  for (const scope of [[...defaultScope], [...extra, ...defaultScope]]) {
    const match = scopeMatcher(scope);
    const theirs = scope.map((g) => ({ g, t: picomatch(g, { dot: true }) }));
    const wrong = oddPaths.filter(([odd, plain]) => match(odd) !== theirs.find((x) => x.t(plain))?.g).map(([odd]) => JSON.stringify(odd));
    assert.equal(wrong.slice(0, 5), [], `${wrong.length} paths differ`);
  }
});

test('a newline in a path does not hide a test-adjacent file (picomatch`s `.` would)', () => {
  const match = scopeMatcher(defaultScope);
  assert.is(match('tests/we\nird.txt'), '**/tests/**');
  assert.is(match('odd\ndir/a.test.js'), '**/*.test.*');
});

test('scopeMatcher names the first glob picomatch matches, for the default scope and a mixed one, on every edge path', () => {
  for (const scope of [[...defaultScope], [...extra, ...defaultScope]]) {
    const match = scopeMatcher(scope);
    const theirs = scope.map((g) => ({ g, t: picomatch(g, { dot: true }) }));
    const wrong = [...paths].filter((p) => match(p) !== theirs.find((x) => x.t(p))?.g);
    assert.equal(wrong.slice(0, 5), [], `${wrong.length} paths differ`);
  }
});

test('a scope plan read back from a cache (JSON) makes the same matcher; one that does not fit the scope is refused', () => {
  for (const scope of [[...defaultScope], [...extra, ...defaultScope]]) {
    const plan = JSON.parse(JSON.stringify(planScope(scope))) as unknown;
    assert.ok(isScopePlan(plan, scope));
    const cached = scopeMatcher(scope, plan as ReturnType<typeof planScope>);
    const fresh = scopeMatcher(scope);
    const wrong = [...paths].filter((p) => cached(p) !== fresh(p));
    assert.equal(wrong.slice(0, 5), [], `${wrong.length} paths differ`);
    assert.is(cached.scanner()?.source, fresh.scanner()?.source);
  }
  const plan = planScope(defaultScope);
  assert.not.ok(isScopePlan(plan, [...defaultScope, '**/e2e/**']), 'one source per glob');
  assert.not.ok(isScopePlan({ ...plan, sources: plan.sources.map(() => 1) }, defaultScope));
  assert.not.ok(isScopePlan({ sources: plan.sources }, defaultScope));
  assert.not.ok(isScopePlan(null, defaultScope));
});

test('scopeMatcher names the first marker that matches, in scope order', () => {
  const match = scopeMatcher(['**/*.test.*', '**/tests/**']);
  assert.is(match('tests/a.test.ts'), '**/*.test.*');
  assert.is(match('tests/a.ts'), '**/tests/**');
  assert.is(match('src/a.ts'), undefined);
});

test('the listing scanner: the literals no other literal is inside, as one global expression, made once; none when picomatch answers a glob', () => {
  const match = scopeMatcher(['**/fixtures/**', '**/*.spec.*', 'docs/**', '**/tests/**', '**/test/**', '**/*.test.*']);
  const scanner = match.scanner();
  assert.is(scanner?.source, 'fixtures|\\.spec\\.|docs|test');
  assert.is(scanner?.flags, 'g');
  assert.is(match.scanner(), scanner);
  assert.is(scopeMatcher(['**/tests/**', '**/[ab]']).scanner(), undefined);
});

test('a scope plan: one shortcut per glob that has one (null for picomatch), and their literals once each', () => {
  assert.ok(planScope(defaultScope).sources.every((s) => typeof s === 'string'));
  const plan = planScope(['**/[ab]', '**/tests/**', 'tests/**', '{a,b}.txt']);
  assert.equal(plan.sources, [null, '(?:^|/)tests(?:/|$)', '^tests(?:/|$)', '^a\\.txt$|^b\\.txt$']);
  assert.equal(plan.literals, ['tests', 'a.txt', 'b.txt']);
  assert.not.ok(isScopePlan(undefined, defaultScope));
  assert.not.ok(isScopePlan('plan', defaultScope));
  const good = planScope(defaultScope);
  assert.not.ok(isScopePlan({ ...good, sources: [...good.sources.slice(1), 1] }, defaultScope), 'one source not a string');
  assert.not.ok(isScopePlan({ ...good, literals: [...good.literals, 1] }, defaultScope), 'one literal not a string');
  assert.not.ok(isScopePlan({ sources: good.sources, literals: 'tests' }, defaultScope));
  assert.ok(isScopePlan({ sources: [null, 'x'], literals: [] }, ['**/[ab]', 'x']));
});

test('the shapes docs/performance.md promises a shortcut for have one; other shapes, and braces that are not one plain group, do not', () => {
  const shaped = [
    '**/conftest.py',
    '**/tests/**',
    '**/test_*',
    '**/*test*',
    '**/*.py',
    'tests/**',
    'test_*',
    '*test*',
    '*.py',
    'README.md',
    'src/tests',
    '{a,b}.txt',
    '**/{tests,fixtures}/**',
    'a*',
    '*a',
    '**/a*',
    '**/*a',
    '*ab*',
  ];
  assert.equal(
    shaped.filter((g) => shortcut(g) === undefined),
    [],
  );
  const other = [
    '',
    '**/',
    '*',
    '**',
    '**/*',
    '*/**',
    'a}',
    'a,b}',
    '{a,b',
    '}{a,b}',
    '{a,b}}',
    '{{a,b}}',
    '{a}',
    '{,a}',
    '{a,}',
    '{a..c}.txt',
    '{a..c,d}.txt',
    'src/*.ts',
    '**/src/*.ts',
    '**/*/a',
    '**/te*st/**',
    '**/[ab]',
    '**//**',
    'a/**/b',
  ];
  assert.equal(
    other.filter((g) => shortcut(g) !== undefined),
    [],
  );
  // The alternatives of a group keep their place: a top-level name, or any segment.
  assert.is(shortcut('{a,b}.txt'), '^a\\.txt$|^b\\.txt$');
  assert.is(shortcut('**/*.{py,pyi}'), '(?:^|/)[^/]*\\.py$|(?:^|/)[^/]*\\.pyi$');
  assert.is(shortcut('*.py'), '^[^/]*\\.py$');
  assert.is(shortcut('test*'), '^test[^/]*$');
});

test.run();
