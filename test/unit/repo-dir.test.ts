/** The repo's paths from its files, as git finds them: a `.git` folder, or a linked worktree's `.git` file. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoFromFiles } from '../../src/git/repo-dir.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgSign=false', ...args], { cwd, stdio: 'pipe', env: { ...process.env, GIT_DIR: undefined } });

function withDirs(fn: (base: string) => void): () => void {
  return () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'gl-repodir-')));
    try {
      fn(base);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
}

test('a .git folder, found from a subfolder; a linked worktree through its .git file; what git finds', withDirs((base) => {
  const main = join(base, 'main');
  mkdirSync(join(main, 'src', 'deep'), { recursive: true });
  git(base, 'init', '-q', '-b', 'main', main);
  git(main, 'commit', '-q', '--allow-empty', '-m', 'one');
  const found = repoFromFiles(join(main, 'src', 'deep'));
  assert.equal(found && { root: found.root, gitDir: found.gitDir, commonDir: found.commonDir }, { root: main, gitDir: join(main, '.git'), commonDir: join(main, '.git') });
  assert.match(found!.config, '[core]');

  const linked = join(base, 'linked');
  git(main, 'worktree', 'add', '-q', '--detach', linked);
  const wt = repoFromFiles(linked);
  const gitDir = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: linked, encoding: 'utf8' }).trim();
  assert.equal(wt && { root: wt.root, gitDir: wt.gitDir, commonDir: wt.commonDir }, { root: linked, gitDir, commonDir: join(main, '.git') });
}));

test('a .git folder without HEAD is not a repository to git; nothing above it either: undefined', withDirs((base) => {
  mkdirSync(join(base, 'odd', '.git'), { recursive: true });
  assert.is(repoFromFiles(join(base, 'odd')), undefined);
}));

test.run();
