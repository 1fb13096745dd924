import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkDependencies, pathIntoLinks } from '../../src/slots/dependency-links.js';
import { sealTime, untouchedSince } from '../../src/slots/dependency-copy.js';
import { parseNumstatZ } from '../../src/git/patch-paths.js';
import { outermost, parseGitlinks, parseSubmodulePaths, under } from '../../src/slots/submodules.js';
import { DEFAULT_SLOTS, exactPattern, legacyPoolDir, poolDir, slotLimit } from '../../src/slots/worktree-pool.js';
import { changedDirs, cleanDirs, recordDirs, updateRecord } from '../../src/slots/slot-dirs.js';
import { lockOwner, release, tryLock, withLock } from '../../src/util/pid-lock.js';

const patterns: [string, string][] = [
  ['node_modules', '/node_modules'],
  ['packages/app/node_modules', '/packages/app/node_modules'],
  ['odd[1]/*?/node_modules', '/odd\\[1]/\\*\\?/node_modules'],
  ['back\\slash/.venv', '/back\\\\slash/.venv'],
  ['!bang/#hash/.venv', '/!bang/#hash/.venv'],
  ['trailing /.venv ', '/trailing /.venv\\ '],
];
for (const [rel, want] of patterns) test(`exactPattern(${rel})`, () => assert.is(exactPattern(rel), want));

test('parseNumstatZ: created, changed, binary and renamed paths (the new name), paths with tabs and newlines', () => {
  const z = [
    '1\t0\tnode_modules/dep/evil.js',
    '3\t1\tsrc/a.txt',
    '-\t-\timg.png',
    '0\t0\tb c.txt',
    '1\t0\ttab\there\nand newline',
    '',
  ].join('\0');
  assert.equal(parseNumstatZ(z), ['node_modules/dep/evil.js', 'src/a.txt', 'img.png', 'b c.txt', 'tab\there\nand newline']);
  assert.equal(parseNumstatZ(''), []);
});

const links = ['.venv', 'node_modules', 'packages/app/node_modules'];
const into: [string[], string | undefined][] = [
  [['src/a.txt', 'node_modules/dep/evil.js'], 'node_modules/dep/evil.js'],
  [['.venv/lib/python3.11/site-packages/zz.pth'], '.venv/lib/python3.11/site-packages/zz.pth'],
  [['packages/app/node_modules/dep/x.js'], 'packages/app/node_modules/dep/x.js'],
  [['.venv'], '.venv'],
  [['.venvx/a', 'node_modulesx', 'packages/app/node_modules.txt', 'packages/other/node_modules/x'], undefined],
  [[], undefined],
];
for (const [paths, want] of into)
  test(`pathIntoLinks(${paths.join(', ') || 'nothing'}) is ${want}`, () => assert.is(pathIntoLinks(paths, links), want));

test('parseSubmodulePaths: names with dots and spaces, paths with spaces; other keys and empty values left out', () => {
  const z = [
    'submodule.lib.path\nlibsub',
    'submodule.a.b c.path\nvendor/a b',
    'submodule.x.url\nhttps://e',
    'submodule.empty.path\n',
    '',
  ].join('\0');
  assert.equal(parseSubmodulePaths(z), [
    { name: 'lib', path: 'libsub' },
    { name: 'a.b c', path: 'vendor/a b' },
  ]);
});

test('parseGitlinks: only mode 160000 entries, by path', () => {
  const sha = 'a'.repeat(40);
  const z = [`160000 ${sha} 0\tlibsub`, `100644 ${'b'.repeat(40)} 0\tfile.txt`, `160000 ${'c'.repeat(64)} 0\tsha256 sub`, ''].join('\0');
  assert.equal(
    [...parseGitlinks(z)],
    [
      ['libsub', sha],
      ['sha256 sub', 'c'.repeat(64)],
    ],
  );
});

test('under and outermost: nested submodule paths', () => {
  const paths = ['a', 'a/b', 'a/b/c', 'ab', 'x/y'];
  assert.equal(under(paths, 'a'), ['b', 'b/c']);
  assert.equal(under(paths, 'a/b'), ['c']);
  assert.equal(outermost(paths), ['a', 'ab', 'x/y']);
});

const limits: [string | undefined, number][] = [
  [undefined, DEFAULT_SLOTS],
  ['2', 2],
  ['64', 64],
  ['0', DEFAULT_SLOTS],
  ['65', DEFAULT_SLOTS],
  ['1.5', DEFAULT_SLOTS],
  ['x', DEFAULT_SLOTS],
];
for (const [value, want] of limits) {
  test(`slotLimit with GATE_LADDER_WORKTREE_SLOTS=${value}`, () =>
    assert.is(slotLimit(value === undefined ? {} : { GATE_LADDER_WORKTREE_SLOTS: value }), want));
}

const withDir = (fn: (dir: string) => void) => () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-lock-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The pid of a process that has exited. */
const deadPid = () => spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim();

test(
  'tryLock: one holder at a time; release frees it; the file names the holder',
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    assert.ok(tryLock(file));
    assert.is(lockOwner(file), process.pid);
    assert.not.ok(tryLock(file), 'held by this process already');
    release(file);
    assert.not.ok(existsSync(file));
    assert.ok(tryLock(file));
    release(file);
  }),
);

test(
  "tryLock: a live owner keeps it; a dead owner's lock is taken over",
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    writeFileSync(file, `${process.ppid}\n`);
    assert.not.ok(tryLock(file), 'the parent process is alive');
    assert.is(lockOwner(file), process.ppid);
    writeFileSync(file, `${deadPid()}\n`);
    assert.ok(tryLock(file));
    assert.is(lockOwner(file), process.pid);
    release(file);
  }),
);

test(
  'tryLock: our own pid on a lock we never took (a reused pid) is stale; a lock naming no one is taken at once, whatever its content',
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    writeFileSync(file, `${process.pid}\n`);
    assert.ok(tryLock(file));
    release(file);
    for (const content of ['', '\0\0\0\0', '123', '12 ', 'garbage\n', '-5\n', '99999999999999\n']) {
      writeFileSync(file, content);
      assert.ok(tryLock(file), JSON.stringify(content));
      assert.is(lockOwner(file), process.pid);
      release(file);
    }
  }),
);

test(
  'tryLock: a live pid that started at another time (the pid reused by another process) is no owner; the same pid and start time is',
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    const parent = readFileSync(`/proc/${process.ppid}/stat`, 'latin1');
    const start = parent.slice(parent.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(file, `${process.ppid} ${start} -\n`);
    assert.not.ok(tryLock(file), 'the parent process, as it started');
    writeFileSync(file, `${process.ppid} 1 -\n`);
    assert.ok(tryLock(file), 'a process that started at tick 1 is not the parent');
    release(file);
  }),
);

test(
  'tryLock: a lock file is written whole, linked into place: no half-written lock, no file of ours left beside it',
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    assert.ok(tryLock(file));
    assert.match(readFileSync(file, 'latin1'), new RegExp(`^${process.pid} \\S+ \\S+\n$`));
    assert.equal(readdirSync(dir), ['slot-1.lock']);
    release(file);
    assert.equal(readdirSync(dir), []);
  }),
);

test(
  'release leaves a lock another process holds',
  withDir((dir) => {
    const file = join(dir, 'slot-1.lock');
    writeFileSync(file, `${process.ppid}\n`);
    release(file);
    assert.is(readFileSync(file, 'utf8'), `${process.ppid}\n`);
  }),
);

test(
  'withLock: runs under the lock and releases it, also when fn throws; gives up after its time, having said whom it waits for',
  withDir((dir) => {
    const file = join(dir, 'git.lock');
    assert.is(
      withLock(file, () => lockOwner(file), { timeoutMs: 1000 }),
      process.pid,
    );
    assert.not.ok(existsSync(file));
    assert.throws(
      () =>
        withLock(
          file,
          () => {
            throw new Error('boom');
          },
          { timeoutMs: 1000 },
        ),
      /boom/,
    );
    assert.not.ok(existsSync(file));
    writeFileSync(file, `${process.ppid}\n`);
    const waited: number[] = [];
    assert.throws(() => withLock(file, () => 0, { timeoutMs: 300, noticeMs: 50, onWait: (pid) => waited.push(pid) }), /held by process/);
    assert.equal(waited, [process.ppid]);
  }),
);

/** A repo whose commit has a/x, a/b/y, a/b/c/z and top.txt, checked out: a slot as the pool leaves it. */
const withSlot = (fn: (dir: string, sha: string) => void) => () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-slotdirs-'));
  const g = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  try {
    g('init', '-q', '-b', 'main');
    for (const [p, text] of [
      ['a/x', 'x'],
      ['a/b/y', 'y'],
      ['a/b/c/z', 'z'],
      ['top.txt', 't'],
    ] as const) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), `${text}\n`);
    }
    g('add', '-A');
    g('-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qm', 'one');
    fn(dir, g('rev-parse', 'HEAD'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test(
  'cleanDirs: folders asked for inside each other keep every tracked entry; untracked ones go, links kept',
  withSlot((dir, sha) => {
    const record = recordDirs(dir, sha)!;
    assert.equal(
      record.dirs.map(([p]) => p),
      ['', 'a', 'a/b', 'a/b/c'],
    );
    const inode = (p: string) => lstatSync(join(dir, p)).ino;
    const before = ['a/x', 'a/b/y', 'a/b/c/z', 'top.txt'].map(inode);
    for (const p of ['junk', 'a/junk', 'a/b/new/deep', 'a/b/c/junk']) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), 'j\n');
    }
    symlinkSync(tmpdir(), join(dir, 'a', 'node_modules'));
    assert.ok(cleanDirs(dir, record, ['', 'a', 'a/b', 'a/b/c'], ['a/node_modules']));
    assert.equal(['a/x', 'a/b/y', 'a/b/c/z', 'top.txt'].map(inode), before, 'no tracked file was removed (and checked out again)');
    for (const p of ['junk', 'a/junk', 'a/b/new', 'a/b/c/junk']) assert.not.ok(existsSync(join(dir, p)), p);
    assert.ok(lstatSync(join(dir, 'a', 'node_modules')).isSymbolicLink());
  }),
);

test(
  'changedDirs: only folders whose entries changed since the record (or changed just before it)',
  withSlot((dir, sha) => {
    const record = recordDirs(dir, sha)!;
    assert.equal(changedDirs(dir, record), ['', 'a', 'a/b', 'a/b/c'], 'folders changed within two seconds of the record are read again');
    for (const [p] of record.dirs) {
      const t = new Date(lstatSync(join(dir, p)).mtimeMs - 60_000);
      utimesSync(join(dir, p), t, t);
    }
    const settled = recordDirs(dir, sha)!;
    assert.equal(changedDirs(dir, settled), []);
    writeFileSync(join(dir, 'a/b/new.txt'), 'n\n');
    writeFileSync(join(dir, 'a/x'), 'an edit changes no folder\n');
    assert.equal(changedDirs(dir, settled), ['a/b']);
  }),
);

test(
  'untouchedSince: an append, a chmod, a file added or removed deep in a copy is seen, by the walk and by find',
  withDir((dir) => {
    const copy = join(dir, 'copy');
    mkdirSync(join(copy, 'a', 'b'), { recursive: true });
    writeFileSync(join(copy, 'a', 'b', 'f.js'), 'f\n');
    writeFileSync(join(copy, 'a', 'gone.js'), 'g\n');
    const since = sealTime();
    const ino = lstatSync(copy).ino;
    for (const entries of [0, Number.MAX_SAFE_INTEGER]) assert.ok(untouchedSince(copy, ino, since, entries), `untouched (${entries})`);
    const touches: [string, () => void, () => void][] = [
      ['an append', () => writeFileSync(join(copy, 'a', 'b', 'f.js'), '//x\n', { flag: 'a' }), () => {}],
      ['a chmod', () => chmodSync(join(copy, 'a', 'b', 'f.js'), 0o755), () => {}],
      ['a file added', () => writeFileSync(join(copy, 'a', 'b', 'new.js'), 'n\n'), () => {}],
      ['a file removed', () => rmSync(join(copy, 'a', 'gone.js')), () => {}],
    ];
    for (const [what, touch] of touches) {
      // A fresh copy of the folder for each, sealed, then touched.
      rmSync(copy, { recursive: true });
      mkdirSync(join(copy, 'a', 'b'), { recursive: true });
      writeFileSync(join(copy, 'a', 'b', 'f.js'), 'f\n');
      writeFileSync(join(copy, 'a', 'gone.js'), 'g\n');
      const t = sealTime();
      const i = lstatSync(copy).ino;
      touch();
      for (const entries of [0, Number.MAX_SAFE_INTEGER])
        assert.not.ok(untouchedSince(copy, i, t, entries), `${what} is seen (${entries ? 'find' : 'walk'})`);
    }
    assert.not.ok(untouchedSince(copy, ino + 1, Date.now(), 0), 'another folder at the same path');
  }),
);

test(
  "linkDependencies: each dependency folder is the slot's own copy, kept while untouched and the install unchanged, made again when a gate wrote in it",
  withDir((dir) => {
    const root = join(dir, 'checkout');
    const slot = join(dir, 'slot');
    const caches = join(dir, 'caches');
    for (const p of ['node_modules/a', 'node_modules/@s/b', 'node_modules/.cache/x', '.venv/bin'])
      mkdirSync(join(root, p), { recursive: true });
    writeFileSync(join(root, 'node_modules/a/index.js'), 'module.exports = 1;\n');
    symlinkSync(join(root, 'node_modules/a'), join(root, 'node_modules/abs'));
    writeFileSync(join(root, '.venv/bin/tool'), `#!${join(root, '.venv/bin/python')}\nprint(1)\n`);
    writeFileSync(join(root, '.venv/pyvenv.cfg'), 'home = /usr/bin\n');
    mkdirSync(slot);
    const nm = join(slot, 'node_modules');
    const deps = ['.venv', 'node_modules'];
    const link = (previous: string[], seals?: Record<string, string>) => linkDependencies(root, slot, deps, previous, caches, seals);
    const entries = () => readdirSync(nm).sort();

    const first = link([]);
    assert.equal(first.linked, deps);
    assert.equal(first.notes, []);
    assert.equal(entries(), ['.cache', '.vite', '.vitest', '@s', 'a', 'abs']);
    assert.not.ok(lstatSync(join(nm, 'a')).isSymbolicLink(), 'a copy, not a link');
    assert.is(readlinkSync(join(nm, '.cache')), join(caches, 'node_modules', '.cache'), "the slot's own cache, not the checkout's copied");
    assert.is(readlinkSync(join(nm, 'abs')), join(nm, 'a'), 'an absolute link into the checkout leads to the copy');
    assert.match(readFileSync(join(slot, '.venv/bin/tool'), 'utf8'), `#!${join(slot, '.venv/bin/python')}\n`);

    // Untouched, the same install: the same copy.
    const ino = lstatSync(join(nm, 'a', 'index.js')).ino;
    const again = link(first.linked, first.seals);
    assert.equal(again.seals, first.seals);
    assert.is(lstatSync(join(nm, 'a', 'index.js')).ino, ino, 'kept');

    // A gate appends to a package's file and adds one: the checkout's is untouched, the next link copies again.
    writeFileSync(join(nm, 'a', 'index.js'), '//x\n', { flag: 'a' });
    writeFileSync(join(slot, '.venv', 'evil.pth'), 'import os\n');
    assert.is(readFileSync(join(root, 'node_modules/a/index.js'), 'utf8'), 'module.exports = 1;\n');
    const redone = link(again.linked, again.seals);
    assert.is(readFileSync(join(nm, 'a', 'index.js'), 'utf8'), 'module.exports = 1;\n', 'the append is gone');
    assert.not.ok(existsSync(join(slot, '.venv', 'evil.pth')));

    // A package installed in a scope of the checkout: copied on the next link.
    mkdirSync(join(root, 'node_modules/@s/c'));
    link(redone.linked, redone.seals);
    assert.equal(readdirSync(join(nm, '@s')).sort(), ['b', 'c']);

    // A folder the checkout no longer has goes from the slot.
    rmSync(join(root, '.venv'), { recursive: true });
    const gone = link(redone.linked, redone.seals);
    assert.equal(gone.linked, ['node_modules']);
    assert.not.ok(existsSync(join(slot, '.venv')));
  }),
);

test(
  'linkDependencies: a relative link in a copy leads where it led in the checkout: out of the work tree as before, into it to the slot',
  withDir((dir) => {
    const root = join(dir, 'checkout');
    // Deeper than the checkout: a relative link out of it names another place from there.
    const slot = join(dir, 'pool', 'slot');
    const outside = join(dir, 'outside');
    const shared = join(dir, 'shared');
    for (const p of [join(root, 'node_modules/a'), join(root, 'packages/p'), join(root, 'node_modules/@s'), outside, join(shared, 'nm')])
      mkdirSync(p, { recursive: true });
    mkdirSync(join(root, 'packages/app'), { recursive: true });
    const nm = (...p: string[]) => join(root, 'node_modules', ...p);
    symlinkSync('../../outside', nm('outdep'));
    symlinkSync('../../packages/p', nm('@s/p'));
    symlinkSync('../a', nm('rel-a'));
    symlinkSync('../../checkout/packages/p', nm('round-trip'));
    symlinkSync('../../no-such-folder', nm('dangling'));
    // A folder that is itself a link to one elsewhere: its relative links are read from there.
    symlinkSync(join(shared, 'nm'), join(root, 'packages/app/node_modules'));
    symlinkSync('../vendor', join(shared, 'nm', 'vendor'));
    mkdirSync(join(slot, 'packages/app'), { recursive: true });
    const r = linkDependencies(root, slot, ['node_modules', 'packages/app/node_modules'], [], join(dir, 'caches'));
    assert.equal(r.notes, []);
    const at = (p: string) => readlinkSync(join(slot, p));
    assert.is(at('node_modules/outdep'), outside, 'out of the work tree: where it led, made absolute');
    assert.is(at('node_modules/@s/p'), '../../packages/p', "into the work tree: the slot's own, the link as it was");
    assert.is(at('node_modules/rel-a'), '../a', 'inside the folder: as it was');
    assert.is(at('node_modules/round-trip'), '../packages/p', "through the checkout's name: the slot's, relative");
    assert.is(at('node_modules/dangling'), join(dir, 'no-such-folder'), 'a dangling link out: still where it pointed');
    assert.is(at('packages/app/node_modules/vendor'), join(shared, 'vendor'), "read from the linked folder's real place");
  }),
);

test(
  'updateRecord keeps the entries of the folders the move changed; cleanDirs takes them instead of asking git, links and submodules kept',
  withSlot((dir, sha) => {
    const first = recordDirs(dir, sha)!;
    const since = Date.now();
    // The move touched a/b (a file rewritten); a dependency link sits in a.
    writeFileSync(join(dir, 'a/b/y'), 'y\n');
    symlinkSync(tmpdir(), join(dir, 'a', 'node_modules'));
    const t = new Date(since - 60_000);
    for (const p of ['', 'a', 'a/b/c']) utimesSync(join(dir, p), t, t);
    const record = updateRecord(dir, sha, first, since, ['a/node_modules']);
    assert.equal(Object.keys(record.names ?? {}).sort(), ['a/b'], 'only the folder changed since the move began is read');
    assert.equal(record.names?.['a/b']?.sort(), ['c', 'y']);
    // A commit git does not have: only the recorded entries can tell what a/b tracks.
    const unknown = { ...record, sha: '0'.repeat(40) };
    for (const p of ['a/b/junk', 'a/b/c/junk']) writeFileSync(join(dir, p), 'j\n');
    mkdirSync(join(dir, 'a/b/sub/.git'), { recursive: true });
    assert.ok(cleanDirs(dir, unknown, ['a/b'], ['a/node_modules', 'a/b/sub']), 'no git process was needed for a/b');
    assert.equal(readdirSync(join(dir, 'a/b')).sort(), ['c', 'sub', 'y']);
    assert.ok(existsSync(join(dir, 'a/b/c/junk')), 'a/b/c was not asked for');
    assert.not.ok(cleanDirs(dir, unknown, ['a/b/c'], []), 'a folder without recorded entries asks git (which does not know that commit)');
    assert.ok(cleanDirs(dir, record, ['a/b/c'], []));
    assert.equal(readdirSync(join(dir, 'a/b/c')), ['z']);
    // Top folders named like Object's own keys: recorded and read back like any other, through the state file's JSON.
    for (const odd of ['__proto__', 'constructor']) {
      mkdirSync(join(dir, odd));
      writeFileSync(join(dir, odd, 'f'), 'f\n');
    }
    const t2 = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'a/b/c'), t2, t2);
    const odd = JSON.parse(JSON.stringify(updateRecord(dir, sha, record, since, ['a/b/sub']))) as typeof record;
    assert.equal(Object.keys(odd.names ?? {}).sort(), ['', '__proto__', 'a/b', 'constructor']);
    writeFileSync(join(dir, 'constructor/junk'), 'j\n');
    writeFileSync(join(dir, '__proto__/junk'), 'j\n');
    writeFileSync(join(dir, 'junk'), 'j\n');
    assert.ok(cleanDirs(dir, { ...odd, sha: '0'.repeat(40) }, ['', '__proto__', 'constructor'], ['a/node_modules']));
    assert.equal(readdirSync(join(dir, 'constructor')), ['f']);
    assert.equal(readdirSync(join(dir, '__proto__')), ['f']);
    assert.equal(readdirSync(dir).sort(), ['.git', '__proto__', 'a', 'constructor', 'top.txt']);
  }),
);

test("the pool is outside the repository and any dot-folder, in a folder of the user's own; else under the git common dir", () => {
  const base = mkdtempSync(join(tmpdir(), 'gl-pool-'));
  try {
    const common = join(base, 'My Repo.v2', '.git');
    mkdirSync(common, { recursive: true });
    const env = { GATE_LADDER_WORKTREES: join(base, 'trees') };
    const pool = poolDir(common, env);
    const own = join(base, 'trees', `gate-ladder-${process.getuid!()}`);
    assert.ok(pool.startsWith(`${own}/My-Repo-v2-`), pool);
    assert.not.match(pool.slice(base.length), /\/\./, 'no folder of its path starts with a dot');
    assert.is(lstatSync(own).mode & 0o777, 0o700);
    assert.is(poolDir(common, env), pool, 'the same repository, the same pool');
    assert.is.not(poolDir(join(base, 'other', '.git'), env), pool, 'another repository, another pool');
    // A folder others may enter, or a link where ours should be: not used.
    const open = join(base, 'open');
    mkdirSync(join(open, `gate-ladder-${process.getuid!()}`), { recursive: true, mode: 0o777 });
    spawnSync('chmod', ['0777', join(open, `gate-ladder-${process.getuid!()}`)]);
    assert.is(poolDir(common, { GATE_LADDER_WORKTREES: open }), legacyPoolDir(common));
    const linked = join(base, 'linked');
    mkdirSync(linked);
    symlinkSync(own, join(linked, `gate-ladder-${process.getuid!()}`));
    assert.is(poolDir(common, { GATE_LADDER_WORKTREES: linked }), legacyPoolDir(common));
    // A folder no folder can be made in (/proc, where node's own recursive mkdir never returns): not used, and no hang.
    if (process.platform === 'linux') assert.is(poolDir(common, { GATE_LADDER_WORKTREES: '/proc/gl-nope/deeper' }), legacyPoolDir(common));
    // By default: /var/tmp (or the system's temp folder), never under .git.
    assert.not.match(poolDir(common, {}), /\/\.git\//);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test.run();
