/**
 * Issue 16, point 4: what the tree cache and the config cache cannot see. A tier can opt out
 * (`cache: false`), a pass that relied on a freeze holds only on its day, files the config reads
 * through fs are part of the config cache's key, and GATE_LADDER_NO_CACHE=1 bypasses both for one push.
 */
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { CHECK_SH, withRepo } from '../helpers/repo.js';

const gatesRan = (out: string) => / running \(timeout /.test(out);

test('a tier with `cache: false` runs again on the same tree: a commit-message check after `commit --amend`', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { tiers: [
  { name: 't1-tests', run: 'true' },
  { name: 't2-message', run: 'git log -1 --format=%s HEAD | grep -q "^feat: "', cache: false },
] };\n`,
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a\n');
      repo.gitOk('add', '-A');
      repo.gitOk('commit', '-q', '-m', 'feat: a');
      const first = repo.push(['origin', 'HEAD']);
      assert.is(first.code, 0, first.out);
      repo.gitOk('commit', '-q', '--amend', '-m', 'wip');
      const amended = repo.push(['-f', 'origin', 'HEAD']);
      assert.is(amended.code, 1, amended.out);
      assert.match(amended.out, 't2-message caught a problem');
      assert.not.match(amended.out, 'already passed');
    },
  ));

const NODE_TEST = `import { test } from 'node:test';
test('always fails', () => { throw new Error('flaked'); });
test('passes', () => {});
`;

test('a pass that relied on a frozen test is not reused once the freeze has expired', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\njunit.xml\n',
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1-node', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/a.test.mjs', runner: 'node', junit: 'junit.xml', timeout: 120 }] };\n`,
        'test/a.test.mjs': NODE_TEST,
        // Its id: Node 23 and later name the file in their JUnit report, earlier ones do not.
        '.gate-ladder/freezes.json': `${JSON.stringify({ version: 1, freezes: ['always fails', 'test/a.test.mjs::always fails'].map((test) => ({ test, by: 'test', at: '2025-01-01', expires: '2025-02-01', reentry: 'fixed', flip_rate: 0.5, runs: 20, flips: 10, evidence: 1 })) })}\n`,
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a\n');
      repo.commit('change');
      const frozen = repo.cli(['run', '--base', 'HEAD~1'], { env: { GATE_LADDER_NOW: '2025-01-15' } });
      assert.is(frozen.code, 0, frozen.out);
      assert.match(frozen.out, 'only frozen tests failed');
      const sameDay = repo.cli(['run', '--base', 'HEAD~1'], { env: { GATE_LADDER_NOW: '2025-01-15' } });
      assert.is(sameDay.code, 0, sameDay.out);
      assert.match(sameDay.out, 'already passed', 'reused on the day it was made');
      const expired = repo.cli(['run', '--base', 'HEAD~1'], { env: { GATE_LADDER_NOW: '2025-02-01' } });
      assert.is(expired.code, 1, expired.out);
      assert.not.match(expired.out, 'already passed');
      assert.match(expired.out, 'its freeze expired: frozen through 2025-01-31 UTC, it counts again from 2025-02-01 UTC');
    },
  ));

// Node-sensitive: how the config's reads through node:fs are seen (src/config/fs-reads.ts).
nodeTest('a config that reads another file through fs is loaded again when that file changes (config cache)', () =>
  withRepo(
    {
      files: {
        'check.sh': CHECK_SH,
        'src/value.txt': 'good\n',
        'ladder/command.txt': 'sh check.sh unit\n',
        'gate-ladder.config.ts': `import { readFileSync } from 'node:fs';
export default { tiers: [{ name: 't1-unit', run: readFileSync('ladder/command.txt', 'utf8').trim() }] };\n`,
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'good 2\n');
      repo.commit('change');
      const first = repo.push();
      assert.is(first.code, 0, first.out);
      repo.write('ladder/command.txt', 'sh check.sh unit && exit 1\n');
      repo.commit('the command now fails');
      const r = repo.push();
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 't1-unit caught a problem');
    },
  ),
);

// Node-sensitive: the config loaded afresh, in its worker, with the push's environment.
nodeTest('GATE_LADDER_NO_CACHE=1 runs every gate and loads the config afresh for one push (a config that reads the environment)', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': "export default { tiers: [{ name: 't1-env', run: process.env.GL_TEST_COMMAND ?? 'true' }] };\n",
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a\n');
      repo.commit('change');
      const first = repo.cli(['run', '--base', 'HEAD~1']);
      assert.is(first.code, 0, first.out);
      const cached = repo.cli(['run', '--base', 'HEAD~1'], { env: { GL_TEST_COMMAND: 'exit 1' } });
      assert.match(cached.out, 'already passed', 'the caches cannot see the environment');
      assert.match(cached.out, 'gate-ladder run --no-cache', 'a manual run names its flag (a push names GATE_LADDER_NO_CACHE=1)');
      const fresh = repo.cli(['run', '--base', 'HEAD~1'], { env: { GL_TEST_COMMAND: 'exit 1', GATE_LADDER_NO_CACHE: '1' } });
      assert.is(fresh.code, 1, fresh.out);
      assert.ok(gatesRan(fresh.out), fresh.out);
      assert.match(fresh.out, 't1-env caught a problem');
      repo.write('src/b.txt', 'b\n');
      repo.commit('another change');
      const push = repo.push(['origin', 'HEAD'], { GL_TEST_COMMAND: 'exit 1', GATE_LADDER_NO_CACHE: '1' });
      assert.is(push.code, 1, push.out);
      assert.match(push.out, 't1-env caught a problem');
    },
  ),
);

test.run();
