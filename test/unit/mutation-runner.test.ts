/**
 * scripts/stryker-uvu-runner.mjs, the StrykerJS test runner `npm run test:mutation` uses, run on a
 * small uvu test file and a module written the way StrykerJS instruments one (each mutant behind a
 * switch that also counts coverage): the coverage of each test, of a suite's hooks and of a file's
 * top-level code; a mutant killed by the test that reaches it, also when only the file's top-level
 * code does; only the tests that reach it run; a survivor; an endless loop stopped by the hit limit; a
 * static mutant in a fresh process.
 * Each run is a Node process of its own: the runner patches uvu's globals and Object.prototype.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';

// Mutant 0 in the module's top-level code, 1 to 5 in functions; `hit` is StrykerJS's switch.
const SUT = `
const ns = (globalThis.__stryker__ ??= {});
const hit = (id) => {
  const cov = (ns.mutantCoverage ??= { static: {}, perTest: {} });
  const c = ns.currentTestId ? (cov.perTest[ns.currentTestId] ??= {}) : cov.static;
  c[id] = (c[id] ?? 0) + 1;
  if (ns.activeMutant !== id) return false;
  if (ns.hitLimit !== undefined && ++ns.hitCount > ns.hitLimit) throw new Error('Hit limit reached');
  return true;
};
export const LIMIT = hit('0') ? 0 : 10;
export const add = (a, b) => (hit('1') ? a - b : a + b);
export const neg = (a) => (hit('2') ? a : -a);
export const loop = (n) => { let i = 0; while (hit('3') ? true : i < n) i++; return i; };
export const half = (a) => (hit('5') ? Math.trunc(a / 2) : Math.floor(a / 2));
export const unused = () => (hit('4') ? 1 : 2);
`;
const TESTS = `
import { suite, test } from '${pathToFileURL(join(PROJECT, 'scripts', 'mutation-uvu.mjs')).href}';
import * as assert from 'uvu/assert';
import { LIMIT, add, half, loop, neg } from '../sut.js';
const expected = neg(2);
test('adds', () => assert.is(add(1, 2), 3));
test('negates', () => assert.is(expected, -2));
test('limit', () => assert.is(LIMIT, 10));
test('halves', () => assert.is(half(5), 2));
test.run();
const loops = suite('loops');
let counted;
loops.before(() => { counted = loop(3); });
loops('counts', () => assert.is(counted, 3));
loops.run();
`;

/** Runs `body` in a Node process beside the runner `r`, in a folder holding the module and tests. */
function withRunner(body: string): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'gl-mutation-runner-'));
  try {
    symlinkSync(join(PROJECT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'sut.js'), SUT);
    mkdirSync(join(dir, 'unit'));
    writeFileSync(join(dir, 'unit', 'a.test.js'), TESTS);
    const runner = pathToFileURL(join(PROJECT, 'scripts', 'stryker-uvu-runner.mjs')).href;
    const script = `
      const { UvuTestRunner } = await import(${JSON.stringify(runner)});
      const r = new UvuTestRunner({ dir: 'unit', files: ['a'], modules: [${JSON.stringify(join(dir, 'sut.js'))}] });
      await r.init();
      const run = (id, testFilter, mutantActivation = 'runtime') =>
        r.mutantRun({ activeMutant: { id }, testFilter, mutantActivation, timeout: 60000, disableBail: false, hitLimit: 1000 });
      const out = {};
      ${body}
      process.stdout.write('\\n' + JSON.stringify(out));`;
    const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    assert.is(p.status, 0, p.stderr);
    return JSON.parse(p.stdout.trim().split('\n').at(-1) ?? '{}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ADDS = 'a#0 adds';
const ALL = [ADDS, 'a#0 negates', 'a#0 limit', 'a#0 halves', 'a#1 counts'];

test('the first run: each test passes, with what it reaches, its hooks and its file loading included', () => {
  const out = withRunner(`
    const d = await r.dryRun({ coverageAnalysis: 'perTest', timeout: 60000, disableBail: false });
    out.status = d.status;
    out.tests = d.tests.map((t) => [t.id, t.status]);
    out.static = Object.keys(d.mutantCoverage.static);
    out.perTest = Object.fromEntries(Object.entries(d.mutantCoverage.perTest).map(([t, c]) => [t, Object.keys(c).sort()]));`);
  assert.is(out.status, 'complete');
  assert.equal(
    out.tests,
    ALL.map((t) => [t, 0]),
  );
  assert.equal(out.static, ['0']);
  assert.equal(out.perTest, {
    'a#0 adds': ['1', '2'],
    'a#0 negates': ['2'],
    'a#0 limit': ['2'],
    'a#0 halves': ['2', '5'],
    'a#1 counts': ['2', '3'],
  });
});

test('a mutant run: killed in a test, in the file top-level code, in a hook; a survivor; a loop stopped', () => {
  const out = withRunner(`
    out.m1 = await run('1', ['${ADDS}']);
    out.m2 = await run('2', ${JSON.stringify(ALL)});
    out.m5 = await run('5', ['a#0 halves']);
    out.m3 = await run('3', ['a#1 counts']);
    out.again = await run('1', ['${ADDS}']);
    out.after = await run('4', ${JSON.stringify(ALL)});`);
  const m1 = out.m1 as { status: string; killedBy: string[]; failureMessage: string; nrOfTests: number };
  assert.is(m1.status, 'killed');
  assert.equal(m1.killedBy, [ADDS]);
  assert.match(m1.failureMessage, 'adds');
  assert.is(m1.nrOfTests, 1, 'the test that reaches the mutant runs, not the others');
  assert.equal(out.m2, {
    status: 'killed',
    killedBy: ['a#0 negates'],
    failureMessage: (out.m2 as { failureMessage: string }).failureMessage,
    nrOfTests: 4,
  });
  assert.equal(out.m5, { status: 'survived', nrOfTests: 1 });
  assert.is((out.m3 as { status: string }).status, 'timeout');
  assert.equal((out.again as { killedBy: string[] }).killedBy, [ADDS]);
  assert.equal(out.after, { status: 'survived', nrOfTests: 5 }, 'after a mutant, the suites pass again');
});

test('a static mutant, in a fresh process: on while the modules load, every suite run', () => {
  const out = withRunner(`out.m0 = await run('0', undefined, 'static');`);
  const m0 = out.m0 as { status: string; killedBy: string[] };
  assert.is(m0.status, 'killed');
  assert.equal(m0.killedBy, ['a#0 limit']);
});

test.run();
