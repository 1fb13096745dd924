/** `gate-ladder run pre-commit` through a real `git commit`: the staged tree is judged, lint-staged included. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, type Repo, sh, withRepo } from '../helpers/repo.js';
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

test('a staged bug is caught by lint-staged, and the unstaged fix in the same file is left untouched', () =>
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
    assert.equal(rows.map((x) => [x.hook, x.tier, x.verdict, x.isolation, x.exit]), [['pre-commit', 'lint', 'caught', 'none', 1]]);
    assert.is(rows[0]!.patch, staged, 'the patch id is the staged tree');
    assert.is(rows[0]!.base, before);
    assert.is(rows[0]!.ref, undefined);
    assert.equal(rows[0]!.files, ['src/value.txt']);
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
    assert.equal(rows.map((x) => [x.tier, x.verdict, x.isolation]), [
      ['lint', 'pass', 'none'],
      ['t1-properties', 'pass', 'worktree'],
    ]);
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
    assert.equal(rows.map((x) => [x.tier, x.verdict, x.isolation]), [['t1-properties', 'caught', 'worktree']]);
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
    assert.equal(rows.map((x) => [x.tier, x.verdict, x.isolation, x.base]), [['t1-properties', 'pass', 'worktree', null]]);
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
    assert.match(r.out, 'lint could not give a verdict on the staged changes: lint-staged could not run: no lint-staged configuration found');
    assert.match(r.out, 'This is not a verdict on the patch');
    assert.match(r.out, 'then commit again');
    assert.not.match(r.out, 'caught a problem');
    assert.equal(repo.ledger().map((x) => [x.tier, x.verdict]), [['lint', 'error']]);
  }));

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

test.run();
