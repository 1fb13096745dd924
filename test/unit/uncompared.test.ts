/** The index entries `git status` does not compare (git/git.ts `uncomparedIn`), as git itself lists them, in real repositories. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tagsOfLsFiles, uncomparedIn } from '../../src/git/git.js';
import { hiddenReason } from '../../src/run/isolation.js';
import { sh } from '../helpers/repo.js';

function withGit(fn: (git: (...args: string[]) => string, dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gl-uncompared-'));
    const git = (...args: string[]) => {
      const r = sh('git', args, dir);
      if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.out}`);
      return r.stdout.replace(/\n$/, '');
    };
    try {
      git('init', '-q', '-b', 'main');
      git('config', 'user.name', 'T');
      git('config', 'user.email', 't@example.invalid');
      for (const [path, text] of [
        ['a.txt', 'a\n'],
        ['src/b.txt', 'b\n'],
        ['src/deep/c.txt', 'c\n'],
        ['docs/d.txt', 'd\n'],
      ] as const) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      git('add', '-A');
      git('commit', '-q', '-m', 'one');
      await fn(git, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const CASES: { name: string; setup: (git: (...args: string[]) => string) => void; want: { skipWorktree: number; assumeValid: number } }[] =
  [
    { name: 'nothing marked', setup: () => {}, want: { skipWorktree: 0, assumeValid: 0 } },
    {
      name: 'assume-unchanged',
      setup: (git) => git('update-index', '--assume-unchanged', 'a.txt'),
      want: { skipWorktree: 0, assumeValid: 1 },
    },
    {
      name: 'skip-worktree',
      setup: (git) => git('update-index', '--skip-worktree', 'src/b.txt'),
      want: { skipWorktree: 1, assumeValid: 0 },
    },
    { name: 'a cone sparse checkout', setup: (git) => git('sparse-checkout', 'set', 'docs'), want: { skipWorktree: 2, assumeValid: 0 } },
    {
      name: 'a non-cone sparse checkout',
      setup: (git) => git('sparse-checkout', 'set', '--no-cone', '/a.txt'),
      want: { skipWorktree: 3, assumeValid: 0 },
    },
    {
      name: 'both, index version 4',
      setup: (git) => {
        git('update-index', '--skip-worktree', 'src/b.txt');
        git('update-index', '--assume-unchanged', 'a.txt', 'src/deep/c.txt');
        git('update-index', '--index-version', '4');
      },
      want: { skipWorktree: 1, assumeValid: 2 },
    },
    {
      name: 'a split index',
      setup: (git) => {
        git('update-index', '--split-index');
        git('update-index', '--assume-unchanged', 'a.txt');
      },
      want: { skipWorktree: 0, assumeValid: 1 },
    },
  ];

for (const c of CASES) {
  test(
    `entries git status does not compare: ${c.name}`,
    withGit(async (git, dir) => {
      c.setup(git);
      assert.equal(await uncomparedIn(dir), c.want);
      assert.is(hiddenReason(c.want) === undefined, c.want.skipWorktree + c.want.assumeValid === 0);
    }),
  );
}

test('outside a repository: undefined, which isolates', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-uncompared-none-'));
  try {
    assert.is(await uncomparedIn(dir), undefined);
    assert.ok(hiddenReason(undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tagsOfLsFiles: S/s skip-worktree, a lower-case tag assume-unchanged', () => {
  assert.equal(tagsOfLsFiles('H a\0S b\0s c\0h d\0'), { skipWorktree: 2, assumeValid: 2 });
  assert.equal(tagsOfLsFiles(''), { skipWorktree: 0, assumeValid: 0 });
});

test('hiddenReason names what git status cannot see', () => {
  assert.is(hiddenReason({ skipWorktree: 0, assumeValid: 0 }), undefined);
  assert.match(hiddenReason({ skipWorktree: 3, assumeValid: 1 })!, '3 tracked paths are skip-worktree (a sparse checkout');
  assert.match(hiddenReason({ skipWorktree: 0, assumeValid: 1 })!, '1 tracked path is marked assume-unchanged');
});

test.run();
