/** The pushed commit decides, not the working tree: gates run in a temporary worktree when they differ. */
import { spawn } from 'node:child_process';
import {
  existsSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, type Repo, cleanEnv, sh, withRepo, leftAfter, ownSleep } from '../helpers/repo.js';
import { isSlot, poolSlots, slotDirt, slotFree, userWorktrees } from '../helpers/pool.js';
import { poolDir } from '../../src/slots/worktree-pool.js';

/** LADDER_FILES, with each gate logging where it ran (and what git env it saw) to $GL_TRACE. */
const TRACED_FILES = (extra = '') => ({
  'gate-ladder.config.ts': `export default {
  ${extra}
  tiers: [
    { name: 't1-properties', run: 'pwd >> "$GL_TRACE"; sh check.sh properties', timeout: 30, skipWhenTestAdjacent: true },
    { name: 't2-fixtures', run: 'sh check.sh fixtures', timeout: 30 },
  ],
};
`,
  'check.sh': CHECK_SH,
  'src/value.txt': 'good\n',
  'tests/fixture.txt': 'fixture v1\n',
});

const traced = <T>(fn: (repo: Repo, trace: string) => Promise<T> | T, extra = '') =>
  withRepo({ files: TRACED_FILES(extra) }, (repo) => fn(repo, join(repo.dir, '..', 'trace.log')));

const ranIn = (trace: string) => (existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n') : []);
/** The user's worktrees: gate-ladder's pool slots apart. */
const worktrees = userWorktrees;

test('committed bug, uncommitted fix: the pushed commit decides, and the bug is caught', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('a bug');
    repo.write('src/value.txt', 'good\n');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'gates run in a temporary worktree');
    assert.match(r.out, 'the working tree has uncommitted changes');
    assert.match(r.out, 't1-properties caught a problem');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.isolation]),
      [['t1-properties', 'caught', 'worktree']],
    );
    assert.is(rows[0]!.patch, head);
    const [dir] = ranIn(trace);
    assert.ok(dir && isSlot(repo, dir), `ran in ${dir}`);
    assert.ok(slotFree(dir!), 'the slot is given back after a failure');
    assert.equal(slotDirt(dir!), [], 'and left as the gate left it: clean');
    assert.is(worktrees(repo).length, 1);
    assert.is(repo.read('src/value.txt'), 'good\n', 'the uncommitted fix is untouched');
    assert.is(repo.gitOk('status', '--porcelain'), 'M src/value.txt');
  }));

test('committed fix, uncommitted bug: the pushed commit decides, and the push passes', () =>
  traced((repo, trace) => {
    repo.write('src/other.txt', 'fine\n');
    const head = repo.commit('a clean change');
    repo.write('src/value.txt', 'bug\n');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.isolation]),
      [
        ['t1-properties', 'pass', 'worktree'],
        ['t2-fixtures', 'pass', 'worktree'],
      ],
    );
    assert.is(rows[0]!.patch, head);
    assert.is(repo.gitOk('--git-dir', repo.remote, 'rev-parse', 'main'), head);
    assert.ok(slotFree(ranIn(trace)[0]!));
    assert.is(worktrees(repo).length, 1);
    assert.is(repo.read('src/value.txt'), 'bug\n', 'the uncommitted change is untouched');
  }));

test('a clean checkout of the pushed commit runs in place; untracked files do not count', () =>
  traced((repo, trace) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('a clean change');
    writeFileSync(join(repo.dir, 'notes.txt'), 'untracked\n');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is(r.code, 0, r.out);
    assert.not.match(r.out, 'temporary worktree');
    assert.equal(
      repo.ledger().map((x) => x.isolation),
      ['none', 'none'],
    );
    assert.equal(ranIn(trace), [realpathSync(repo.dir)]);
  }));

/** Tracked files a while older than the index, as after a checkout long ago: nothing racily clean. */
function settle(repo: Repo): void {
  const past = Math.floor(Date.now() / 1000) - 100;
  for (const path of repo.gitOk('ls-files', '-z').split('\0').filter(Boolean)) lutimesSync(join(repo.dir, path), past, past);
  repo.gitOk('update-index', '-q', '--refresh');
}

/** The git commands a push ran, hook included (git traces every git process that inherits GIT_TRACE). */
const gitCommands = (file: string) =>
  existsSync(file) ? (readFileSync(file, 'utf8').match(/trace: (?:built-in|exec|run_command): git [a-z-]+/g) ?? []) : [];

test('a clean checkout of the pushed commit, as git status says: in place, and the pass is recorded', () =>
  traced((repo, trace) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('a clean change');
    settle(repo);
    const gitTrace = join(repo.dir, '..', 'git-trace.log');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace, GIT_TRACE: gitTrace });
    assert.is(r.code, 0, r.out);
    assert.equal(
      repo.ledger().map((x) => x.isolation),
      ['none', 'none'],
    );
    assert.equal(ranIn(trace), [realpathSync(repo.dir)]);
    const cmds = gitCommands(gitTrace);
    assert.ok(
      cmds.some((c) => c.endsWith('git push')),
      cmds.join('\n'),
    );
    assert.ok(
      cmds.some((c) => c.endsWith('git status')),
      cmds.join('\n'),
    );
    // The pass was recorded: git status vouched that the gates saw the pushed tree.
    const cache = join(repo.dir, '.git', 'gate-ladder', 'cache');
    assert.is(readdirSync(cache).filter((f) => f.startsWith('tree-')).length, 1);
  }));

test('another commit checked out: a worktree', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('a bug');
    repo.gitOk('checkout', '-q', '--detach', 'HEAD~1');
    const gitTrace = join(repo.dir, '..', 'git-trace.log');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace, GIT_TRACE: gitTrace });
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, `the checked-out commit is not refs/heads/main`);
    assert.equal(
      repo.ledger().map((x) => [x.verdict, x.isolation, x.patch]),
      [['caught', 'worktree', head]],
    );
  }));

test('a modified file: git status decides, and the pushed commit still decides', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    settle(repo);
    repo.write('src/value.txt', 'good\n');
    const gitTrace = join(repo.dir, '..', 'git-trace.log');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace, GIT_TRACE: gitTrace });
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'the working tree has uncommitted changes');
    assert.ok(gitCommands(gitTrace).some((c) => c.endsWith('git status')));
  }));

test('a committed bug hidden by an assume-unchanged fix: git status calls the tree clean, the commit is judged in a worktree and caught', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('a bug');
    repo.gitOk('update-index', '--assume-unchanged', 'src/value.txt');
    repo.write('src/value.txt', 'good\n');
    assert.is(repo.gitOk('status', '--porcelain'), '', 'git status is blind to the fix');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, '1 tracked path is marked assume-unchanged');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict, x.isolation, x.patch]),
      [['t1-properties', 'caught', 'worktree', head]],
    );
    assert.is(repo.read('src/value.txt'), 'good\n');
  }));

test('a sparse checkout without the changed folder: the commit is judged in a full worktree (the slot is not made sparse), and the bug is caught', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('a bug');
    // src/ leaves the work tree: a gate in place would find no src/value.txt and pass.
    repo.gitOk('sparse-checkout', 'set', 'tests', '.husky');
    assert.not.ok(existsSync(join(repo.dir, 'src', 'value.txt')));
    assert.is(repo.gitOk('status', '--porcelain'), '');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'skip-worktree (a sparse checkout');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict, x.isolation, x.patch]),
      [['t1-properties', 'caught', 'worktree', head]],
    );
    const [dir] = ranIn(trace);
    assert.ok(dir && isSlot(repo, dir) && existsSync(join(dir, 'src', 'value.txt')), `the slot holds every file: ${dir}`);
  }));

test('isolation: "none" runs in place even when the working tree differs (the escape hatch)', () =>
  traced((repo, trace) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    repo.write('src/value.txt', 'good\n');
    const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
    assert.is(r.code, 0, r.out);
    assert.equal(
      repo.ledger().map((x) => x.isolation),
      ['none', 'none'],
    );
    assert.equal(ranIn(trace), [realpathSync(repo.dir)]);
  }, "isolation: 'none',"));

test("a push from a linked worktree: gates see none of the hook's GIT_DIR/GIT_INDEX_FILE, and dependency folders are there", () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default {
  isolation: 'worktree',
  tiers: [{ name: 't1', run: 'git rev-parse HEAD > "$GL_TRACE.head"; env | grep "^GIT_" > "$GL_TRACE.env"; test -f node_modules/gate-ladder/package.json && cat packages/app/node_modules/lib/value.txt > "$GL_TRACE.lib"', timeout: 30 }],
};
`,
        'packages/lib/value.txt': 'lib v1\n',
        'packages/app/index.txt': 'app\n',
      },
    },
    (repo) => {
      // A workspace link, as npm/yarn/pnpm make them: relative, into the repository.
      mkdirSync(join(repo.dir, 'packages/app/node_modules'), { recursive: true });
      symlinkSync('../../lib', join(repo.dir, 'packages/app/node_modules/lib'));
      const side = join(repo.dir, '..', 'side');
      repo.gitOk('worktree', 'add', '-q', '-b', 'side', side);
      symlinkSync(join(repo.dir, 'node_modules'), join(side, 'node_modules'));
      // husky's .husky/_ is not tracked: a linked worktree needs its own install (as `npm install` there would do).
      const i = sh(process.execPath, [join(side, 'node_modules/gate-ladder/dist/cli.mjs'), 'install'], side);
      assert.is(i.code, 0, i.out);
      mkdirSync(join(side, 'packages/app/node_modules'), { recursive: true });
      symlinkSync('../../lib', join(side, 'packages/app/node_modules/lib'));
      writeFileSync(join(side, 'packages/lib/value.txt'), 'lib v2\n');
      sh('git', ['commit', '-qam', 'lib v2'], side);
      writeFileSync(join(side, 'packages/lib/value.txt'), 'lib v3, uncommitted\n');
      const head = sh('git', ['rev-parse', 'HEAD'], side).stdout.trim();
      const trace = join(repo.dir, '..', 'trace');
      const r = sh('git', ['push', 'origin', 'side'], side, { env: { GL_TRACE: trace } });
      assert.is(r.code, 0, r.out);
      assert.match(r.out, 'gates run in a temporary worktree');
      assert.is(readFileSync(`${trace}.head`, 'utf8').trim(), head, 'git inside the gate sees the temporary worktree');
      const env = readFileSync(`${trace}.env`, 'utf8');
      for (const v of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX']) assert.not.match(env, new RegExp(`^${v}=`, 'm'));
      assert.is(readFileSync(`${trace}.lib`, 'utf8'), 'lib v2\n', 'a workspace link resolves inside the worktree: the pushed version');
      assert.is(worktrees(repo).length, 2, 'only the two worktrees the user made');
    },
  ));

test('a repository whose git dir is elsewhere (GIT_DIR and GIT_WORK_TREE set, as for dotfiles): committed bug, uncommitted fix, caught in a worktree with its dependency folders', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'pwd > "$GL_TRACE"; test -f node_modules/gate-ladder/package.json || exit 3; sh check.sh properties', timeout: 30 }] };\n`,
        'check.sh': CHECK_SH,
        'src/value.txt': 'good\n',
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'bug\n');
      const head = repo.commit('a bug');
      repo.write('src/value.txt', 'good\n');
      const gitDir = join(repo.dir, '..', 'dotgit');
      renameSync(join(repo.dir, '.git'), gitDir);
      const trace = join(repo.dir, '..', 'trace');
      const r = sh('git', ['push', 'origin', 'main'], repo.dir, { env: { GIT_DIR: gitDir, GIT_WORK_TREE: repo.dir, GL_TRACE: trace } });
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 'gates run in a temporary worktree');
      assert.match(r.out, 't1 caught a problem');
      // The slot is in the pool of that git dir, and no folder of its path starts with a dot.
      const slot = readFileSync(trace, 'utf8').trim();
      assert.is(slot, join(poolDir(realpathSync(gitDir)), 'slot-1'));
      assert.not.match(slot, /\/\./);
      const rows = readFileSync(join(gitDir, 'gate-ladder', 'ledger.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(
        rows.map((x) => [x.patch, x.verdict, x.isolation]),
        [[head, 'caught', 'worktree']],
      );
      assert.is(readFileSync(join(repo.dir, 'src/value.txt'), 'utf8'), 'good\n', 'the uncommitted fix is untouched');
    },
  ));

test('Ctrl-C during a gate in a worktree: the gate is stopped, the slot given back, exit 130', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default {
  isolation: 'worktree',
  tiers: [{ name: 't1-slow', run: 'pwd > "$GL_TRACE"; sleep ${ownSleep()}', timeout: 60 }],
};
`,
      },
    },
    async (repo) => {
      repo.write('src/a.txt', 'x\n');
      const head = repo.commit('change');
      const base = repo.gitOk('rev-parse', 'HEAD~1');
      const trace = join(repo.dir, '..', 'trace');
      const child = spawn(
        process.execPath,
        [join(repo.dir, 'node_modules/gate-ladder/dist/cli.mjs'), 'run', 'pre-push', 'origin', repo.remote],
        {
          cwd: repo.dir,
          env: cleanEnv({ GL_TRACE: trace }),
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.stdin.end(`refs/heads/main ${head} refs/heads/main ${base}\n`);
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      // The shell makes the file before pwd writes its line: wait for the whole line.
      const written = () => (existsSync(trace) ? readFileSync(trace, 'utf8') : '');
      const end = Date.now() + 60_000;
      while (!written().endsWith('\n') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      const dir = written().trim();
      assert.ok(existsSync(dir) && !slotFree(dir), 'the slot is held while the gate runs');
      child.kill('SIGINT');
      const code = await exited;
      assert.is(code, 130, out);
      assert.match(out, 'interrupted');
      assert.ok(slotFree(dir), 'the slot is given back');
      assert.is(worktrees(repo).length, 1);
      assert.equal(poolSlots(repo), [dir], 'and kept for the next run');
      assert.equal(leftAfter(new RegExp(`sleep ${ownSleep()}$`)), [], 'the gate is stopped');
      assert.equal(repo.ledger(), [], 'an interrupted gate reached no verdict: no row');
    },
  ));

test('a worktree left behind by a run that was killed outright is swept by the next run', () =>
  withRepo(
    { files: { 'gate-ladder.config.ts': `export default { isolation: 'worktree', tiers: [{ name: 't1', run: 'true' }] };\n` } },
    (repo) => {
      // A dead owner: a process that has exited.
      const dead = sh('sh', ['-c', 'echo $$'], repo.dir).stdout.trim();
      const parent = mkdtempSync(join(realpathSync(tmpdir()), 'gate-ladder-'));
      writeFileSync(join(parent, 'owner.pid'), `${dead}\n`);
      repo.gitOk('worktree', 'add', '--detach', '--lock', '-q', join(parent, 'wt'), 'HEAD');
      assert.is(worktrees(repo).length, 2);
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      assert.is(worktrees(repo).length, 1);
      assert.not.ok(existsSync(parent));
    },
  ));

test('a worktree another process is adding is left alone (no git worktree prune); ours whose folder is gone is removed', () =>
  withRepo(
    { files: { 'gate-ladder.config.ts': `export default { isolation: 'worktree', tiers: [{ name: 't1', run: 'true' }] };\n` } },
    (repo) => {
      // What \`git worktree add\` has made before it writes its lock: an admin folder, nothing in it yet.
      const adding = join(repo.dir, '.git', 'worktrees', 'adding');
      mkdirSync(adding, { recursive: true });
      // One of ours whose temp folder was wiped (a reboot), owner file and all.
      const gone = mkdtempSync(join(realpathSync(tmpdir()), 'gate-ladder-'));
      repo.gitOk('worktree', 'add', '--detach', '--lock', '-q', join(gone, 'wt'), 'HEAD');
      rmSync(gone, { recursive: true, force: true });
      assert.is(worktrees(repo).length, 2);
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      assert.match(r.out, 'gates run in a temporary worktree');
      assert.ok(existsSync(adding), 'a half-made admin folder was pruned: a concurrent worktree add would fail');
      assert.is(worktrees(repo).length, 1, 'the wiped worktree of ours is still recorded');
    },
  ));

test.run();
