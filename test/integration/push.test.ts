import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, sh, withRepo, leftAfter, ownSleep } from '../helpers/repo.js';
import { hookLine } from '../../src/install/hook-line.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: LADDER_FILES }, fn);

// Node-sensitive (this and the next four, and the starter config's): the hook as git runs it, on each verdict.
nodeTest('a clean patch passes both tiers, writes two rows, and reaches the remote', () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'fine\n');
    const head = repo.commit('clean change');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict]),
      [
        ['t1-properties', 'pass'],
        ['t2-fixtures', 'pass'],
      ],
    );
    for (const row of rows) {
      assert.is(row.patch, head);
      assert.is(row.hook, 'pre-push');
      assert.is(row.ref, 'refs/heads/main');
      assert.equal(row.files, ['src/other.txt']);
      assert.is(row.routed, false);
      assert.is(row.exit, 0);
      assert.ok(typeof row.seconds === 'number' && row.seconds >= 0);
      assert.ok(!Number.isNaN(Date.parse(String(row.ts))));
    }
    assert.is(rows[0]!.run, rows[1]!.run, 'one ladder run shares its id');
    assert.is(repo.gitOk('--git-dir', repo.remote, 'rev-parse', 'main'), head);
  }),
);

nodeTest('a bug is caught at t1: one row, the push is rejected with the caught message', () =>
  ladder((repo) => {
    const before = repo.gitOk('--git-dir', repo.remote, 'rev-parse', 'main');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('introduce a bug');
    const r = repo.push();
    assert.is.not(r.code, 0);
    assert.match(r.out, 't1-properties caught a problem');
    assert.match(r.out, 'assertion failed: value is buggy', "the gate's output is shown");
    assert.match(r.out, 'git push --no-verify');
    assert.match(r.out, 'GATE_LADDER=0');
    assert.not.match(r.out, 'could not give a verdict');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.exit]),
      [['t1-properties', 'caught', 1]],
    );
    assert.is(repo.gitOk('--git-dir', repo.remote, 'rev-parse', 'main'), before, 'the remote did not move');
  }),
);

test('a test-adjacent change skips t1: only a t2 row, flagged as routed', () =>
  ladder((repo) => {
    repo.write('tests/fixture.txt', 'fixture v2\n');
    repo.commit('edit a fixture');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 't0-scope skips t1-properties: test-adjacent: tests/fixture.txt matches **/tests/**');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict]),
      [['t2-fixtures', 'pass']],
    );
    assert.is(rows[0]!.routed, true);
    assert.equal(rows[0]!.skipped, ['t1-properties']);
  }));

test('a fixture edit that hides a bug is still caught, by t2', () =>
  ladder((repo) => {
    repo.write('tests/fixture.txt', 'fixture v2\n');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug plus fixture edit');
    const r = repo.push();
    assert.is.not(r.code, 0);
    assert.match(r.out, 't2-fixtures caught a problem');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['t2-fixtures', 'caught']],
    );
  }));

test('a harness exit 4 is an error: the push is rejected with the error message, not a catch', () =>
  ladder((repo) => {
    repo.write('harness.txt', '4\n');
    repo.commit('break the harness');
    const r = repo.push();
    assert.is.not(r.code, 0);
    assert.match(r.out, 't1-properties could not give a verdict');
    assert.match(r.out, 'exit 4');
    assert.match(r.out, 'This is not a verdict on the patch');
    assert.match(r.out, 'gate-ladder.config.ts');
    assert.not.match(r.out, 'caught a problem');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.exit]),
      [['t1-properties', 'error', 4]],
    );
    assert.match(String(rows[0]!.reason), 'exit 4');
  }));

test('pytest-style exit codes are named when the tier says its runner is pytest', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'exit 5', runner: 'pytest' }] };\n`,
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const r = repo.push();
      assert.is.not(r.code, 0);
      assert.match(r.out, 'exit 5 (pytest collected no tests)');
    },
  ));

// Node-sensitive too: the error a spawn of a missing command gives.
nodeTest('a command that does not exist is an error naming it', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'pytestt -q' }, { name: 't2', run: ['pytestt', '-q'] }] };\n`,
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const r = repo.push();
      assert.is.not(r.code, 0);
      assert.match(r.out, 'command not found: pytestt');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['t1', 'error']],
      );
    },
  ),
);

// Node-sensitive too: killing a process group.
nodeTest('a timeout is an error, and kills the whole process tree', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1-slow', run: 'sleep ${ownSleep(0)} & sleep ${ownSleep(1)}; echo never', timeout: 1 }] };\n`,
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const r = repo.push();
      assert.is.not(r.code, 0);
      assert.match(r.out, 'timed out after 1 s');
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.tier, x.verdict]),
        [['t1-slow', 'error']],
      );
      assert.match(String(rows[0]!.reason), 'timed out after 1 s');
      assert.equal(leftAfter(new RegExp(`^sleep (${ownSleep(0)}|${ownSleep(1)})$`)), [], 'processes left behind');
    },
  ),
);

nodeTest('GATE_LADDER=0 bypasses every gate and writes no row', () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    const r = repo.push(['origin', 'HEAD'], { GATE_LADDER: '0' });
    assert.is(r.code, 0, r.out);
    assert.equal(repo.ledger(), []);
  }),
);

test('gates run with GATE_LADDER=0, so a gate that pushes does not re-enter the hook', () =>
  withRepo(
    { files: { 'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'test "$GATE_LADDER" = 0' }] };\n` } },
    (repo) => {
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      assert.is(repo.push().code, 0);
    },
  ));

test('an invalid config rejects the push with every problem and writes no row', () =>
  ladder((repo) => {
    repo.write(
      'gate-ladder.config.ts',
      `export default { tiers: [{ name: 't1', run: 'true', timeout: -3 }, { name: 't2', run: 42, caught: [0] }], isolation: 'sometimes' };\n`,
    );
    repo.commit('bad config');
    const r = repo.push();
    assert.is.not(r.code, 0);
    assert.match(r.out, 'the config has 4 problems');
    assert.match(r.out, 'gate-ladder.config.ts: tiers[0].timeout must be a positive number of seconds');
    assert.match(r.out, 'gate-ladder.config.ts: tiers[1].run must be a command string');
    assert.match(r.out, 'tiers[1].caught[0] must be an exit code');
    assert.match(r.out, 'isolation must be "auto", "worktree" or "none"');
    assert.equal(repo.ledger(), []);
  }));

// Node-sensitive: a hook line of an early version (dist/cli.js), and the search for a config.
nodeTest('no config at all: one line saying so and how to create one; the push is allowed', () =>
  withRepo({ install: false, files: { 'src/a.txt': 'x\n' } }, (repo) => {
    repo.write('.husky/pre-push', 'node node_modules/gate-ladder/dist/cli.js run pre-push "$@"\n');
    repo.gitOk('config', 'core.hooksPath', '.husky');
    sh('chmod', ['+x', '.husky/pre-push'], repo.dir);
    repo.write('src/a.txt', 'y\n');
    repo.commit('change');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'no config found');
    assert.match(r.out, 'npx gate-ladder install');
  }),
);

test('a new branch is judged against the remote default branch', () =>
  ladder((repo) => {
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('src/feature.txt', 'new\n');
    const head = repo.commit('feature work');
    const r = repo.push(['-u', 'origin', 'feature']);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.is(rows.length, 2);
    assert.equal(rows[0]!.files, ['src/feature.txt']);
    assert.is(rows[0]!.ref, 'refs/heads/feature');
    assert.is(rows[0]!.patch, head);
  }));

/** Every file under dir (but .git internals git rewrites on its own) with its content, and the git config. */
function snapshot(repo: Repo): string {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(repo.dir, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === '.git' || path === 'node_modules') continue;
      const full = join(repo.dir, path);
      if (statSync(full).isDirectory()) walk(path);
      else out.push(`${path} ${statSync(full).mode.toString(8)}\n${readFileSync(full, 'utf8')}`);
    }
  };
  walk('');
  out.push(`config:\n${repo.gitOk('config', '--local', '--list')}`);
  return out.join('\n');
}

test('install twice changes nothing the second time', () =>
  ladder((repo) => {
    const once = snapshot(repo);
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    assert.is(snapshot(repo), once);
    assert.is(repo.read('.husky/pre-push').match(/gate-ladder\/dist\/cli\.cjs run pre-push/g)?.length, 1);
  }));

test('install keeps other lines of .husky/pre-push; uninstall leaves the repo as before', () =>
  withRepo({ install: false, files: { '.husky/pre-push': 'echo "my own check"\n', 'src/a.txt': 'x\n' } }, (repo) => {
    const before = snapshot(repo);
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    // gate-ladder's line first (an `exit` in the hook's own lines cannot skip it), git's refs kept for both.
    const hook = repo.read('.husky/pre-push').split('\n');
    assert.is(hook.length, 5, hook.join('\n'));
    assert.match(hook[0]!, /^gl_in="\$\(mktemp\)"/);
    assert.is(hook[1], hookLine('pre-push', 'npm'));
    assert.match(hook[2]!, /^exec <"\$gl_in"/);
    assert.equal(hook.slice(3), ['echo "my own check"', '']);
    assert.match(repo.read('package.json'), '"prepare": "husky || true"');
    assert.match(repo.read('gate-ladder.config.ts'), "run: 'npm test'");
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.husky/_');
    const u = repo.cli(['uninstall']);
    assert.is(u.code, 0, u.out);
    assert.is(snapshot(repo), before);
  }));

// Node-sensitive: a TypeScript config that imports gate-ladder itself.
nodeTest('the starter config runs on a real push', () =>
  withRepo(
    { files: { 'check.js': 'process.exit(require("fs").readFileSync("src/a.txt","utf8").includes("bug") ? 1 : 0)\n', 'src/a.txt': 'x\n' } },
    (repo) => {
      assert.match(repo.read('gate-ladder.config.ts'), "import { defineConfig } from 'gate-ladder'");
      repo.write('src/a.txt', 'bug\n');
      repo.commit('bug');
      const r = repo.push();
      assert.is.not(r.code, 0);
      assert.match(r.out, 't2-tests caught a problem');
    },
  ),
);

test.run();
