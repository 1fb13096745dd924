import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  parseBoundary,
  parseCatFileBatch,
  parseNameStatusZ,
  parseStatusV2,
  parseWorktreeList,
  withoutLocalGitEnv,
} from '../../src/git/git.js';
import { importCandidates } from '../../src/config/config-at.js';
import type { ChangedPath } from '../../src/git/change-list.js';

const z = (...fields: string[]) => `${fields.join('\0')}\0`;

const nameStatus: { title: string; out: string; changes: ChangedPath[] }[] = [
  { title: 'empty', out: '', changes: [] },
  {
    title: 'plain statuses',
    out: z('M', 'a.txt', 'A', 'b.txt', 'D', 'c.txt', 'T', 'd'),
    changes: [
      { status: 'M', path: 'a.txt' },
      { status: 'A', path: 'b.txt' },
      { status: 'D', path: 'c.txt' },
      { status: 'T', path: 'd' },
    ],
  },
  {
    title: 'a rename gives both paths',
    out: z('R100', 'tests/helper.py', 'src/helper.py'),
    changes: [{ status: 'R100', from: 'tests/helper.py', path: 'src/helper.py' }],
  },
  {
    title: 'a copy gives both paths',
    out: z('C075', 'tests/fixture.json', 'src/data.json', 'M', 'x'),
    changes: [
      { status: 'C075', from: 'tests/fixture.json', path: 'src/data.json' },
      { status: 'M', path: 'x' },
    ],
  },
  {
    title: 'spaces, quotes, tabs, newlines and non-ASCII stay verbatim',
    out: z('A', 'dir with space/a "b".txt', 'A', 'new\nline\tand tab.txt', 'R090', 'tests/ünï cödé.py', 'src/日本.py'),
    changes: [
      { status: 'A', path: 'dir with space/a "b".txt' },
      { status: 'A', path: 'new\nline\tand tab.txt' },
      { status: 'R090', from: 'tests/ünï cödé.py', path: 'src/日本.py' },
    ],
  },
  {
    title: 'a path that looks like a status letter',
    out: z('M', 'R', 'A', 'M'),
    changes: [
      { status: 'M', path: 'R' },
      { status: 'A', path: 'M' },
    ],
  },
];
for (const c of nameStatus) test(`parseNameStatusZ: ${c.title}`, () => assert.equal(parseNameStatusZ(c.out), c.changes));

const boundaries: { title: string; out: string; commits: string[]; boundary: string[] }[] = [
  { title: 'nothing new', out: '', commits: [], boundary: [] },
  { title: 'new commits meeting the remote at one commit', out: 'c3\nc2\n-c1\n', commits: ['c3', 'c2'], boundary: ['c1'] },
  { title: 'a merge meets the remote twice', out: 'm\n-a\n-b\n', commits: ['m'], boundary: ['a', 'b'] },
  { title: 'a whole new history has no boundary', out: 'c2\nc1\n', commits: ['c2', 'c1'], boundary: [] },
];
for (const c of boundaries) {
  test(`parseBoundary: ${c.title}`, () => assert.equal(parseBoundary(c.out), { commits: c.commits, boundary: c.boundary }));
}

test('parseWorktreeList: paths (with spaces), heads and locks', () => {
  const out = z(
    'worktree /repo',
    'HEAD aaaa',
    'branch refs/heads/main',
    '',
    'worktree /tmp/gate-ladder-x/wt',
    'HEAD bbbb',
    'detached',
    'locked',
    '',
    'worktree /a b/c',
    'HEAD cccc',
    'detached',
    'locked why not',
    '',
  );
  assert.equal(parseWorktreeList(out), [
    { path: '/repo', head: 'aaaa' },
    { path: '/tmp/gate-ladder-x/wt', head: 'bbbb', locked: '' },
    { path: '/a b/c', head: 'cccc', locked: 'why not' },
  ]);
});

test('withoutLocalGitEnv drops what ties a process to one repository, keeps the rest', () => {
  const env = withoutLocalGitEnv({
    GIT_DIR: '/r/.git/worktrees/x',
    GIT_WORK_TREE: '/r',
    GIT_INDEX_FILE: '.git/index.lock',
    GIT_PREFIX: '',
    GIT_COMMON_DIR: '/r/.git',
    GIT_OBJECT_DIRECTORY: '/o',
    GIT_CONFIG_PARAMETERS: "'a.b'='c'",
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'a.b',
    GIT_CONFIG_VALUE_0: 'c',
    GIT_AUTHOR_NAME: 'A',
    GIT_EXEC_PATH: '/usr/lib/git-core',
    GIT_SSL_CAINFO: '/etc/ssl/x',
    PATH: '/bin',
    GATE_LADDER: '0',
  });
  assert.equal(env, {
    GIT_AUTHOR_NAME: 'A',
    GIT_EXEC_PATH: '/usr/lib/git-core',
    GIT_SSL_CAINFO: '/etc/ssl/x',
    PATH: '/bin',
    GATE_LADDER: '0',
  });
});

test('parseCatFileBatch: files, missing paths, trees, and contents with newlines or non-ASCII bytes', () => {
  const body = Buffer.from('line one\nzwei: ü\n');
  const out = Buffer.concat([
    Buffer.from(`${'a'.repeat(40)} blob ${body.length}\n`),
    body,
    Buffer.from('\n'),
    Buffer.from('HEAD:nope.ts missing\n'),
    Buffer.from(`${'b'.repeat(40)} tree 3\nabc\n`),
    Buffer.from(`${'c'.repeat(40)} blob 0\n\n`),
  ]);
  const got = parseCatFileBatch(out, ['a.ts', 'nope.ts', 'dir', 'empty']);
  assert.ok(got);
  assert.is(got.get('a.ts')?.toString('utf8'), 'line one\nzwei: ü\n');
  assert.is(got.get('nope.ts'), null);
  assert.is(got.get('dir'), null, 'not a file');
  assert.is(got.get('empty')?.length, 0);
  assert.is(parseCatFileBatch(out.subarray(0, out.length - 3), ['a.ts', 'nope.ts', 'dir', 'empty']), undefined, 'cut short');
  assert.is(parseCatFileBatch(out, ['a.ts']), undefined, 'more output than asked');
});

test('parseCatFileBatch: what --follow-symlinks says of a link leading outside the tree, dangling, looping or through a file is no file', () => {
  const out = Buffer.from('symlink 9\n../../etc\ndangling 15\nHEAD:conf/x.mjs\nloop 8\nHEAD:a/b\nnotdir 8\nHEAD:f/g\n');
  const got = parseCatFileBatch(out, ['out', 'dangling', 'loop', 'notdir']);
  assert.ok(got);
  for (const p of ['out', 'dangling', 'loop', 'notdir']) assert.is(got.get(p), null, p);
});

test('withoutLocalGitEnv keepRepo: the variables that name the repository stay, the index and the prefix go', () => {
  const env = withoutLocalGitEnv(
    { GIT_DIR: '/d', GIT_WORK_TREE: '/w', GIT_INDEX_FILE: '/d/index.lock', GIT_PREFIX: 'sub/', GIT_CONFIG_PARAMETERS: 'x', PATH: '/bin' },
    true,
  );
  assert.equal(env, { GIT_DIR: '/d', GIT_WORK_TREE: '/w', PATH: '/bin' });
});

test('importCandidates: as written, with extensions, a folder index, and .ts for .js', () => {
  const c = importCandidates('ladder/tiers.js');
  for (const p of ['ladder/tiers.js', 'ladder/tiers.ts', 'ladder/tiers.js.ts', 'ladder/tiers.js/index.ts']) assert.ok(c.includes(p), p);
  assert.ok(importCandidates('lib/x.mjs').includes('lib/x.mts'));
  assert.ok(importCandidates('lib').includes('lib/index.ts'));
  assert.not.ok(importCandidates('v1.2/x').includes('v1.ts'), 'a dot in a folder is not an extension');
});

test.run();

test("parseStatusV2: the head, whether clean, and each changed path (spaces kept, a rename's original path skipped, unmerged)", () => {
  const oid = 'a'.repeat(40);
  const out = [
    `# branch.oid ${oid}`,
    '# branch.head main',
    `1 .M N... 100644 100644 100644 ${oid} ${oid} src/with space.txt`,
    `2 R. N... 100644 100644 100644 ${oid} ${oid} R100 new name.txt`,
    'old name.txt',
    `u UU N... 100644 100644 100644 100644 ${oid} ${oid} ${oid} both.txt`,
    '',
  ].join('\0');
  assert.equal(parseStatusV2(out), { head: oid, clean: false, changed: ['src/with space.txt', 'new name.txt', 'both.txt'] });
  assert.equal(parseStatusV2(`# branch.oid (initial)\0# branch.head main\0`), { head: null, clean: true, changed: [] });
  // An entry of a kind not known here still makes the tree not clean.
  assert.equal(parseStatusV2(`# branch.oid ${oid}\0? something\0`), { head: oid, clean: false, changed: [] });
});
