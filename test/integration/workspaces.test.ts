/**
 * An npm workspaces monorepo pushed through the installed hook: the tier runs `npm test`, whose script
 * is `npm test --workspaces`, over three workspaces with real runners (a: node --test; b: mocha; c:
 * jest, both from this project's node_modules by absolute path). Each push's verdict must come from the
 * workspace that decided it, read with its own runner: before, the exit code alone decided (a file that
 * cannot load was `caught`, a workspace that ran no test passed).
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, withRepo } from '../helpers/repo.js';

const MOCHA = join(PROJECT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const JEST = join(PROJECT, 'node_modules', 'jest', 'bin', 'jest.js');

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'mono', version: '1.0.0', private: true, workspaces: ['packages/*'], scripts: { test: 'npm test --workspaces' } }, null, 2)}\n`,
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 'unit', run: 'npm test', timeout: 120 }] };\n",
  'packages/a/package.json': `${JSON.stringify({ name: 'a', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'packages/a/a.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => { assert.equal(1 + 1, 2); });\n",
  'packages/b/package.json': `${JSON.stringify({ name: 'b', version: '1.0.0', scripts: { test: `node ${MOCHA} b.test.js` } }, null, 2)}\n`,
  'packages/b/b.test.js':
    "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 4); });\nit('halves', () => { assert.equal(4 / 2, 2); });\n",
  'packages/c/package.json': `${JSON.stringify({ name: 'c', version: '1.0.0', scripts: { test: `node ${JEST} --ci` }, jest: { testEnvironment: 'node' } }, null, 2)}\n`,
  'packages/c/c.test.js': "test('joins', () => { expect(['a', 'b'].join('')).toBe('ab'); });\n",
};

/** A fresh monorepo, `change` written and committed, then pushed through the installed hook. */
function pushed(change: Record<string, string>, check: (repo: Repo, out: string, code: number | null) => void): Promise<void> {
  return withRepo({ files: FILES }, (repo) => {
    for (const [path, text] of Object.entries(change)) repo.write(path, text);
    repo.commit('change');
    const r = repo.push();
    check(repo, r.out, r.code);
  });
}

const row = (repo: Repo) => {
  const rows = repo.ledger();
  assert.is(rows.length, 1, JSON.stringify(rows));
  return rows[0]!;
};

test('every workspace passes: the push goes through, one pass row', () =>
  pushed({ 'notes.txt': 'a change\n' }, (repo, out, code) => {
    assert.is(code, 0, out);
    assert.is(row(repo).verdict, 'pass', out);
  }));

test("one workspace's test fails: caught, named, with its runner's line", () =>
  pushed(
    {
      'packages/b/b.test.js':
        "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 5); });\nit('halves', () => { assert.equal(4 / 2, 2); });\n",
    },
    (repo, out, code) => {
      assert.is.not(code, 0, out);
      const r = row(repo);
      assert.is(r.verdict, 'caught', out);
      assert.is(r.reason, 'workspace b: mocha: `1 failing`');
      assert.match(out, 'unit caught a problem');
      // The failed test, read from b's part of the output with b's runner, its file relative to the repository.
      const failed = (r.failed_tests ?? []) as { id: string; file?: string; line?: number }[];
      assert.equal(
        failed.map((f) => [f.id, f.file, f.line]),
        [['packages/b/b.test.js::doubles', 'packages/b/b.test.js', 2]],
        JSON.stringify(r),
      );
    },
  ));

test('a long output (the last workspace prints 150 kB): the failed test of an earlier one still caught and named', () =>
  pushed(
    {
      'packages/b/b.test.js': "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 5); });\n",
      'packages/c/c.test.js': "test('talks', () => { for (let i = 0; i < 1500; i++) process.stdout.write(`${'x'.repeat(99)}\\n`); });\n",
    },
    (repo, out, code) => {
      assert.is.not(code, 0, out);
      const r = row(repo);
      assert.is(r.verdict, 'caught', out.slice(-2000));
      assert.is(r.reason, 'workspace b: mocha: `1 failing`');
    },
  ));

test("two workspaces' tests fail: the blocked screen shows the first workspace's failure (what a user fixes first), not only the second's", () =>
  pushed(
    {
      'packages/a/a.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => { assert.equal(1 + 1, 3); });\n",
      'packages/b/b.test.js': "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 5); });\n",
    },
    (repo, out, code) => {
      assert.is.not(code, 0, out);
      const r = row(repo);
      assert.is(r.verdict, 'caught', out);
      assert.match(String(r.reason), /^workspace a: node: .*; workspace b: mocha: `1 failing`$/);
      // The screen: the lines of the output chosen between the verdict and the line saying how many were left out.
      const lines = out.split('\n');
      const from = lines.findIndex((l) => l.startsWith('gate-ladder: push blocked:'));
      const to = lines.findIndex((l) => / output lines of unit left out|whole output of unit/.test(l));
      assert.ok(from !== -1 && to > from, out);
      const screen = lines.slice(from + 1, to).join('\n');
      assert.match(screen, '2 == 3', `a's failure on the screen:\n${screen}`);
      assert.match(screen, '4 == 5', `b's too:\n${screen}`);
      assert.ok(screen.indexOf('2 == 3') < screen.indexOf('4 == 5'), screen);
      // The failed tests, in the order the run printed them.
      assert.equal(
        ((r.failed_tests ?? []) as { id: string }[]).map((f) => f.id),
        ['packages/a/a.test.js::adds', 'packages/b/b.test.js::doubles'],
      );
    },
  ));

test("one workspace's test file cannot load: an error naming it, not a catch", () =>
  pushed(
    { 'packages/c/c.test.js': "const nope = require('./nope');\ntest('joins', () => { expect(nope).toBe(1); });\n" },
    (repo, out, code) => {
      assert.is.not(code, 0, out);
      const r = row(repo);
      assert.is(r.verdict, 'error', out);
      assert.match(
        String(r.reason),
        /^workspace c: a test file could not run \(c\.test\.js\): `Cannot find module '\.\/nope' from 'c\.test\.js'`; `npm run test -w c` runs it alone/,
      );
      assert.match(out, 'unit could not give a verdict');
      // The push changed that file: the patch's error, named from the root.
      assert.equal([r.error_cause, r.error_file], ['patch', 'packages/c/c.test.js']);
      assert.match(out, 'The push changed packages/c/c.test.js, which cannot load (line 1): the patch broke the harness.');
    },
  ));

test('one workspace runs no test: an error naming it (the others passed)', () =>
  pushed({ 'packages/a/a.test.js': '// the tests moved away\n' }, (repo, out, code) => {
    assert.is.not(code, 0, out);
    const r = row(repo);
    assert.is(r.verdict, 'error', out);
    assert.match(String(r.reason), /^workspace a: no tests ran/);
    assert.match(String(r.reason), /set `allowNoTests: true` on the tier/);
  }));

test('a workspace without a test script: npm fails the run for it, so an error naming it; --if-present skips it', async () => {
  const noScript = { 'packages/d/package.json': `${JSON.stringify({ name: 'd', version: '1.0.0' }, null, 2)}\n` };
  await pushed(noScript, (repo, out, code) => {
    assert.is.not(code, 0, out);
    const r = row(repo);
    assert.is(r.verdict, 'error', out);
    assert.match(
      String(r.reason),
      /^workspace d: it has no "test" script, and npm fails the run for it: add one to its package\.json, or run npm with --if-present/,
    );
  });
  const root = JSON.parse(FILES['package.json']!) as { scripts: Record<string, string> };
  root.scripts.test = 'npm test --workspaces --if-present';
  await pushed({ ...noScript, 'package.json': `${JSON.stringify(root, null, 2)}\n` }, (repo, out, code) => {
    assert.is(code, 0, out);
    assert.is(row(repo).verdict, 'pass', out);
  });
});

test.run();
