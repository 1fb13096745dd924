import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { argPath, changedEnv, changedGlobs, expandChanged, presentPaths, usesChanged } from '../../src/route/changed.js';
import { shellWord } from '../../src/util/shell-words.js';
import { route, scopeMatcher } from '../../src/route/route.js';
import { resolveConfig } from '../../src/config/load.js';
import { defaultScope } from '../../src/config/defaults.js';
import { ChangeList, type ChangedPath } from '../../src/git/change-list.js';
import { planLines } from '../../src/run/messages.js';

const odd = [`src/it's a "file".ts`, 'src/$HOME `id`.ts', 'src/new\nline.ts', '-rf', 'src/-x.ts', 'src/a b/c.ts', 'src/*.ts', 'a=b'];

test('placeholders: {changed}, {changed:GLOB} (braces inside), an unclosed one is text', () => {
  assert.equal(changedGlobs('eslint {changed} && tsc {changed:src/**/*.{ts,tsx}}'), [undefined, 'src/**/*.{ts,tsx}']);
  assert.equal(changedGlobs(['jest', '--findRelatedTests', '{changed}']), [undefined]);
  assert.is(usesChanged('echo {changed:src/{a,b'), false);
  assert.is(usesChanged('echo {changes}'), false);
  assert.is(usesChanged('echo {changed:}'), false);
  assert.is(usesChanged(['x', '{changed:**/*.py}']), true);
});

test('present paths: deleted ones are left out, a rename or copy keeps its new path', () => {
  const changes: ChangedPath[] = [
    { status: 'M', path: 'src/a.ts' },
    { status: 'D', path: 'src/gone.ts' },
    { status: 'R100', path: 'src/new.ts', from: 'src/old.ts' },
    { status: 'C75', path: 'src/copy.ts', from: 'src/a.ts' },
    { status: 'A', path: 'src/added.ts' },
    { status: 'T', path: 'link' },
  ];
  assert.equal(presentPaths(changes), ['src/a.ts', 'src/new.ts', 'src/copy.ts', 'src/added.ts', 'link']);
  const listing = new ChangeList('M\0src/a.ts\0D\0src/gone.ts\0R090\0src/old.ts\0src/new.ts\0');
  assert.equal(presentPaths(listing), ['src/a.ts', 'src/new.ts']);
});

test('a path as an argument: relative to the tier cwd, a leading - never an option', () => {
  assert.is(argPath('src/a.ts', '.'), 'src/a.ts');
  assert.is(argPath('-rf', '.'), './-rf');
  assert.is(argPath('packages/a/src/x.ts', 'packages/a'), 'src/x.ts');
  assert.is(argPath('packages/a/-x.ts', 'packages/a/'), './-x.ts');
  assert.is(argPath('README.md', 'packages/a'), '../../README.md');
});

// What /bin/sh makes of a quoted word is the test: each odd path comes back as exactly one argument.
test('a string command: each path one shell-quoted word, read back by /bin/sh exactly', () => {
  const x = expandChanged(`node -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' {changed}`, odd, '.');
  assert.ok('run' in x);
  const argv = JSON.parse(execFileSync('/bin/sh', ['-c', x.run as string], { encoding: 'utf8' })) as string[];
  assert.equal(
    argv,
    odd.map((p) => (p.startsWith('-') ? `./${p}` : p)),
  );
  for (const p of odd) assert.ok(!shellWord(p).startsWith('-'), p);
});

test('an array command: an element holding the placeholder becomes one element per path', () => {
  const x = expandChanged(
    ['jest', '--findRelatedTests', '{changed:src/**}', '--file={changed:**/*.md}'],
    ['src/a.ts', 'README.md', 'src/b c.ts', 'src/-d.ts'],
    '.',
  );
  assert.equal(x, { run: ['jest', '--findRelatedTests', 'src/a.ts', 'src/b c.ts', 'src/-d.ts', '--file=README.md'] });
});

test('a glob filters with the config glob semantics (dot files too); an empty list names its glob', () => {
  const paths = ['src/a.ts', 'src/.hidden.ts', 'src/deep/b.tsx', 'lib/c.ts', 'docs/x.md'];
  assert.equal(expandChanged(['x', '{changed:src/**/*.{ts,tsx}}'], paths, '.'), {
    run: ['x', 'src/a.ts', 'src/.hidden.ts', 'src/deep/b.tsx'],
  });
  assert.equal(expandChanged('x {changed:**/*.py}', paths, '.'), { empty: '**/*.py' });
  assert.equal(expandChanged('x {changed}', [], '.'), { empty: undefined });
  // Several placeholders: any empty one makes the command empty (a tool handed no path checks everything).
  assert.equal(expandChanged('eslint {changed:**/*.ts} && prettier {changed:**/*.py}', paths, '.'), { empty: '**/*.py' });
});

test('GATE_LADDER_CHANGED: one path a line, relative to the cwd; unset when past what an environment string may hold', () => {
  assert.is(changedEnv(['src/a.ts', '-x', 'b c'], '.'), 'src/a.ts\n./-x\nb c');
  assert.is(changedEnv([], '.'), '');
  assert.is(
    changedEnv(
      Array.from({ length: 20_000 }, (_, i) => `src/file-${i}.ts`),
      '.',
    ),
    undefined,
  );
});

const tiers = resolveConfig({
  tiers: [
    { name: 't1-related', run: 'node check.mjs {changed:src/**}', skipWhenTestAdjacent: true },
    { name: 't2-all', run: 'true' },
  ],
}).tiers;
const match = scopeMatcher(defaultScope);

test('route: a tier whose filtered list is empty is skipped with that reason; the others run', () => {
  const plan = route(
    [
      { status: 'M', path: 'docs/a.md' },
      { status: 'D', path: 'src/gone.ts' },
    ],
    tiers,
    match,
    'pre-push',
  );
  assert.equal(
    plan.tiers.map((t) => [t.tier.name, t.run, t.skip, t.reason]),
    [
      ['t1-related', false, 'changed', 'no changed path matches src/**'],
      ['t2-all', true, undefined, undefined],
    ],
  );
});

test('route: the running tier carries its expanded command; the configured one is kept; --dry-run shows it', () => {
  const plan = route([{ status: 'M', path: `src/it's a "file".ts` }], tiers, match, 'pre-push');
  const t = plan.tiers[0]!;
  assert.is(t.run, true);
  assert.is(t.command, `node check.mjs 'src/it'\\''s a "file".ts'`);
  assert.is(t.tier.run, 'node check.mjs {changed:src/**}');
  assert.is(plan.tiers[1]!.command, undefined);
  assert.ok(planLines(plan).includes(`       command: node check.mjs 'src/it'\\''s a "file".ts'`), planLines(plan).join('\n'));
});

test('route: a test-adjacent change skips the tier as t0-scope does, before its list is looked at', () => {
  const plan = route([{ status: 'M', path: 'src/a.test.ts' }], tiers, match, 'pre-push');
  assert.is(plan.tiers[0]!.skip, 'scope');
});

test.run();
