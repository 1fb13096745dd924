import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseIsolation } from '../../src/run/isolation.js';
import { isOurs, lostAdminFolder } from '../../src/git/worktree.js';
import type { Isolation } from '../../src/types.js';

const cases: [Isolation, boolean, boolean, 'worktree' | 'none'][] = [
  // mode, dirty, HEAD is the target → where
  ['auto', false, true, 'none'],
  ['auto', true, true, 'worktree'],
  ['auto', false, false, 'worktree'],
  ['auto', true, false, 'worktree'],
  ['worktree', false, true, 'worktree'],
  ['worktree', true, false, 'worktree'],
  ['none', true, false, 'none'],
  ['none', false, true, 'none'],
];
for (const [mode, dirty, atTarget, where] of cases) {
  test(`isolation ${mode}, ${dirty ? 'dirty' : 'clean'}, ${atTarget ? 'at' : 'not at'} the pushed commit → ${where}`, () => {
    assert.is(chooseIsolation(mode, { dirty, atTarget }), where);
  });
}

const paths: [string, boolean][] = [
  ['/tmp/gate-ladder-abc123/wt', true],
  ['/tmp/gate-ladder-abc123/other', false],
  ['/tmp/elsewhere-abc123/wt', false],
  ['/tmp/x/gate-ladder-abc123/wt', false],
  ['/home/me/project', false],
];
for (const [path, ours] of paths) test(`isOurs(${path}) is ${ours}`, () => assert.is(isOurs(path, '/tmp'), ours));

// What git 2.39 prints when a concurrent prune deleted the admin folder it had just made, and what it prints otherwise.
const addFailures: [string, boolean][] = [
  ["fatal: could not open '.git/worktrees/wt2/locked' for writing: No such file or directory", true],
  ["fatal: could not open '/r/.git/worktrees/wt/gitdir' for writing: No such file or directory", true],
  ['fatal: invalid reference: c5b4e010', false],
  ["fatal: '/tmp/x/wt' already exists", false],
  ["fatal: could not open '.git/worktrees/wt/locked' for writing: Permission denied", false],
];
for (const [stderr, lost] of addFailures) test(`lostAdminFolder: ${stderr}`, () => assert.is(lostAdminFolder(stderr), lost));

test.run();
