/** `gate-ladder run pre-commit` through a real `git commit`: the staged tree is judged, lint-staged included. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { CHECK_SH, type Repo, cleanEnv, sh, useLintStaged, withRepo } from '../helpers/repo.js';
import { poolLocks, userWorktrees } from '../helpers/pool.js';

/** A lint-staged task that fails when a staged file says "bug". */
const CHECK_FILE_SH = `#!/bin/sh
for f in "$@"; do
  if grep -q bug "$f"; then echo "$f: value is buggy"; exit 1; fi
done
`;

const config = (tiers: string) => `export default {\n  tiers: [\n${tiers}\n  ],\n};\n`;
const LINT = `    { name: 'lint', lintStaged: true },`;
const T1 = `    { name: 't1-properties', run: 'sh check.sh properties', timeout: 30, hooks: ['pre-commit', 'pre-push'] },`;

const files = (tiers: string, extra: Record<string, string> = {}) => ({
  'gate-ladder.config.ts': config(tiers),
  'check.sh': CHECK_SH,
  'check-file.sh': CHECK_FILE_SH,
  '.lintstagedrc.json': '{ "src/*.txt": "sh check-file.sh" }\n',
  'src/value.txt': 'good\n',
  ...extra,
});

function withoutRc(all: Record<string, string>): Record<string, string> {
  const { '.lintstagedrc.json': _, ...rest } = all;
  return rest;
}

/** Installs the pre-commit hook too (`install --pre-commit`) and commits it without running it. */
function withPreCommit(repo: Repo): void {
  const r = repo.cli(['install', '--pre-commit']);
  assert.is(r.code, 0, r.out);
  assert.match(repo.read('.husky/pre-commit'), 'dist/cli.cjs run pre-commit');
  repo.gitOk('add', '.husky/pre-commit');
  const c = sh('git', ['commit', '-q', '-m', 'pre-commit hook'], repo.dir, { env: { GATE_LADDER: '0' } });
  assert.is(c.code, 0, c.out);
}

const commit = (repo: Repo, args: string[] = []) => sh('git', ['commit', '-m', 'attempt', ...args], repo.dir);
const show = (repo: Repo, rev: string) => repo.gitOk('show', rev);

// Node-sensitive: the pre-commit hook's line as git runs it, and lint-staged imported by the hook.
nodeTest('a staged bug is caught by lint-staged, and the unstaged fix in the same file is left untouched', () =>
  withRepo({ files: files(`${LINT}\n${T1}`) }, (repo) => {
    withPreCommit(repo);
    const before = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/value.txt', 'bug\n');
    repo.gitOk('add', 'src/value.txt');
    repo.write('src/value.txt', 'good, fixed but not staged\n');
    const staged = repo.gitOk('write-tree');
    const r = commit(repo);
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'src/value.txt: value is buggy');
    assert.match(r.out, 'gate-ladder: commit blocked: lint caught a problem in the staged changes');
    assert.match(r.out, 'git commit --no-verify');
    assert.is(repo.gitOk('rev-parse', 'HEAD'), before, 'no commit was made');
    assert.is(repo.read('src/value.txt'), 'good, fixed but not staged\n', 'the unstaged fix is untouched');
    assert.is(show(repo, ':src/value.txt'), 'bug', 'the index still holds what was staged');
    assert.is(repo.gitOk('stash', 'list'), '', 'lint-staged dropped its backup stash');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.hook, x.tier, x.verdict, x.isolation, x.exit]),
      [['pre-commit', 'lint', 'caught', 'none', 1]],
    );
    assert.is(rows[0]!.patch, staged, 'the patch id is the staged tree');
    assert.is(rows[0]!.base, before);
    assert.is(rows[0]!.ref, undefined);
    assert.equal(rows[0]!.files, ['src/value.txt']);
  }),
);

test('a lint-staged task that fails without printing a word is caught; a task whose command is not found is an error that says to install it', () =>
  withRepo({ files: files(LINT, { '.lintstagedrc.json': '{ "src/*.txt": "false" }\n' }) }, (repo) => {
    withPreCommit(repo);
    const before = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/value.txt', 'changed\n');
    repo.gitOk('add', 'src/value.txt');
    const r = commit(repo);
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'gate-ladder: commit blocked: lint caught a problem in the staged changes');
    assert.not.match(r.out, 'could not start');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict, x.exit]),
      [['lint', 'caught', 1]],
    );
    // The command is not there: lint-staged could not run the task, which is no verdict on the change.
    repo.write('.lintstagedrc.json', '{ "src/*.txt": "gl-no-such-linter --check" }\n');
    const n = commit(repo);
    assert.is.not(n.code, 0, n.out);
    assert.match(
      n.out,
      'lint could not give a verdict on the staged changes: lint-staged task could not start: gl-no-such-linter --check: `gl-no-such-linter` is not found (ENOENT)',
    );
    assert.match(
      n.out,
      "Install `gl-no-such-linter` (a dev dependency: `npm i -D <its package>`, or on PATH), or fix that task's command in lint-staged's configuration, then commit again.",
    );
    assert.not.match(n.out, 'Fix the tier');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [
        ['lint', 'caught'],
        ['lint', 'error'],
      ],
    );
    assert.is(repo.gitOk('rev-parse', 'HEAD'), before, 'no commit was made');
  }));

// Node-sensitive: lint-staged 17 imported by the hook (it asks for Node 22.22.1 and runs on 20).
nodeTest(
  'lint-staged 17 as the tier: a silent task failure is caught, a fixer re-stages, and its refusals (intent-to-add, YAML without yaml) are errors that say what to do',
  () =>
    withRepo({ files: files(LINT, { '.lintstagedrc.json': '{ "src/*.txt": "false" }\n' }) }, (repo) => {
      useLintStaged(repo, 'lint-staged-17');
      withPreCommit(repo);
      const version = (JSON.parse(repo.read('node_modules/lint-staged/package.json')) as { version: string }).version;
      assert.match(version, /^17\./);
      repo.write('src/value.txt', 'changed\n');
      repo.gitOk('add', 'src/value.txt');
      const silent = commit(repo);
      assert.is.not(silent.code, 0, silent.out);
      assert.match(silent.out, 'commit blocked: lint caught a problem in the staged changes');
      assert.not.match(silent.out, 'is not a version gate-ladder reads');
      // A fixer: lint-staged 17 stages what its task changed, and the commit holds it.
      repo.write('.lintstagedrc.json', '{ "src/*.txt": "sh fix.sh" }\n');
      repo.write('fix.sh', '#!/bin/sh\nfor f in "$@"; do sed -i s/bug/fixed/ "$f"; done\n');
      repo.write('src/value.txt', 'bug\n');
      repo.gitOk('add', '-A');
      const fixed = commit(repo);
      assert.is(fixed.code, 0, fixed.out);
      assert.match(fixed.out, 'lint-staged changed the staged files');
      assert.is(show(repo, 'HEAD:src/value.txt'), 'fixed');
      // An intent-to-add file: lint-staged 17 refuses to run; the repository's state, not a finding.
      repo.write('src/new.txt', 'new\n');
      repo.gitOk('add', '-N', 'src/new.txt');
      repo.write('src/value.txt', 'fixed again\n');
      repo.gitOk('add', 'src/value.txt');
      const ita = commit(repo);
      assert.is.not(ita.code, 0, ita.out);
      assert.match(
        ita.out,
        'lint could not give a verdict on the staged changes: lint-staged could not run: it refuses to run while files are staged with `git add -N`',
      );
      assert.match(ita.out, "Stage those files' content (`git add <file>`), or unstage them (`git reset -q <file>`)");
      repo.gitOk('reset', '-q', 'src/new.txt');
      // A YAML config: lint-staged 17 reads it only with the `yaml` package, which this project has not installed.
      repo.gitOk('rm', '-q', '.lintstagedrc.json');
      repo.write('.lintstagedrc.yml', '"src/*.txt": "sh fix.sh"\n');
      repo.gitOk('add', '.lintstagedrc.yml');
      const yaml = commit(repo);
      assert.is.not(yaml.code, 0, yaml.out);
      assert.match(
        yaml.out,
        `its configuration .lintstagedrc.yml is YAML, which lint-staged ${version} reads only with the \`yaml\` package`,
      );
      assert.match(
        yaml.out,
        'Install the `yaml` package (`npm i -D yaml`), or write the configuration as .lintstagedrc.json, then commit again.',
      );
      assert.not.match(yaml.out, 'no lint-staged configuration found');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [
          ['lint', 'caught'],
          ['lint', 'pass'],
          ['lint', 'error'],
          ['lint', 'error'],
        ],
      );
    }),
);

// Node-sensitive: an unhandled rejection, and what Node does with it.
nodeTest(
  'lint-staged 16.2 (nano-spawn) and a task command not found: an error saying to install it, the commit untouched, no stash left (lint-staged leaves the spawn error unhandled)',
  () =>
    withRepo({ files: files(LINT, { '.lintstagedrc.json': '{ "src/*.txt": "gl-no-such-linter" }\n' }) }, (repo) => {
      useLintStaged(repo, 'lint-staged-16-2');
      withPreCommit(repo);
      assert.match(repo.read('node_modules/lint-staged/package.json'), '"version": "16.2.0"');
      repo.write('src/value.txt', 'changed\n');
      repo.gitOk('add', 'src/value.txt');
      repo.write('src/value.txt', 'changed, and more not staged\n');
      const staged = repo.gitOk('write-tree');
      const r = commit(repo);
      assert.is(r.code, 1, r.out);
      assert.match(
        r.out,
        'lint could not give a verdict on the staged changes: lint-staged task could not start: gl-no-such-linter: `gl-no-such-linter` is not found (ENOENT)',
      );
      assert.match(r.out, 'Install `gl-no-such-linter`');
      assert.is(repo.gitOk('write-tree'), staged, 'the index holds what was staged');
      assert.is(repo.read('src/value.txt'), 'changed, and more not staged\n', 'the unstaged change is back');
      assert.is(repo.gitOk('stash', 'list'), '', 'no backup left behind');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['lint', 'error']],
      );
    }),
);

test('a lint-staged outside 13 to 17 runs, and the commit says it is not a version gate-ladder reads, with the one to install', () =>
  // lint-staged 17's code in a package that says it is 18.0.0: what a project on a newer lint-staged has.
  withRepo({ files: files(LINT) }, (repo) => {
    useLintStaged(repo, 'lint-staged-17', '18.0.0');
    withPreCommit(repo);
    repo.write('src/value.txt', 'bug\n');
    repo.gitOk('add', 'src/value.txt');
    const r = commit(repo);
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'gate-ladder: lint-staged 18.0.0 is not a version gate-ladder reads (13 to 17)');
    assert.match(r.out, '`npm i -D lint-staged@17`');
    assert.match(r.out, 'src/value.txt: value is buggy');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['lint', 'caught']],
    );
  }));

test('a staged fix passes, the unstaged bug stays unstaged, and the command tier judges the staged tree in a worktree', () =>
  withRepo({ files: files(`${LINT}\n${T1}`, { 'src/value.txt': 'bug\n' }) }, (repo) => {
    withPreCommit(repo);
    repo.write('src/value.txt', 'fixed\n');
    repo.gitOk('add', 'src/value.txt');
    repo.write('src/value.txt', 'bug again, not staged\n');
    const r = commit(repo);
    assert.is(r.code, 0, r.out);
    assert.is(show(repo, 'HEAD:src/value.txt'), 'fixed');
    assert.is(repo.read('src/value.txt'), 'bug again, not staged\n');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.isolation]),
      [
        ['lint', 'pass', 'none'],
        ['t1-properties', 'pass', 'worktree'],
      ],
    );
    assert.is(rows[0]!.patch, repo.gitOk('rev-parse', 'HEAD^{tree}'));
    assert.is(userWorktrees(repo).length, 1);
    assert.equal(poolLocks(repo), [], 'the slot is given back');
  }));

test('a command tier on pre-commit judges what is committed: `git commit <path>` with other changes unstaged', () =>
  withRepo({ files: files(T1, { 'src/other.txt': 'o\n' }) }, (repo) => {
    withPreCommit(repo);
    repo.write('src/value.txt', 'bug\n');
    repo.write('src/other.txt', 'o2\n');
    repo.gitOk('add', 'src/other.txt');
    // Commits only src/value.txt (git uses a temporary index, $GIT_INDEX_FILE); src/other.txt stays staged.
    const r = commit(repo, ['src/value.txt']);
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 't1-properties caught a problem in the staged changes');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.isolation]),
      [['t1-properties', 'caught', 'worktree']],
    );
    assert.equal(rows[0]!.files, ['src/value.txt']);
    assert.is(repo.gitOk('status', '--porcelain'), 'M  src/other.txt\n M src/value.txt', 'the index and the working tree are as before');
  }));

test('the first commit of a branch (no HEAD yet): judged on the staged tree, base null', () =>
  withRepo({ files: files(T1) }, (repo) => {
    withPreCommit(repo);
    repo.gitOk('checkout', '-q', '--orphan', 'fresh');
    repo.write('src/value.txt', 'bug, not staged\n');
    // Signing on, with a gpg that always fails: gate-ladder's own throwaway commit must not be signed.
    repo.gitOk('config', 'commit.gpgSign', 'true');
    repo.gitOk('config', 'gpg.program', 'false');
    const staged = repo.gitOk('write-tree');
    const r = commit(repo, ['--no-gpg-sign']);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.isolation, x.base]),
      [['t1-properties', 'pass', 'worktree', null]],
    );
    assert.is(rows[0]!.patch, staged);
    assert.is(repo.read('src/value.txt'), 'bug, not staged\n');
  }));

test('lint-staged that cannot run is an error, not a catch', () =>
  withRepo({ files: withoutRc(files(LINT)) }, (repo) => {
    withPreCommit(repo);
    repo.write('src/value.txt', 'bug\n');
    repo.gitOk('add', 'src/value.txt');
    const r = commit(repo);
    assert.is.not(r.code, 0, r.out);
    assert.match(
      r.out,
      'lint could not give a verdict on the staged changes: lint-staged could not run: no lint-staged configuration found',
    );
    assert.match(r.out, 'This is not a verdict on the patch');
    assert.match(r.out, 'Give lint-staged a configuration where the tier runs (.lintstagedrc.json');
    assert.match(r.out, "`lintStaged: { configPath: 'path/to/config' }` in the gate-ladder config, then commit again.");
    assert.not.match(r.out, 'Fix the tier');
    assert.not.match(r.out, 'caught a problem');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['lint', 'error']],
    );
  }));

// Node-sensitive: Node's import of the config, and the error it throws.
nodeTest('a lint-staged config that cannot load: the cause is quoted (escaped) with the next step, not "see above"', () =>
  withRepo(
    {
      files: {
        ...withoutRc(files(LINT)),
        'lint-staged.config.mjs': "throw new Error('no config here\\u001b[31m, sorry');\nexport default {};\n",
      },
    },
    (repo) => {
      withPreCommit(repo);
      repo.write('src/value.txt', 'good, changed\n');
      repo.gitOk('add', 'src/value.txt');
      const r = commit(repo);
      assert.is.not(r.code, 0, r.out);
      assert.match(
        r.out,
        'lint-staged could not run: its configuration lint-staged.config.mjs could not be read: no config here\\x1b[31m, sorry.',
      );
      assert.match(r.out, 'Fix lint-staged.config.mjs so that Node can import it');
      assert.match(r.out, "Fix lint-staged's configuration file as said above, then commit again.");
      assert.not.match(r.out, 'Fix the tier');
      assert.not.match(r.out, 'see above');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['lint', 'error']],
      );
    },
  ),
);

// Node-sensitive: whether Node strips types, and what it says when it cannot.
nodeTest('a lint-staged.config.ts this Node cannot load: the cause Node gave and what to do about it', () =>
  // An enum: Node 20 loads no .ts file at all; a Node that strips types refuses an enum. Fails on every Node.
  withRepo(
    {
      files: {
        ...withoutRc(files(LINT)),
        'lint-staged.config.ts': "enum Kind { Text = 'sh check-file.sh' }\nexport default { 'src/*.txt': Kind.Text };\n",
      },
    },
    (repo) => {
      withPreCommit(repo);
      repo.write('src/value.txt', 'good, changed\n');
      repo.gitOk('add', 'src/value.txt');
      const r = commit(repo);
      assert.is.not(r.code, 0, r.out);
      assert.match(r.out, 'lint-staged could not run: its configuration lint-staged.config.ts could not be read: ');
      if ((process.features as { typescript?: unknown }).typescript) {
        assert.match(r.out, 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX');
        assert.match(r.out, 'write it without enums');
      } else {
        assert.match(r.out, 'ERR_UNKNOWN_FILE_EXTENSION');
        assert.match(r.out, `Node ${process.version} cannot load a TypeScript file: rename lint-staged.config.ts to a .mjs file`);
      }
      assert.not.match(r.out, 'see above');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['lint', 'error']],
      );
    },
  ),
);

test('pre-commit with no tier for it, or nothing staged: allowed, no rows', () =>
  withRepo({ files: files(`    { name: 't1-properties', run: 'sh check.sh properties' },`) }, (repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.gitOk('add', 'src/value.txt');
    const r = repo.cli(['run', 'pre-commit']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'no tier runs for this change');
    repo.gitOk('reset', '-q');
    const n = repo.cli(['run', 'pre-commit']);
    assert.is(n.code, 0, n.out);
    assert.match(n.out, 'nothing staged');
    assert.equal(repo.ledger(), []);
  }));

/**
 * A lint-staged task that takes a while to stop on Ctrl-C, as many do; it says when it started and when
 * it was asked to stop, and stops once the test writes `release` (after its second Ctrl-C), not after a
 * fixed while that a slow machine could outlast before the second Ctrl-C is sent (a minute at most).
 */
// The handler before the "started" mark: a Ctrl-C sent once the mark is there must find it (until then,
// SIGINT's default action would end the task at once).
const SLOW_TASK = `import { existsSync, writeFileSync } from 'node:fs';
const marks = process.env.GL_MARKS;
let stopping = false;
process.on('SIGINT', () => {
  writeFileSync(marks + '/sigint', '');
  stopping = true;
});
writeFileSync(marks + '/started', '');
const end = Date.now() + 60_000;
setInterval(() => {
  if ((stopping && existsSync(marks + '/release')) || Date.now() > end) process.exit(1);
}, 20);
`;

/** Waits for `check` with a deadline (an event, not a fixed sleep). */
async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Node-sensitive: signals to a process group, and waiting on a child that handles them.
nodeTest('a second Ctrl-C while a lint-staged task stops: gate-ladder waits, lint-staged restores the unstaged changes byte for byte', () =>
  withRepo(
    { files: files(LINT, { '.lintstagedrc.json': '{ "src/*.txt": "node slow-task.mjs" }\n', 'slow-task.mjs': SLOW_TASK }) },
    async (repo) => {
      const marks = mkdtempSync(join(tmpdir(), 'gl-marks-'));
      try {
        repo.write('src/value.txt', 'staged\n');
        repo.gitOk('add', 'src/value.txt');
        const unstaged = 'staged\nand an unstaged line \u00e9\n\u0000binary-ish\n';
        repo.write('src/value.txt', unstaged);
        const staged = repo.gitOk('write-tree');
        // Its own process group, as a terminal's foreground job: Ctrl-C reaches the hook and the task alike.
        const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'run', 'pre-commit'], {
          cwd: repo.dir,
          env: cleanEnv({ GL_MARKS: marks }),
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.stderr.on('data', (d: Buffer) => (out += d));
        const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
        await until('the task to start', () => existsSync(join(marks, 'started')));
        process.kill(-child.pid!, 'SIGINT');
        // gate-ladder has seen the first Ctrl-C (it says it waits for lint-staged), and so has the task.
        await until('gate-ladder to wait for lint-staged', () => out.includes('waiting for it to finish'));
        await until('the task to see Ctrl-C', () => existsSync(join(marks, 'sigint')));
        process.kill(-child.pid!, 'SIGINT');
        // The second Ctrl-C is pending in every process of the group once kill() returns: the task may stop now.
        writeFileSync(join(marks, 'release'), '');
        const code = await exited;
        assert.is(code, 130, out);
        assert.match(out, 'waiting for it to finish');
        assert.is(repo.read('src/value.txt'), unstaged, 'the unstaged changes are back in the working tree');
        assert.is(repo.gitOk('write-tree'), staged, 'the index holds what was staged');
        assert.is(repo.gitOk('stash', 'list'), '', 'no backup left behind');
        assert.equal(repo.ledger(), [], 'an interrupted tier writes no row');
      } finally {
        rmSync(marks, { recursive: true, force: true });
      }
    },
  ),
);

// Node-sensitive: SIGTERM.
nodeTest('SIGTERM during a lint-staged tier: interrupted, no row', () =>
  withRepo(
    { files: files(LINT, { '.lintstagedrc.json': '{ "src/*.txt": "node slow-task.mjs" }\n', 'slow-task.mjs': SLOW_TASK }) },
    async (repo) => {
      const marks = mkdtempSync(join(tmpdir(), 'gl-marks-'));
      try {
        repo.write('src/value.txt', 'staged\n');
        repo.gitOk('add', 'src/value.txt');
        const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'run', 'pre-commit'], {
          cwd: repo.dir,
          env: cleanEnv({ GL_MARKS: marks }),
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stderr.on('data', (d: Buffer) => (out += d));
        const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
        await until('the task to start', () => existsSync(join(marks, 'started')));
        process.kill(-child.pid!, 'SIGTERM');
        const code = await exited;
        assert.is(code, 130, out);
        assert.not.match(out, 'could not start');
        assert.equal(repo.ledger(), [], 'an interrupted tier writes no row');
      } finally {
        rmSync(marks, { recursive: true, force: true });
      }
    },
  ),
);

test('a lint-staged backup left by a killed run is named before the tiers run', () =>
  withRepo({ files: files(LINT) }, (repo) => {
    withPreCommit(repo);
    repo.write('src/value.txt', 'lost work\n');
    repo.gitOk('stash', 'push', '-q', '-m', 'lint-staged automatic backup');
    repo.write('src/value.txt', 'good, again\n');
    repo.gitOk('add', 'src/value.txt');
    const r = commit(repo);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'stash@{0} is a backup lint-staged left behind');
    assert.match(r.out, '`git stash pop --index stash@{0}`');
  }));

test('after a lint-staged tier re-stages files, a command tier judges the tree that is committed', () =>
  withRepo(
    {
      files: files(`${LINT}\n${T1}`, {
        '.lintstagedrc.json': '{ "src/value.txt": "sh fix.sh" }\n',
        'fix.sh': '#!/bin/sh\nfor f in "$@"; do sed -i s/bug/fixed/ "$f"; done\n',
        'notes.txt': 'notes\n',
      }),
    },
    (repo) => {
      withPreCommit(repo);
      repo.write('src/value.txt', 'bug\n');
      repo.gitOk('add', 'src/value.txt');
      const before = repo.gitOk('write-tree');
      // An unrelated unstaged change: the command tier then runs in a worktree of the staged tree.
      repo.write('notes.txt', 'notes, edited\n');
      const r = commit(repo);
      assert.is(r.code, 0, r.out);
      assert.match(r.out, 'lint-staged changed the staged files');
      assert.is(show(repo, 'HEAD:src/value.txt'), 'fixed');
      const committed = repo.gitOk('rev-parse', 'HEAD^{tree}');
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.tier, x.verdict, x.isolation]),
        [
          ['lint', 'pass', 'none'],
          ['t1-properties', 'pass', 'worktree'],
        ],
      );
      assert.is(rows[0]!.patch, before, 'the lint row names the tree it was given');
      assert.is(rows[1]!.patch, committed, 'the command tier row names the tree it judged: the committed one');
    },
  ));

test.run();
