/**
 * scripts/test.mjs, the suite's runner, on suites of its own: a test that never ends is stopped after
 * the time limit and named, with what it started; the other Nodes run only the Node-sensitive files.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { PROJECT, cleanEnv, leftAfter, ownSleep, sh } from '../helpers/repo.js';

const UVU = `${PROJECT}/node_modules/uvu/dist/index.mjs`;

/** A folder named `unit` (one job, and no packed install made for it) holding these test files. */
function suite(files: Record<string, string>): { dir: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'gl-runner-'));
  const dir = join(root, 'unit');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, done: () => rmSync(root, { recursive: true, force: true }) };
}

test('a test that never ends fails, named with its file, and what it started is stopped; a test that waits in spawnSync too', async () => {
  const blocked = (k: number) => `import { spawnSync } from 'node:child_process';
import { test } from '${UVU}';
test('blocked in a child', () => { spawnSync('sleep', ['${ownSleep(k)}']); });
test.run();
`;
  // Two suites at once (each run waits out its limit): one whose first file waits forever, one whose only file waits in a child.
  const one = suite({
    'a.test.js': `import { test } from '${UVU}';
test('ends', () => {});
test('waits forever', () => new Promise(() => setInterval(() => {}, 1000)));
test.run();
`,
    'b.test.js': blocked(0),
  });
  const two = suite({ 'b.test.js': blocked(1) });
  const runner = (dir: string) =>
    execa(process.execPath, ['scripts/test.mjs', dir], {
      cwd: PROJECT,
      env: cleanEnv({ GL_TEST_TIMEOUT_S: '2', NO_COLOR: '1' }),
      extendEnv: false,
      timeout: 120_000,
      reject: false,
    });
  try {
    const [first, second] = await Promise.all([runner(one.dir), runner(two.dir)]);
    const out = (r: typeof first) => `${r.stdout}\n${r.stderr}`;
    assert.is(first.exitCode, 1, out(first));
    assert.match(String(first.stdout), 'a.test.js › waits forever: did not end within 2 s (GL_TEST_TIMEOUT_S)');
    assert.match(String(first.stdout), '0 passed, 1 failed');
    assert.equal(leftAfter(new RegExp(`^sleep ${ownSleep(0)}$`)), []);
    assert.is(second.exitCode, 1, out(second));
    assert.match(String(second.stdout), 'b.test.js › blocked in a child: did not end within 2 s');
    assert.equal(leftAfter(new RegExp(`^sleep ${ownSleep(1)}$`)), [], 'the sleep it started was stopped with it');
  } finally {
    one.done();
    two.done();
  }
});

test('a Node named in GATE_LADDER_TEST_NODES_SOME runs only the Node-sensitive files; one in GATE_LADDER_TEST_NODES runs all', () => {
  const s = suite({ 'a.test.js': `import { test } from '${UVU}';\ntest('runs', () => {});\ntest.run();\n` });
  const other = join(s.dir, '..', 'other-node');
  symlinkSync(process.execPath, other);
  try {
    // Neither list inherited from the run around this one (.ci/run sets both).
    const some = sh(process.execPath, ['scripts/test.mjs', s.dir], PROJECT, {
      env: { GATE_LADDER_TEST_NODES: '', GATE_LADDER_TEST_NODES_SOME: other, NO_COLOR: '1' },
    });
    assert.is(some.code, 0, some.out);
    assert.match(some.stdout, '(the Node-sensitive tests): 0 passed, 0 failed');
    assert.match(some.stdout, '\n1 passed, 0 failed');
    const all = sh(process.execPath, ['scripts/test.mjs', s.dir], PROJECT, {
      env: { GATE_LADDER_TEST_NODES: other, GATE_LADDER_TEST_NODES_SOME: '', NO_COLOR: '1' },
    });
    assert.is(all.code, 0, all.out);
    assert.match(all.stdout, '\n2 passed, 0 failed');
  } finally {
    s.done();
  }
});

test("the fast set's picked tests: the titles GL_TEST_KEEP begins run, the others are skipped, a beginning no title has fails the file", () => {
  const sets = `${PROJECT}/build/test/helpers/sets.js`;
  const s = suite({
    'a.test.js': `import { test } from '${sets}';\ntest('kept one', () => {});\ntest('left out', () => { throw new Error('ran'); });\ntest.run();\n`,
  });
  const file = join(s.dir, 'a.test.js');
  const run = (env: Record<string, string>) => sh(process.execPath, [file], PROJECT, { env: { NO_COLOR: '1', ...env } });
  try {
    const fast = run({ GL_TEST_SET: 'fast', GL_TEST_KEEP: JSON.stringify(['kept']) });
    assert.is(fast.code, 0, fast.out);
    assert.match(fast.stdout, /Total:\s+1\n\s+Passed:\s+1\n\s+Skipped:\s+1/);
    const renamed = run({ GL_TEST_SET: 'fast', GL_TEST_KEEP: JSON.stringify(['kept', 'gone']) });
    assert.is(renamed.code, 1, renamed.out);
    assert.match(renamed.stdout, 'scripts/test.mjs FAST names tests no title here starts with: "gone"');
    // The whole suite (and a run by hand) runs every test, whatever GL_TEST_KEEP says.
    const all = run({ GL_TEST_SET: 'all', GL_TEST_KEEP: JSON.stringify(['kept']) });
    assert.is(all.code, 1, all.out);
    assert.match(all.stdout, 'left out');
  } finally {
    s.done();
  }
});

test('the Node-sensitive part: with GL_TEST_PART=node-sensitive only the tests declared with nodeTest run, and a file that declares none fails', () => {
  const sets = `${PROJECT}/build/test/helpers/sets.js`;
  const s = suite({
    'a.test.js': `import { nodeTest, test } from '${sets}';\nnodeTest('differs', () => {});\ntest('the same', () => { throw new Error('ran'); });\ntest.run();\n`,
    'b.test.js': `import { test } from '${sets}';\ntest('the same', () => {});\ntest.run();\n`,
  });
  const run = (name: string, env: Record<string, string>) =>
    sh(process.execPath, [join(s.dir, name)], PROJECT, { env: { NO_COLOR: '1', GL_TEST_SET: 'all', ...env } });
  try {
    const part = run('a.test.js', { GL_TEST_PART: 'node-sensitive' });
    assert.is(part.code, 0, part.out);
    assert.match(part.stdout, /Total:\s+1\n\s+Passed:\s+1\n\s+Skipped:\s+0/);
    const none = run('b.test.js', { GL_TEST_PART: 'node-sensitive' });
    assert.is(none.code, 1, none.out);
    assert.match(none.stdout, "lists this file as 'marked', and no test here is declared with nodeTest");
    // Everywhere else (the oldest Node, a run by hand) every test runs, nodeTest's and test's alike.
    const all = run('a.test.js', {});
    assert.is(all.code, 1, all.out);
    assert.match(all.stdout, /Total:\s+2\n\s+Passed:\s+1/);
  } finally {
    s.done();
  }
});

test.run();
