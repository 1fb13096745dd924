/**
 * The lint-staged guard during a merge: lint-staged's restore is `git reset --hard HEAD`, which ends
 * the merge (MERGE_HEAD, MERGE_MODE, MERGE_MSG removed), then puts the merge files back itself; a
 * Ctrl-C between the two would leave a tree restored by the guard but no merge in progress, so the
 * next `git commit` would record a one-parent commit and lose the merged branch.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { saveWork, settleWork } from '../../src/lint-staged/guard.js';
import { type Repo, sh, withRepo } from '../helpers/repo.js';

/** A merge with a conflict, resolved and staged, and an unstaged change on top: `git commit` would make the merge commit. */
function mergeInProgress(repo: Repo): void {
  repo.write('a.txt', 'base\n');
  repo.commit('a');
  repo.gitOk('checkout', '-q', '-b', 'side');
  repo.write('a.txt', 'side\n');
  repo.commit('side');
  repo.gitOk('checkout', '-q', '-');
  repo.write('a.txt', 'main\n');
  repo.commit('main');
  assert.is.not(repo.git('merge', 'side').code, 0, 'the merge stops on the conflict');
  repo.write('a.txt', 'resolved\n');
  repo.gitOk('add', 'a.txt');
  repo.write('b.txt', 'unstaged\n');
}

const mergeFiles = (repo: Repo): string[] =>
  ['MERGE_HEAD', 'MERGE_MODE', 'MERGE_MSG'].map((name) => {
    const path = repo.gitOk('rev-parse', '--path-format=absolute', '--git-path', name);
    return `${name} ${existsSync(path) ? readFileSync(path, 'utf8') : '(gone)'}`;
  });

test('stopped after lint-staged reset the tree: the guard puts back the tree, the index and the merge in progress', () =>
  withRepo({ files: { 'b.txt': 'b\n' }, install: false, pushInitial: false }, async (repo) => {
    mergeInProgress(repo);
    const before = { merge: mergeFiles(repo), status: repo.gitOk('status', '--porcelain') };
    assert.match(before.merge[0]!, /^MERGE_HEAD [0-9a-f]{40}/);
    const saved = await saveWork(repo.dir, 'lint');
    assert.ok(saved, 'the work was saved');
    // What a Ctrl-C between lint-staged's `reset --hard HEAD` and its merge-state restore leaves.
    repo.gitOk('reset', '-q', '--hard', 'HEAD');
    assert.match(mergeFiles(repo)[0]!, '(gone)');
    const settled = await settleWork(repo.dir, saved!, false);
    assert.is(settled.kind, 'restored');
    assert.equal(mergeFiles(repo), before.merge, 'the merge is in progress again');
    assert.is(repo.gitOk('status', '--porcelain'), before.status);
    repo.gitOk('commit', '-q', '--no-edit', '--no-verify');
    assert.is(repo.gitOk('rev-list', '--parents', '-n1', 'HEAD').split(' ').length, 3, 'the commit made is the merge');
  }));

test("a git command of the guard's clean-up killed by a signal from outside is run again: the backup stash is still dropped", () =>
  withRepo({ files: { 'b.txt': 'b\n' }, install: false, pushInitial: false }, async (repo) => {
    repo.write('b.txt', 'changed\n');
    const saved = await saveWork(repo.dir, 'lint');
    assert.ok(saved, 'the work was saved');
    assert.match(repo.gitOk('stash', 'list'), 'gate-ladder: before lint-staged');
    // A git on PATH whose first `stash list` and first `stash drop` are killed (SIGKILL) before they run.
    const shims = join(dirname(repo.dir), 'shims');
    mkdirSync(shims);
    const realGit = sh('sh', ['-c', 'command -v git'], repo.dir).stdout.trim();
    writeFileSync(
      join(shims, 'git'),
      `#!/bin/sh\nfor what in list drop; do\n  if [ "$1 $2" = "stash $what" ] && [ ! -e "${shims}/$what.killed" ]; then : > "${shims}/$what.killed"; kill -9 $$; fi\ndone\nexec "${realGit}" "$@"\n`,
    );
    chmodSync(join(shims, 'git'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${shims}:${path}`;
    try {
      const settled = await settleWork(repo.dir, saved!, false);
      assert.is(settled.kind, 'untouched');
      assert.is(settled.kind !== 'stashed' ? settled.notDropped : 'stashed', undefined, 'nothing left to drop by hand');
    } finally {
      process.env.PATH = path;
    }
    assert.ok(existsSync(join(shims, 'list.killed')) && existsSync(join(shims, 'drop.killed')), 'both were killed once');
    assert.is(repo.gitOk('stash', 'list'), '', 'the backup is dropped');
    assert.is(readFileSync(join(repo.dir, 'b.txt'), 'utf8'), 'changed\n');
  }));

test.run();
