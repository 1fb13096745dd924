/**
 * Issue 36, point 6, through the packed CLI on real repositories: `uninstall` names what it leaves under
 * the git dir (the ledger, caches: each with its path and size) and leaves it; `uninstall --purge` removes
 * it too, the worktree pool through git (`git worktree list` shows the main worktree alone, `git fsck` is
 * clean), with the hooks undone as plain uninstall undoes them. And install in a repository without
 * package.json, where git does not ignore node_modules, offers the .gitignore line.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Repo, linkGateLadderAlone, sh, withRepo } from '../helpers/repo.js';
import { toolPresent } from '../helpers/system-tool.js';
import { poolSlots, worktreePaths } from '../helpers/pool.js';

const CONFIG = `export default { isolation: 'worktree', tiers: [{ name: 't1', run: 'sh check.sh', timeout: 60 }] };\n`;
const FILES = { 'gate-ladder.config.ts': CONFIG, 'check.sh': 'echo ok\n', 'src/a.txt': '0\n' };

/** Everything install and uninstall may touch in the work tree and the repository's config: files with their text, git's local config. */
function snapshot(repo: Repo): string {
  const files = repo
    .gitOk('ls-files', '--cached', '--others', '--exclude-standard')
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('node_modules') && f !== 'src/a.txt')
    .sort()
    .map((f) => (existsSync(join(repo.dir, f)) ? `${f}\n${readFileSync(join(repo.dir, f), 'utf8')}` : `${f} (gone)`));
  const husky = existsSync(join(repo.dir, '.husky')) ? readdirSync(join(repo.dir, '.husky'), { recursive: true }).map(String).sort() : [];
  return [...files, `.husky: ${husky.join(' ')}`, repo.gitOk('config', '--local', '--list')].join('\n');
}

/** A push judged in a slot of the pool: a ledger, caches and a slot exist. */
function pushInSlot(repo: Repo): void {
  repo.write('src/a.txt', '1\n');
  // That file alone: the hook files install wrote stay out of the history, as a user's first push after install may.
  repo.gitOk('commit', '-q', '-m', 'one', '--', 'src/a.txt');
  const p = repo.push();
  assert.is(p.code, 0, p.out);
  assert.is(poolSlots(repo).length, 1, 'the push made a slot of the pool');
  assert.ok(existsSync(repo.ledgerPath));
  assert.ok(readdirSync(join(repo.dir, '.git', 'gate-ladder', 'cache')).length > 0, 'the push wrote caches');
}

const data = (repo: Repo) => join(realpathSync(repo.dir), '.git', 'gate-ladder');

function clean(repo: Repo): void {
  assert.equal(worktreePaths(repo), [realpathSync(repo.dir)], 'git worktree list: the main worktree alone');
  const fsck = repo.git('fsck', '--no-progress');
  assert.is(fsck.code, 0, fsck.out);
  assert.not.match(fsck.out, /error|dangling|broken|missing/i);
  assert.not.ok(existsSync(data(repo)), `${data(repo)} is gone`);
}

test('uninstall names what it leaves under the git dir and leaves it; uninstall --purge then removes it, and the pool through git', () =>
  withRepo({ install: false, files: FILES }, (repo) => {
    const before = snapshot(repo);
    assert.is(repo.cli(['install']).code, 0);
    pushInSlot(repo);
    const ledger = readFileSync(repo.ledgerPath, 'utf8');
    // What `gate-ladder sync` keeps here: a ref of the team's ledgers.
    repo.gitOk('update-ref', 'refs/gate-ladder/remotes/origin/other-clone', 'HEAD');
    const un = repo.cli(['uninstall']);
    assert.is(un.code, 0, un.out);
    assert.is(snapshot(repo), before, 'the hooks are undone as before');
    assert.match(un.out, `left under ${data(repo)} (`);
    assert.match(un.out, `\`npx gate-ladder uninstall --purge\` removes them (the ledger is your data: that is the only way it goes)`);
    const size = statSync(repo.ledgerPath).size;
    assert.match(
      un.out,
      `  - ledger.jsonl (${size < 1024 ? `${size} B` : `${Math.round(size / 1024)} KB`}): the ledger: every push's verdicts`,
    );
    assert.match(un.out, / {2}- cache\/ \(\d+ (B|KB|MB)\): caches/);
    assert.match(un.out, 'removed 1 worktree slot of the pool');
    assert.is(readFileSync(repo.ledgerPath, 'utf8'), ledger, 'the ledger is left as it was');
    assert.match(un.out, 'left 1 ref under refs/gate-ladder/');
    assert.ok(readdirSync(join(data(repo), 'cache')).length > 0, 'the caches are left');

    const purge = repo.cli(['uninstall', '--purge']);
    assert.is(purge.code, 0, purge.out);
    assert.match(purge.out, `--purge removed from ${data(repo)}:`);
    assert.not.match(purge.out, 'worktree slot', 'the pool went with the plain uninstall');
    assert.match(purge.out, / {2}- ledger\.jsonl \(.+\): the ledger/);
    assert.match(purge.out, '`uninstall --purge` is the only command that removes it');
    assert.match(purge.out, '--purge deleted 1 ref under refs/gate-ladder/');
    assert.is(repo.gitOk('for-each-ref', 'refs/gate-ladder/'), '');
    assert.is(snapshot(repo), before);
    clean(repo);
  }));

test('uninstall --purge right after a push: the hooks undone exactly as plain uninstall does, the pool, ledger and caches removed', () =>
  withRepo({ install: false, files: FILES }, (repo) => {
    const before = snapshot(repo);
    assert.is(repo.cli(['install']).code, 0);
    pushInSlot(repo);
    const purge = repo.cli(['uninstall', '--purge']);
    assert.is(purge.code, 0, purge.out);
    assert.match(purge.out, 'gate-ladder: uninstalled:');
    assert.match(purge.out, 'removed 1 worktree slot of the pool');
    assert.match(purge.out, / {2}- cache\/ \(.+\): caches/);
    assert.is(snapshot(repo), before);
    clean(repo);
    // A push afterwards runs no hook and writes nothing under the git dir.
    repo.write('src/a.txt', '2\n');
    repo.gitOk('commit', '-q', '-m', 'two', '--', 'src/a.txt');
    assert.is(repo.push().code, 0);
    assert.not.ok(existsSync(data(repo)));
  }));

/** A repository with no package.json (a Python project): nothing ignores node_modules. */
function pythonRepo(repo: Repo, gitignore: string | undefined): void {
  rmSync(join(repo.dir, 'package.json'));
  rmSync(join(repo.dir, '.gitignore'));
  if (gitignore !== undefined) repo.write('.gitignore', gitignore);
  repo.write('test_a.py', 'def test_a():\n    assert True\n');
}

test('install without package.json, where git does not ignore node_modules: without a terminal it says the line to add, --gitignore adds it once', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    pythonRepo(repo, '__pycache__/');
    // The test's node_modules is a link: a folder's pattern would not match it, so the line is `node_modules`.
    const first = repo.cli(['install']);
    assert.is(first.code, 0, first.out);
    assert.match(
      first.out,
      'git does not ignore node_modules, where gate-ladder is installed, so `git add -A` would commit it: add the line `node_modules` to .gitignore (or run `npx gate-ladder install --gitignore`, which adds it)',
    );
    assert.is(repo.read('.gitignore'), '__pycache__/', 'nothing written without asking');
    const add = repo.cli(['install', '--gitignore']);
    assert.is(add.code, 0, add.out);
    assert.match(add.out, 'added `node_modules` to .gitignore');
    assert.is(repo.read('.gitignore'), '__pycache__/\nnode_modules', 'the line added; the file still ends without a newline, as it did');
    assert.is(repo.git('check-ignore', '-q', 'node_modules').code, 0);
    const again = repo.cli(['install', '--gitignore']);
    assert.is(again.code, 0, again.out);
    assert.not.match(again.out, '.gitignore');
    assert.is(repo.read('.gitignore'), '__pycache__/\nnode_modules', 'never added twice');
    const un = repo.cli(['uninstall']);
    assert.match(un.out, '.gitignore: kept the line `node_modules` install added');
    assert.is(repo.read('.gitignore'), '__pycache__/\nnode_modules');
  }));

test('install --yes in a repository without package.json or .gitignore, node_modules a folder: writes `node_modules/` with a final newline', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    pythonRepo(repo, undefined);
    linkGateLadderAlone(repo);
    const r = repo.cli(['install', '--yes']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'added `node_modules/` to .gitignore');
    assert.is(repo.read('.gitignore'), 'node_modules/\n');
    assert.not.match(repo.gitOk('status', '--porcelain', '--untracked-files=all'), 'node_modules');
    assert.is(repo.cli(['install', '--yes']).code, 0);
    assert.is(repo.read('.gitignore'), 'node_modules/\n');
  }));

/** util-linux's `script` gives the command a terminal: install's question is asked there. */
const hasScript = toolPresent('install asking on a terminal', existsSync('/usr/bin/script'), 'apt-get install bsdutils (util-linux)');

test('install on a terminal asks whether to add the line (default yes); "n" leaves .gitignore as it is and says the step', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    if (!hasScript) return;
    pythonRepo(repo, '__pycache__/\n');
    const cli = join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs');
    const onTerminal = (answer: string) =>
      sh('script', ['-qec', `'${process.execPath}' '${cli}' install`, '/dev/null'], repo.dir, { input: answer });
    const no = onTerminal('n\n');
    assert.is(no.code, 0, no.out);
    assert.match(no.out, 'Add `node_modules` to .gitignore? [Y/n]');
    assert.match(no.out, 'add the line `node_modules` to .gitignore (or run `npx gate-ladder install --gitignore`');
    assert.is(repo.read('.gitignore'), '__pycache__/\n');
    const yes = onTerminal('\n');
    assert.is(yes.code, 0, yes.out);
    assert.match(yes.out, 'added `node_modules` to .gitignore');
    assert.is(repo.read('.gitignore'), '__pycache__/\nnode_modules\n');
  }));

test.run();
