/**
 * verdict/output-failures.ts: which runner reads a caught gate's failed tests from its output, and from
 * which folder: each caught workspace's own runner from its folder (a workspaces run), the runner the
 * tier names or runs, else the runner whose summary counted the failures (a script that runs its tests
 * itself); go's package folders and cargo's files as handed in.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectRunner, type Workspaces } from '../../src/runners/detect.js';
import type { WorkspacePackage } from '../../src/runners/workspaces.js';
import { failuresInOutput, type OutputFailuresInput } from '../../src/verdict/output-failures.js';
import { allRecords } from '../../src/runners/index.js';
import { MAX_FAILURES_READ } from '../../src/verdict/runner-output.js';

await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const fixture = (path: string) => readFileSync(resolve(FIXTURES, path), 'utf8');

const plain = (tail: string, o: Partial<OutputFailuresInput> = {}): OutputFailuresInput => ({
  tier: { cwd: '.', timeout: 30 },
  root: '/x',
  tail,
  exitCode: 1,
  caught: [1],
  output: { detection: { managers: ['npm'], words: [] } },
  ...o,
});

const ids = (input: OutputFailuresInput) => failuresInOutput(input).failures.map((f) => [f.id, f.file ?? null]);

test('the named runner reads them, from the tier folder', () => {
  const mocha = fixture('failures/mocha/caught.txt');
  assert.equal(ids(plain(mocha, { runner: 'mocha', tier: { cwd: 'pkg', timeout: 30 } })), [
    ['pkg/test/math.test.js::throws', 'pkg/test/math.test.js'],
    ['pkg/test/math.test.js::math > adds', 'pkg/test/math.test.js'],
  ]);
});

test('no runner named: the runner whose summary counted the failures reads them; none counted, none read', () => {
  const mocha = fixture('failures/mocha/caught.txt');
  assert.equal(ids(plain(mocha)), ids(plain(mocha, { runner: 'mocha' })));
  assert.equal(ids(plain('something failed\n')), []);
});

test('go: the package folders handed in make the files repository-relative; without them, no file', () => {
  const go = fixture('failures/go/caught.txt');
  const dirs = (base: string) => (pkg: string) => (pkg.startsWith('example.com/m/') ? `${base}/${pkg.slice(14)}` : undefined);
  assert.equal(ids(plain(go, { runner: 'go', packageDirs: dirs })), [
    ['example.com/m/math::TestAdds', 'math/math_test.go'],
    ['example.com/m/math::TestSub/inner', 'math/math_test.go'],
  ]);
  assert.equal(ids(plain(go, { runner: 'go' })), [
    ['example.com/m/math::TestAdds', null],
    ['example.com/m/math::TestSub/inner', null],
  ]);
});

test("a workspaces run: each caught workspace's failed tests, by its own runner, from its folder", () => {
  const packages: WorkspacePackage[] = [
    { dir: 'packages/a', name: 'a', id: 'a@1.0.0', scripts: { test: 'node --test' } },
    { dir: 'packages/b', name: 'b', id: 'b@1.0.0', scripts: { test: 'node_modules/.bin/mocha b.test.js' } },
    { dir: 'packages/c', name: 'c', id: 'c@1.0.0', scripts: { test: 'node --test' } },
    { dir: 'packages/d', name: 'd', id: 'd@1.0.0', scripts: {} },
    { dir: 'packages/e', name: '@s/e', scripts: { test: 'node --test' } },
  ];
  const ws: Workspaces = { root: { dir: '.', name: 'root', id: 'root@1.0.0', scripts: { test: 'npm test --workspaces' } }, list: packages };
  const detection = detectRunner(
    'npm test --workspaces',
    undefined,
    () => ws.root.scripts,
    undefined,
    () => ws,
  );
  const got = ids(plain(fixture('runners/npm-workspaces/npm11-workspaces.txt'), { output: { detection, caughtByRunner: true } }));
  assert.ok(got.length > 0, 'some read');
  for (const [id, file] of got) {
    assert.ok(String(id).startsWith('packages/b/'), String(id));
    assert.ok(file === null || String(file).startsWith('packages/b/'), String(file));
  }
});

test('many failures: the list stops at MAX_FAILURES_READ, the total is what the summary counts (or the ids named, when more)', () => {
  const body = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `  ${i + 1}) case ${i}:\n     AssertionError: ${i}\n      at Context.<anonymous> (test/a.test.js:${i + 1}:1)\n`,
    ).join('\n');
  // 300 failed, the output kept names the last 120 of them (the rest fell out of its last 64 kB).
  const cut = `  0 passing (5ms)\n  300 failing\n\n${body(120)}`;
  const got = failuresInOutput(plain(cut, { runner: 'mocha' }));
  assert.is(got.failures.length, MAX_FAILURES_READ);
  assert.is(got.total, 300);
  // A summary that counts fewer than the output names: the ids named.
  const named = failuresInOutput(plain(`  0 passing (5ms)\n  7 failing\n\n${body(120)}`, { runner: 'mocha' }));
  assert.is(named.failures.length, MAX_FAILURES_READ);
  assert.is(named.total, 120);
  // Few: the list holds them all.
  const few = failuresInOutput(plain(`  0 passing (5ms)\n  2 failing\n\n${body(2)}`, { runner: 'mocha' }));
  assert.equal([few.failures.length, few.total], [2, 2]);
});

test.run();
