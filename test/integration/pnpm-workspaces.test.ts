/**
 * A pnpm monorepo pushed through the installed hook: the tier runs `npm test`, whose script is this
 * project's pnpm (a dev dependency, by absolute path) with `-r test`, over packages a (node --test) and
 * b (mocha, from this project's node_modules). Before, the exit code alone decided: a file that cannot
 * load was `caught`, a package that ran no test passed.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, withRepo } from '../helpers/repo.js';

const PNPM = join(PROJECT, 'node_modules', '.bin', 'pnpm');
const MOCHA = join(PROJECT, 'node_modules', 'mocha', 'bin', 'mocha.js');

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'mono', version: '1.0.0', private: true, scripts: { test: `${PNPM} -r test` } }, null, 2)}\n`,
  'pnpm-workspace.yaml': 'packages:\n  - "packages/*"\n',
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 'unit', run: 'npm test', timeout: 120 }] };\n",
  'packages/a/package.json': `${JSON.stringify({ name: 'a', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'packages/a/a.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => { assert.equal(1 + 1, 2); });\n",
  'packages/b/package.json': `${JSON.stringify({ name: 'b', version: '1.0.0', scripts: { test: `node ${MOCHA} b.test.js` } }, null, 2)}\n`,
  'packages/b/b.test.js': "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 4); });\n",
};

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

test('every package passes: pass', () =>
  pushed({ 'notes.txt': 'a change\n' }, (repo, out, code) => {
    assert.is(code, 0, out);
    assert.is(row(repo).verdict, 'pass', out);
  }));

test("one package's test fails: caught, named, with its runner's line", () =>
  pushed(
    { 'packages/b/b.test.js': "const assert = require('node:assert');\nit('doubles', () => { assert.equal(2 * 2, 5); });\n" },
    (repo, out, code) => {
      assert.is.not(code, 0, out);
      const r = row(repo);
      assert.is(r.verdict, 'caught', out);
      // pnpm runs the packages at once and stops the others at the first failure: a may or may not have finished.
      assert.match(String(r.reason), /^workspace b: mocha: `1 failing`(?:; pnpm stopped a at the first failure)?$/);
    },
  ));

test("one package's test file cannot load: an error naming it, not a catch", () =>
  pushed({ 'packages/a/a.test.js': "require('./nope');\n" }, (repo, out, code) => {
    assert.is.not(code, 0, out);
    const r = row(repo);
    assert.is(r.verdict, 'error', out);
    assert.match(String(r.reason), /^workspace a: .*`pnpm --filter a test` runs it alone/);
  }));

test.run();
