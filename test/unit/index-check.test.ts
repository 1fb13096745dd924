/**
 * The in-process work-tree check (src/index-check.ts) against git itself, in real repositories: whatever
 * the quick answer, 'clean-at-head' must mean `git status` says clean at that HEAD, 'elsewhere' that
 * HEAD is another commit, and `true` from the pre-commit check that `git diff` sees no unstaged change.
 */
import { chmodSync, lutimesSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RepoInfo } from '../../src/git/git.js';
import { headFromFiles, packedRef, parseRefFile } from '../../src/git/head-file.js';
import { type QuickState, quickIndexMatches, quickPathsAtTree, quickWorkTree, tagsOfLsFiles, uncomparedIn } from '../../src/git/index-check.js';
import { parseIndex, uncomparedEntries } from '../../src/git/index-file.js';
import { hiddenReason } from '../../src/ladder/isolation.js';
import { sh } from '../helpers/repo.js';

interface R {
  dir: string;
  git: (...args: string[]) => string;
  info: () => RepoInfo;
  write: (path: string, content: string) => void;
  commit: (message: string) => { head: string; tree: string };
  /**
   * Every tracked file older than the index: what a checkout a while ago looks like (nothing racily
   * clean). Each call picks another second: git refreshes an entry only when a second changes, so
   * a time set twice within one second would leave a stale nanosecond in the index.
   */
  settle: () => void;
}

let settled = 0;

function at(dir: string): R {
  const git = (...args: string[]) => {
    const r = sh('git', args, dir, { env: { GIT_OPTIONAL_LOCKS: '0' } });
    if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.out}`);
    return r.stdout.replace(/\n$/, '');
  };
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  return {
    dir,
    git,
    info: () => {
      const [root, commonDir, gitDir] = git('rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-dir').split('\n');
      return { root: root!, commonDir: commonDir!, gitDir: gitDir! };
    },
    write,
    commit: (message) => {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return { head: git('rev-parse', 'HEAD'), tree: git('rev-parse', 'HEAD^{tree}') };
    },
    settle: () => {
      const past = Math.floor(Date.now() / 1000) - 1000 + (settled++ % 900);
      for (const path of git('ls-files', '-z').split('\0').filter(Boolean)) lutimesSync(join(dir, path), past, past);
      sh('git', ['update-index', '-q', '--refresh'], dir);
    },
  };
}

/** A repo with a few committed files (one in a folder), in a temp dir removed afterwards. */
function withGit(fn: (r: R) => void, init: string[] = []): () => void {
  return () => {
    const base = mkdtempSync(join(tmpdir(), 'gl-index-'));
    try {
      const r = at(join(base, 'work'));
      mkdirSync(r.dir);
      r.git('init', '-q', '-b', 'main', ...init);
      for (const [k, v] of [['user.name', 'T'], ['user.email', 't@example.invalid'], ['commit.gpgSign', 'false'], ['gc.auto', '0'], ['core.fileMode', 'true']]) r.git('config', k!, v!);
      r.write('a.txt', 'alpha\n');
      r.write('src/b.txt', 'bravo\n');
      r.write('src/deep/c.txt', 'charlie\n');
      fn(r);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
}

/** What git says, without letting it refresh the index (as workTreeState asks it). */
function gitStatus(r: R, env: Record<string, string> = {}): { head: string | null; clean: boolean } {
  const out = sh('git', ['status', '--porcelain=v2', '--branch', '--untracked-files=no', '--ignore-submodules=dirty'], r.dir, { env: { GIT_OPTIONAL_LOCKS: '0', ...env } });
  if (out.code !== 0) throw new Error(out.out);
  const lines = out.stdout.split('\n').filter(Boolean);
  const oid = lines.find((l) => l.startsWith('# branch.oid '))?.slice(13) ?? null;
  return { head: oid && /^[0-9a-f]+$/.test(oid) ? oid : null, clean: lines.every((l) => l.startsWith('#')) };
}

/** The quick answer, after asserting the invariant against `git status`. */
function quick(r: R, head: string, tree: string | undefined, env: NodeJS.ProcessEnv = {}, info = r.info()): QuickState | undefined {
  const q = quickWorkTree(info, head, tree, env);
  const s = gitStatus(r);
  if (q === 'clean-at-head') {
    assert.ok(s.clean, 'quick said clean, git status says dirty');
    assert.is(s.head, head, 'quick said HEAD is the pushed commit, git disagrees');
  }
  if (q === 'elsewhere') assert.is.not(s.head, head, 'quick said elsewhere, git says HEAD is the pushed commit');
  return q;
}

test('clean work tree at the pushed commit, files older than the index: clean-at-head', withGit((r) => {
  const { head, tree } = r.commit('one');
  r.settle();
  assert.is(quick(r, head, tree), 'clean-at-head');
  assert.is(quick(r, head, undefined), undefined, 'no tree known: ask git');
  assert.is(quick(r, head, r.git('rev-parse', 'HEAD:src')), undefined, 'another tree: ask git');
}));

test('just committed: the files are as new as the index (racily clean), so git decides', withGit((r) => {
  const { head, tree } = r.commit('one');
  // A file written in the future (a clock skew) is racy however long after the commit we look.
  const future = Math.floor(Date.now() / 1000) + 3600;
  r.settle();
  r.write('a.txt', 'alpha2\n');
  utimesSync(join(r.dir, 'a.txt'), future, future);
  const t2 = r.commit('two');
  assert.is(quick(r, t2.head, t2.tree), undefined);
  assert.is.not(head, t2.head);
  assert.is(quick(r, head, tree), 'elsewhere');
}));

test('content changed, same size, mtime set back to what the index recorded: never clean', withGit((r) => {
  const { head, tree } = r.commit('one');
  r.settle();
  const before = r.git('ls-files', '--debug', 'a.txt');
  const mtime = Number(/mtime: (\d+):/.exec(before)![1]);
  r.write('a.txt', 'alphA\n');
  utimesSync(join(r.dir, 'a.txt'), mtime, mtime);
  // Only the ctime tells, and git (unless built with USE_NSEC) compares its seconds: within the
  // second of the refresh, git itself says clean. The quick check compares nanoseconds.
  assert.is(quick(r, head, tree), undefined);
}));

/** Where the check gives up: reading the index, its cache-tree, or the lstat comparison. */
type Refusal = 'index' | 'tree' | 'stat';
const edits: [string, Refusal, (r: R) => void][] = [
  ['a file grows', 'stat', (r) => writeFileSync(join(r.dir, 'src/b.txt'), 'bravo, longer\n', { flag: 'a' })],
  ['a file is deleted', 'stat', (r) => unlinkSync(join(r.dir, 'src/deep/c.txt'))],
  ['a file becomes executable', 'stat', (r) => chmodSync(join(r.dir, 'a.txt'), 0o755)],
  ['a file becomes a folder', 'stat', (r) => {
    unlinkSync(join(r.dir, 'a.txt'));
    mkdirSync(join(r.dir, 'a.txt'));
  }],
  ['a file becomes a symlink to a copy', 'stat', (r) => {
    writeFileSync(join(r.dir, 'copy.txt'), 'alpha\n');
    unlinkSync(join(r.dir, 'a.txt'));
    symlinkSync('copy.txt', join(r.dir, 'a.txt'));
  }],
  ['a folder is moved away and a symlink takes its place (same inodes)', 'stat', (r) => {
    renameSync(join(r.dir, 'src'), join(r.dir, 'src2'));
    symlinkSync('src2', join(r.dir, 'src'));
  }],
  ['a change is staged', 'tree', (r) => {
    r.write('src/b.txt', 'bravo2\n');
    r.git('add', 'src/b.txt');
    r.settle();
  }],
  ['a staged change is staged back (the cache-tree stays invalid)', 'tree', (r) => {
    r.write('src/b.txt', 'bravo2\n');
    r.git('add', 'src/b.txt');
    r.write('src/b.txt', 'bravo\n');
    r.git('add', 'src/b.txt');
    r.settle();
  }],
  ['a file is added', 'tree', (r) => {
    r.write('new.txt', 'new\n');
    r.git('add', 'new.txt');
    r.settle();
  }],
  ['a file is added with intent to add', 'index', (r) => {
    r.write('new.txt', 'new\n');
    r.git('add', '-N', 'new.txt');
    r.settle();
  }],
  ['a file is marked assume-unchanged', 'index', (r) => r.git('update-index', '--assume-unchanged', 'a.txt')],
  ['a file is marked skip-worktree', 'index', (r) => r.git('update-index', '--skip-worktree', 'a.txt')],
  ['sparse checkout leaves a folder out', 'index', (r) => r.git('sparse-checkout', 'set', '--no-cone', '/a.txt')],
  ['the index is split', 'index', (r) => r.git('update-index', '--split-index')],
];
for (const [title, refusal, edit] of edits) {
  test(`${title}: not clean-at-head (the ${refusal} check refuses)`, withGit((r) => {
    const { head, tree } = r.commit('one');
    r.settle();
    assert.is(quick(r, head, tree), 'clean-at-head', 'before the change');
    edit(r);
    assert.is(quick(r, head, tree), undefined);
    const parsed = parseIndex(readFileSync(join(r.dir, '.git/index')), 20, 100);
    if (refusal === 'index') assert.is(parsed, undefined);
    else assert.is(parsed?.tree === tree, refusal === 'stat', `cache-tree ${parsed?.tree}`);
  }));
}

test('an index git needs to refresh (touched, same content): git decides, and says clean', withGit((r) => {
  const { head, tree } = r.commit('one');
  r.settle();
  utimesSync(join(r.dir, 'a.txt'), new Date(), new Date());
  assert.is(quick(r, head, tree), undefined);
  assert.ok(gitStatus(r).clean);
}));

test('HEAD detached at the pushed commit; another commit checked out: elsewhere', withGit((r) => {
  const one = r.commit('one');
  r.write('a.txt', 'alpha2\n');
  const two = r.commit('two');
  r.git('checkout', '-q', '--detach', one.head);
  r.settle();
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  assert.is(quick(r, two.head, two.tree), 'elsewhere');
  assert.is(quick(r, two.head, undefined), 'elsewhere', 'no tree needed to tell');
  r.git('checkout', '-q', 'main');
  r.settle();
  assert.is(quick(r, two.head, two.tree), 'clean-at-head');
  assert.is(quick(r, one.head, one.tree), 'elsewhere');
}));

test('packed refs: HEAD resolves through packed-refs', withGit((r) => {
  const one = r.commit('one');
  r.git('tag', '-a', '-m', 'peeled line', 'v1');
  r.git('branch', 'other');
  r.git('pack-refs', '--all');
  assert.not.ok(sh('test', ['-e', join(r.dir, '.git/refs/heads/main')], r.dir).code === 0, 'main is packed');
  r.settle();
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  r.write('a.txt', 'alpha2\n');
  const two = r.commit('two'); // a loose ref again, newer than the packed one
  r.settle();
  assert.is(quick(r, two.head, two.tree), 'clean-at-head');
  assert.is(quick(r, one.head, one.tree), 'elsewhere');
}));

test('HEAD through a symref chain, and an unborn branch', withGit((r) => {
  const one = r.commit('one');
  r.git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
  r.git('symbolic-ref', 'HEAD', 'refs/heads/alias');
  r.settle();
  assert.is(headFromFiles(r.info()), one.head);
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  r.git('symbolic-ref', 'HEAD', 'refs/heads/unborn');
  assert.is(headFromFiles(r.info()), undefined);
  assert.is(quick(r, one.head, one.tree), undefined);
}));

test('a linked worktree reads its own HEAD and index', withGit((r) => {
  const one = r.commit('one');
  r.write('a.txt', 'alpha2\n');
  const two = r.commit('two');
  const side = at(join(r.dir, '..', 'side'));
  r.git('worktree', 'add', '-q', '-b', 'side', side.dir, one.head);
  side.settle();
  r.settle();
  assert.is(quick(side, one.head, one.tree), 'clean-at-head');
  assert.is(quick(side, two.head, two.tree), 'elsewhere');
  assert.is(quick(r, two.head, two.tree), 'clean-at-head');
  side.write('src/b.txt', 'bravo, changed in the side worktree\n');
  assert.is(quick(side, one.head, one.tree), undefined);
  assert.is(quick(r, two.head, two.tree), 'clean-at-head', 'the main worktree is unaffected');
  // A per-worktree ref lives in the worktree's own git dir.
  side.git('update-ref', 'refs/worktree/here', one.head);
  side.git('symbolic-ref', 'HEAD', 'refs/worktree/here');
  assert.is(headFromFiles(side.info()), one.head);
}));

test('index version 4 (prefix-compressed paths)', withGit((r) => {
  r.write('src/deep/c2.txt', 'c2\n');
  r.write('src/déjà vu/ünï.txt', 'non-ASCII\n');
  const one = r.commit('one');
  r.git('update-index', '--index-version', '4');
  r.settle();
  assert.is(readFileSync(join(r.dir, '.git/index')).readUInt32BE(4), 4);
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  r.write('src/deep/c2.txt', 'c2 changed\n');
  assert.is(quick(r, one.head, one.tree), undefined);
}));

test('a symlink is compared as git compares it (link size, times, inode)', withGit((r) => {
  symlinkSync('src/b.txt', join(r.dir, 'link'));
  const one = r.commit('one');
  r.settle();
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  unlinkSync(join(r.dir, 'link'));
  symlinkSync('src/deep/c.txt', join(r.dir, 'link'));
  assert.is(quick(r, one.head, one.tree), undefined);
}));

test('a submodule (gitlink): git decides', withGit((r) => {
  const one = r.commit('one');
  r.git('update-index', '--add', '--cacheinfo', `160000,${one.head},sub`);
  mkdirSync(join(r.dir, 'sub'));
  r.git('commit', '-q', '-m', 'gitlink');
  const two = { head: r.git('rev-parse', 'HEAD'), tree: r.git('rev-parse', 'HEAD^{tree}') };
  r.settle();
  assert.is(r.git('ls-files', '-s', 'sub').slice(0, 6), '160000');
  assert.is(quick(r, two.head, two.tree), undefined);
}));

test('a merge conflict: git decides', withGit((r) => {
  r.commit('one');
  r.git('checkout', '-q', '-b', 'x');
  r.write('a.txt', 'x\n');
  r.commit('x');
  r.git('checkout', '-q', 'main');
  r.write('a.txt', 'main\n');
  const m = r.commit('main');
  sh('git', ['merge', '-q', 'x'], r.dir);
  r.settle();
  assert.is(quick(r, m.head, m.tree), undefined);
}));

/** Whether this git can make a SHA-256 repository: the test below is reported as skipped where it cannot. */
function canSha256(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'gl-sha256-'));
  try {
    return sh('git', ['init', '-q', '--object-format=sha256', probe], probe).code === 0;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

(canSha256() ? test : test.skip)('a SHA-256 repository', () => {
  withGit((r) => {
    const one = r.commit('one');
    assert.is(one.head.length, 64);
    r.settle();
    assert.is(quick(r, one.head, one.tree), 'clean-at-head');
    r.write('a.txt', 'alpha2\n');
    const two = r.commit('two');
    r.settle();
    assert.is(quick(r, one.head, one.tree), 'elsewhere');
    r.write('a.txt', '');
    assert.is(quick(r, two.head, two.tree), undefined);
  }, ['--object-format=sha256'])();
});

test('variables that point git elsewhere: git decides', withGit((r) => {
  const one = r.commit('one');
  r.settle();
  for (const v of ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY']) {
    assert.is(quickWorkTree(r.info(), one.head, one.tree, { [v]: join(r.dir, '.git', v === 'GIT_INDEX_FILE' ? 'index' : '') }), undefined, v);
  }
  assert.is(quickWorkTree(r.info(), one.head, one.tree, { HOME: '/nowhere' }), 'clean-at-head');
}));

test('reftable (or any ref storage the config names): git decides', withGit((r) => {
  const one = r.commit('one');
  r.settle();
  mkdirSync(join(r.dir, '.git/reftable'));
  assert.is(headFromFiles(r.info()), undefined);
  rmSync(join(r.dir, '.git/reftable'), { recursive: true });
  assert.is(headFromFiles(r.info()), one.head);
  writeFileSync(join(r.dir, '.git/config'), '[extensions]\n\trefStorage = reftable\n', { flag: 'a' });
  assert.is(headFromFiles(r.info()), undefined);
}));

test('more entries than the cap: git decides', withGit((r) => {
  const one = r.commit('one');
  r.settle();
  const buf = readFileSync(join(r.dir, '.git/index'));
  assert.ok(parseIndex(buf, 20, 3));
  assert.is(parseIndex(buf, 20, 2), undefined);
  assert.is(parseIndex(buf, 32, 3), undefined, 'a SHA-1 index read as SHA-256');
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
}));

test('a garbled or truncated index file in a real repo: undefined, never a throw', withGit((r) => {
  const one = r.commit('one');
  r.settle();
  const file = join(r.dir, '.git/index');
  const good = readFileSync(file);
  for (const bad of [good.subarray(0, 40), good.subarray(0, good.length - 25), Buffer.concat([good.subarray(0, 80), Buffer.from('garbage\0'), good.subarray(88)])]) {
    writeFileSync(file, bad);
    assert.is(quickWorkTree(r.info(), one.head, one.tree, {}), undefined);
    assert.is(quickIndexMatches(r.info(), 20, {}), undefined);
  }
  writeFileSync(file, good);
  assert.is(quick(r, one.head, one.tree), 'clean-at-head');
  unlinkSync(file);
  assert.is(quickWorkTree(r.info(), one.head, one.tree, {}), undefined, 'no index at all');
}));

test('pre-commit: the work tree matches the index (staged changes allowed), not when a change is unstaged', withGit((r) => {
  r.commit('one');
  r.write('src/b.txt', 'bravo, staged\n');
  r.git('add', 'src/b.txt');
  r.settle();
  const unstaged = () => sh('git', ['diff', '--quiet'], r.dir).code === 1;
  const info = r.info();
  assert.is(quickIndexMatches(info, 20, {}), true);
  assert.not.ok(unstaged());
  assert.is(quickIndexMatches(info, 20, { GIT_INDEX_FILE: '.git/index' }), true, 'as git commit sets it');
  assert.is(quickIndexMatches(info, 20, { GIT_INDEX_FILE: join(info.gitDir, 'index') }), true);
  assert.is(quickIndexMatches(info, 20, { GIT_INDEX_FILE: '.git/index.lock' }), undefined, 'git commit -a');
  assert.is(quickIndexMatches(info, 20, { GIT_DIR: info.gitDir }), undefined);
  r.write('src/b.txt', 'bravo, staged, then changed\n');
  assert.is(quickIndexMatches(info, 20, {}), undefined);
  assert.ok(unstaged());
}));

// ── the pure parsers, on hand-made input ──

/** A v2/v3 index of the given entries (SHA-1), with a TREE extension when `tree` is given. */
function indexBuffer(entries: { path: string; size?: number; flags2?: number; mode?: number }[], tree?: { count: number; sha?: string }, version = 2): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(12);
  head.write('DIRC', 0, 'latin1');
  head.writeUInt32BE(version, 4);
  head.writeUInt32BE(entries.length, 8);
  parts.push(head);
  for (const e of entries) {
    const name = Buffer.from(e.path);
    const fixed = Buffer.alloc(40 + 20 + 2 + (e.flags2 === undefined ? 0 : 2));
    for (let i = 0; i < 10; i++) fixed.writeUInt32BE(i + 1, i * 4);
    fixed.writeUInt32BE(e.mode ?? 0o100644, 24);
    fixed.writeUInt32BE(e.size ?? 6, 36);
    fixed.fill(0xab, 40, 60);
    fixed.writeUInt16BE(Math.min(name.length, 0xfff) | (e.flags2 === undefined ? 0 : 0x4000), 60);
    if (e.flags2 !== undefined) fixed.writeUInt16BE(e.flags2, 62);
    const len = fixed.length + name.length;
    parts.push(fixed, name, Buffer.alloc(((len + 8) & ~7) - len));
  }
  if (tree) {
    const body = Buffer.concat([Buffer.from(`\0${tree.count} 0\n`, 'latin1'), tree.sha ? Buffer.from(tree.sha, 'hex') : Buffer.alloc(0)]);
    const ext = Buffer.alloc(8);
    ext.write('TREE', 0, 'latin1');
    ext.writeUInt32BE(body.length, 4);
    parts.push(ext, body);
  }
  parts.push(Buffer.alloc(20));
  return Buffer.concat(parts);
}

const T = '1234567890abcdef1234567890abcdef12345678';

test('parseIndex reads a hand-made index: stat fields, padding, a long name, the root cache-tree', () => {
  const long = `${'d/'.repeat(2100)}f`;
  const p = parseIndex(indexBuffer([{ path: 'a' }, { path: 'bc/defgh' }, { path: long }], { count: 3, sha: T }), 20, 10);
  assert.equal(p?.entries.map((e) => e.path), ['a', 'bc/defgh', long]);
  assert.equal(p?.entries[0], { path: 'a', mode: 0o100644, ctimeSec: 1, ctimeNsec: 2, mtimeSec: 3, mtimeNsec: 4, ino: 6, uid: 8, gid: 9, size: 6 });
  assert.is(p?.tree, T);
  assert.is(parseIndex(indexBuffer([{ path: 'a' }], { count: -1 }), 20, 10)?.tree, undefined, 'an invalid root');
  assert.is(parseIndex(indexBuffer([{ path: 'a' }], { count: 2, sha: T }), 20, 10)?.tree, undefined, 'a root that does not cover every entry');
  assert.is(parseIndex(indexBuffer([{ path: 'a' }]), 20, 10)?.tree, undefined, 'no cache-tree');
  assert.ok(parseIndex(indexBuffer([{ path: 'a', flags2: 0 }], undefined, 3), 20, 10), 'v3, extended flags all clear');
});

const refused: [string, Buffer][] = [
  ['skip-worktree', indexBuffer([{ path: 'a', flags2: 0x4000 }], undefined, 3)],
  ['intent-to-add', indexBuffer([{ path: 'a', flags2: 0x2000 }], undefined, 3)],
  ['extended flags in a version 2 index', indexBuffer([{ path: 'a', flags2: 0 }], undefined, 2)],
  ['a gitlink', indexBuffer([{ path: 'a', mode: 0o160000 }])],
  ['a sparse-index folder entry', indexBuffer([{ path: 'a/', mode: 0o040000 }])],
  ['a racily smudged entry (size 0, not the empty blob)', indexBuffer([{ path: 'a', size: 0 }])],
  ['version 5', indexBuffer([{ path: 'a' }], undefined, 5)],
  ['not an index', Buffer.from('not an index at all, but long enough to read a header from')],
  ['empty', Buffer.alloc(0)],
];
for (const [title, buf] of refused) test(`parseIndex refuses ${title}`, () => assert.is(parseIndex(buf, 20, 10), undefined));

test('parseIndex refuses a required extension (split index, sparse index)', () => {
  const ok = indexBuffer([{ path: 'a' }]);
  for (const sig of ['link', 'sdir']) {
    const ext = Buffer.alloc(8 + 4);
    ext.write(sig, 0, 'latin1');
    ext.writeUInt32BE(4, 4);
    const buf = Buffer.concat([ok.subarray(0, ok.length - 20), ext, Buffer.alloc(20)]);
    assert.is(parseIndex(buf, 20, 10), undefined, sig);
  }
});

test('parseIndex on every truncation and on corrupted bytes: undefined or an answer, never a throw', () => {
  const full = indexBuffer([{ path: 'a' }, { path: 'bc/defgh' }], { count: 2, sha: T });
  for (let n = 0; n < full.length; n++) assert.not.throws(() => parseIndex(full.subarray(0, n), 20, 10));
  // Cut anywhere before the checksum, the entries or the extension no longer fit.
  for (let n = 0; n < full.length - 20; n++) {
    const p = parseIndex(full.subarray(0, n), 20, 10);
    assert.ok(p === undefined || p.tree === undefined, `cut at ${n}`);
  }
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 3000; i++) {
    const b = Buffer.from(full);
    for (let k = 0; k < 3; k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    assert.not.throws(() => parseIndex(b, 20, 10));
  }
});

test('parseRefFile and packedRef', () => {
  const sha = 'a'.repeat(40);
  assert.equal(parseRefFile(`${sha}\n`), { sha });
  assert.equal(parseRefFile('ref: refs/heads/main\n'), { ref: 'refs/heads/main' });
  for (const odd of ['ref: refs/heads/../../config\n', 'ref: HEAD\n', 'ref: refs/heads/a b\n', `${sha.slice(1)}\n`, '', 'ref: refs/heads/x.lock\n']) assert.is(parseRefFile(odd), undefined, odd);
  const packed = `# pack-refs with: peeled fully-peeled sorted \n${'b'.repeat(40)} refs/heads/main\n${'c'.repeat(40)} refs/tags/v1\n^${'d'.repeat(40)}\n${'e'.repeat(40)} refs/heads/main2`;
  assert.is(packedRef(packed, 'refs/heads/main'), 'b'.repeat(40));
  assert.is(packedRef(packed, 'refs/heads/main2'), 'e'.repeat(40), 'the last line, no newline');
  assert.is(packedRef(packed, 'refs/tags/v1'), 'c'.repeat(40));
  assert.is(packedRef(packed, 'refs/heads/mai'), undefined);
  assert.is(packedRef(packed, 'heads/main'), undefined);
});

/** quickPathsAtTree, checked against what git says the tree holds: 'same' must be the file's committed content, 'absent' no entry. */
function pathsAt(r: R, tree: string, paths: string[], env: NodeJS.ProcessEnv = {}): Record<string, string> | undefined {
  const q = quickPathsAtTree(r.info(), tree, paths, env);
  if (q === undefined) return undefined;
  for (const [p, v] of q) {
    const blob = sh('git', ['cat-file', '-p', `${tree}:${p}`], r.dir);
    if (v === 'absent') assert.is.not(blob.code, 0, `${p} said absent, git has it`);
    else assert.is(blob.stdout, readFileSync(join(r.dir, p), 'utf8'), `${p} said same, contents differ`);
  }
  return Object.fromEntries(q);
}

test('paths at a tree: the commit just made, files unchanged: same or absent from the index alone', withGit((r) => {
  const { tree } = r.commit('one');
  r.settle();
  assert.equal(pathsAt(r, tree, ['a.txt', 'src/deep/c.txt', 'nope.txt', 'src/nope']), { 'a.txt': 'same', 'src/deep/c.txt': 'same', 'nope.txt': 'absent', 'src/nope': 'absent' });
  assert.is(pathsAt(r, r.git('rev-parse', 'HEAD:src'), ['a.txt']), undefined, 'another tree: ask git');
  assert.is(pathsAt(r, tree, ['a.txt'], { GIT_INDEX_FILE: join(r.dir, '.git', 'index') }), undefined, 'another index named: ask git');
  r.write('a.txt', 'edited\n');
  assert.is(pathsAt(r, tree, ['a.txt']), undefined, 'an edited file: ask git');
  assert.equal(pathsAt(r, tree, ['src/b.txt', 'new.txt']), { 'src/b.txt': 'same', 'new.txt': 'absent' }, 'other paths still answer');
  r.write('new.txt', 'untracked\n');
  assert.equal(pathsAt(r, tree, ['new.txt']), { 'new.txt': 'absent' }, 'untracked: absent from the tree');
  unlinkSync(join(r.dir, 'src/b.txt'));
  assert.is(pathsAt(r, tree, ['src/b.txt']), undefined, 'deleted in the work tree: ask git');
}));

test('paths at a tree: a staged edit invalidates the cache-tree, so git decides', withGit((r) => {
  const { tree } = r.commit('one');
  r.settle();
  r.write('a.txt', 'staged\n');
  r.git('add', 'a.txt');
  assert.is(pathsAt(r, tree, ['src/b.txt']), undefined);
}));


// Entries git status is blind to, counted from the index file, must agree with git's own `ls-files -v` tags, in every index format.
const UNCOMPARED: { name: string; setup: (r: R) => void; want: { skipWorktree: number; assumeValid: number }; fromFile: boolean }[] = [
  { name: 'nothing marked (version 2)', setup: () => {}, want: { skipWorktree: 0, assumeValid: 0 }, fromFile: true },
  { name: 'assume-unchanged (version 2)', setup: (r) => r.git('update-index', '--assume-unchanged', 'a.txt'), want: { skipWorktree: 0, assumeValid: 1 }, fromFile: true },
  { name: 'skip-worktree (version 3)', setup: (r) => r.git('update-index', '--skip-worktree', 'src/b.txt'), want: { skipWorktree: 1, assumeValid: 0 }, fromFile: true },
  { name: 'a cone sparse checkout', setup: (r) => r.git('sparse-checkout', 'set', 'docs'), want: { skipWorktree: 2, assumeValid: 0 }, fromFile: true },
  { name: 'a non-cone sparse checkout', setup: (r) => r.git('sparse-checkout', 'set', '--no-cone', '/a.txt'), want: { skipWorktree: 2, assumeValid: 0 }, fromFile: true },
  {
    name: 'both, index version 4',
    setup: (r) => {
      r.git('update-index', '--skip-worktree', 'src/b.txt');
      r.git('update-index', '--assume-unchanged', 'a.txt', 'src/deep/c.txt');
      r.git('update-index', '--index-version', '4');
    },
    want: { skipWorktree: 1, assumeValid: 2 },
    fromFile: true,
  },
  {
    name: 'a split index: git counts',
    setup: (r) => {
      r.git('update-index', '--split-index');
      r.git('update-index', '--assume-unchanged', 'a.txt');
    },
    want: { skipWorktree: 0, assumeValid: 1 },
    fromFile: false,
  },
];

for (const c of UNCOMPARED) {
  test(`entries git status does not compare: ${c.name}`, withGit((r) => {
    r.commit('one');
    c.setup(r);
    const info = r.info();
    assert.equal(tagsOfLsFiles(r.git('ls-files', '-v', '-z')), c.want, 'git ls-files -v');
    const fromFile = uncomparedEntries(readFileSync(join(info.gitDir, 'index')), 20);
    assert.equal(fromFile, c.fromFile ? c.want : undefined, 'the index file');
    assert.equal(uncomparedIn(info, 20, {}), c.want);
    assert.equal(uncomparedIn(info, 20, { GIT_INDEX_FILE: join(info.gitDir, 'index') }), c.want, 'an index another variable names: git counts');
    assert.is(hiddenReason(c.want) === undefined, c.want.skipWorktree + c.want.assumeValid === 0);
  }));
}

test('uncomparedEntries on every truncation: undefined or an answer, never a throw', withGit((r) => {
  r.commit('one');
  r.git('update-index', '--skip-worktree', 'src/b.txt');
  const good = readFileSync(join(r.dir, '.git/index'));
  for (let n = 0; n < good.length; n++) uncomparedEntries(good.subarray(0, n), 20);
  assert.equal(uncomparedEntries(good, 20), { skipWorktree: 1, assumeValid: 0 });
  assert.is(uncomparedEntries(good, 32), undefined, 'a SHA-1 index read as SHA-256');
}));

test('hiddenReason names what git status cannot see, and an unknown count isolates', () => {
  assert.is(hiddenReason({ skipWorktree: 0, assumeValid: 0 }), undefined);
  assert.match(hiddenReason({ skipWorktree: 3, assumeValid: 1 })!, '3 tracked paths are skip-worktree (a sparse checkout');
  assert.match(hiddenReason({ skipWorktree: 0, assumeValid: 1 })!, '1 tracked path is marked assume-unchanged');
  assert.ok(hiddenReason(undefined));
});

test.run();
