/**
 * The worktree pool (issue 17): slots kept and reused, exactly the judged commit for every run, one run
 * per slot, recovered after a crash, removed by gc; tool caches per slot; patches never written into
 * the checkout's dependency folders; submodules filled from the checkout's copies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { type Repo, type Run, cleanEnv, leftAfter, ownSleep, processesMatching, sh, withRepo } from '../helpers/repo.js';
import { poolDir as srcPoolDir } from '../../src/slots/worktree-pool.js';
import { isSlot, poolDir, poolLocks, poolSlots, slotDirt, slotFree, userWorktrees } from '../helpers/pool.js';

const WORKTREE = (run: string, extra = '') =>
  `export default { isolation: 'worktree', cache: false,${extra} tiers: [{ name: 't1', run: ${JSON.stringify(run)}, timeout: 60 }] };\n`;

/** Checks that nothing an earlier gate did is here, then does all of it. */
const PROBE = `fail() { echo "leaked into this run: $1"; exit 1; }
pwd >> "$GL_TRACE"
test ! -e leak.txt || fail 'a file a gate created'
test ! -e build/out.o || fail 'an ignored build output'
test -f deleted.txt || fail 'a deleted file'
test ! -x mode.txt || fail 'a mode change'
test "$(readlink link)" = target-a.txt || fail 'a symlink change'
grep -q original tracked.txt || fail 'an edit of a tracked file'
test ! -e staged.txt || fail 'a file added to the index'
test ! -e newdir || fail 'an untracked folder'
test ! -e nested/.git || fail 'a nested repository'
test ! -L folder || fail 'a folder replaced by a symlink'
echo leak > leak.txt
mkdir -p build && echo o > build/out.o
rm deleted.txt
chmod +x mode.txt
ln -sfn target-b.txt link
echo changed > tracked.txt
echo s > staged.txt && git add staged.txt
mkdir -p newdir/deeper && echo x > newdir/deeper/f
git init -q nested
rm -rf "$GL_TRACE.moved" && mv folder "$GL_TRACE.moved" && ln -s "$GL_TRACE.moved" folder
mkdir -p node_modules/.cache/probe && echo run >> node_modules/.cache/probe/runs
wc -l < node_modules/.cache/probe/runs | tr -d ' ' >> "$GL_TRACE.runs"
`;

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);

test("nothing a gate leaves in a slot reaches the next run of that slot; the slot's own cache does, the checkout's is never touched", () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\nbuild/\n',
        'gate-ladder.config.ts': WORKTREE('sh probe.sh'),
        'probe.sh': PROBE,
        'deleted.txt': 'd\n',
        'mode.txt': 'm\n',
        'tracked.txt': 'original\n',
        // moved out of the slot whole and linked back: its files keep their lstat, seen through the link
        'folder/inside.txt': 'i\n',
        'target-a.txt': 'a\n',
        'target-b.txt': 'b\n',
      },
      pushInitial: false,
    },
    (repo) => {
      // node_modules as npm makes it, a real folder, with a tool cache of the checkout's own in it.
      const installed = realpathSync(join(repo.dir, 'node_modules'));
      rmSync(join(repo.dir, 'node_modules'));
      mkdirSync(join(repo.dir, 'node_modules', '.cache', 'esm'), { recursive: true });
      for (const name of readdirSync(installed)) symlinkSync(join(installed, name), join(repo.dir, 'node_modules', name));
      symlinkSync('target-a.txt', join(repo.dir, 'link'));
      repo.commit('a symlink');
      repo.gitOk('push', '-q', 'origin', 'main', '--no-verify');
      const trace = join(dirname(repo.dir), 'trace');
      for (let i = 1; i <= 3; i++) {
        repo.write('src/a.txt', `${i}\n`);
        repo.commit(`change ${i}`);
        const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
        assert.is(r.code, 0, r.out);
      }
      // The same commit again, from the command line.
      const again = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD'], { env: { GL_TRACE: trace } });
      assert.is(again.code, 0, again.out);
      assert.equal(
        repo.ledger().map((x) => [x.verdict, x.isolation]),
        Array(4).fill(['pass', 'worktree']),
      );
      const dirs = lines(trace);
      assert.is(new Set(dirs).size, 1, `one slot, reused: ${dirs.join(', ')}`);
      assert.ok(isSlot(repo, dirs[0]!), dirs[0]);
      assert.equal(lines(`${trace}.runs`), ['1', '2', '3', '4'], "the slot's node_modules/.cache survives its cleaning");
      assert.equal(readdirSync(join(repo.dir, 'node_modules', '.cache')), ['esm'], "the checkout's node_modules/.cache is not the slot's");
      assert.ok(slotFree(dirs[0]!));
      assert.is(repo.gitOk('status', '--porcelain'), '', "the user's working tree is untouched");
    },
  ));

test("a slot's node_modules copy, kept while untouched and the install unchanged, still shows a package installed since, and never what a gate wrote", () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\n',
        'gate-ladder.config.ts': WORKTREE('sh gate.sh'),
        'gate.sh':
          'ls -A node_modules | tr "\\n" " " >> "$GL_TRACE"; echo >> "$GL_TRACE"; test -z "$GL_JUNK" || echo j > node_modules/junk.js\n',
      },
      pushInitial: false,
    },
    (repo) => {
      const installed = realpathSync(join(repo.dir, 'node_modules'));
      rmSync(join(repo.dir, 'node_modules'));
      mkdirSync(join(repo.dir, 'node_modules'));
      for (const name of readdirSync(installed)) symlinkSync(join(installed, name), join(repo.dir, 'node_modules', name));
      repo.gitOk('push', '-q', 'origin', 'main', '--no-verify');
      const trace = join(dirname(repo.dir), 'trace');
      const slot = join(poolDir(repo), 'slot-1');
      /** Both node_modules folders dated a minute back: an install long ago, a mirror synced long ago. */
      const age = () => {
        for (const d of [join(repo.dir, 'node_modules'), join(slot, 'node_modules')]) {
          const t = new Date(Date.now() - 60_000);
          utimesSync(d, t, t);
        }
      };
      const push = (i: number, env: Record<string, string> = {}) => {
        repo.write('src/a.txt', `${i}\n`);
        repo.commit(`change ${i}`);
        const r = repo.push(['origin', 'main'], { GL_TRACE: trace, ...env });
        assert.is(r.code, 0, r.out);
      };
      push(1, { GL_JUNK: '1' });
      age();
      push(2);
      age();
      push(3);
      const copy = lstatSync(join(slot, 'node_modules'));
      push(4);
      assert.is(
        lstatSync(join(slot, 'node_modules')).ctimeMs,
        copy.ctimeMs,
        'push 4: nothing touched it, nothing installed: the same copy',
      );
      mkdirSync(join(repo.dir, 'node_modules', 'newpkg'));
      push(5);
      const seen = lines(trace).map((l) => l.trim().split(' '));
      assert.is(seen.length, 5);
      for (const [i, entries] of seen.entries()) {
        if (i > 0) assert.not.ok(entries.includes('junk.js'), `push ${i + 1}: what a gate wrote in the mirror is gone`);
        assert.is(entries.includes('newpkg'), i === 4, `push ${i + 1}: the package installed before push 5, and only then`);
        assert.ok(entries.includes('.cache'), "the slot's own cache link");
      }
    },
  ));

/** The slot's git dir, from its `.git` file. */
const adminOf = (slot: string) => /^gitdir: (.+)$/m.exec(readFileSync(join(slot, '.git'), 'utf8'))![1]!.trim();

/** A pid that is not running: a process that has exited. */
const deadPid = (cwd: string) => sh('sh', ['-c', 'echo $$'], cwd).stdout.trim();

/** Asserts the slot is at `sha` with nothing in it but the dependency links, using git itself. */
function assertExactly(slot: string, sha: string): void {
  assert.is(sh('git', ['rev-parse', 'HEAD'], slot).stdout.trim(), sha);
  assert.equal(slotDirt(slot), [], `the slot is exactly ${sha}`);
}

test('a slot whose run died mid-checkout is repaired; one git no longer knows is made anew; neither is lost', () =>
  withRepo(
    {
      files: { 'gate-ladder.config.ts': WORKTREE('git status --porcelain --untracked-files=all | grep -v node_modules && exit 1; exit 0') },
    },
    (repo) => {
      repo.write('src/a.txt', '1\n');
      repo.commit('one');
      assert.is(repo.push().code, 0);
      const [slot] = poolSlots(repo);
      assert.ok(slot, 'a slot was made');
      // What a run killed (kill -9) in the middle of `git checkout` leaves: its lock, the state saying
      // where it was going, git's own index.lock, and files half moved.
      repo.write('src/a.txt', '2\n');
      repo.write('src/b.txt', 'new\n');
      const two = repo.commit('two');
      writeFileSync(`${slot}.lock`, `${deadPid(repo.dir)}\n`);
      const state = JSON.parse(readFileSync(`${slot}.json`, 'utf8'));
      writeFileSync(`${slot}.json`, JSON.stringify({ ...state, moving: two }));
      writeFileSync(join(adminOf(slot!), 'index.lock'), '');
      writeFileSync(join(slot!, 'src/a.txt'), 'half\n');
      writeFileSync(join(slot!, 'src/b.txt'), 'half\n');
      const repaired = repo.push();
      assert.is(repaired.code, 0, repaired.out);
      assert.match(repaired.out, 'was left mid-checkout by a run that died; it was set right');
      assert.equal(poolSlots(repo), [slot], 'the same slot, taken over from its dead owner');
      assert.not.ok(existsSync(join(adminOf(slot!), 'index.lock')));
      assertExactly(slot!, two);
      assert.ok(slotFree(slot!));

      // A slot git cannot use any more (its .git file broken): removed and made again at the same place.
      repo.write('src/a.txt', '3\n');
      const three = repo.commit('three');
      writeFileSync(`${slot}.lock`, `${deadPid(repo.dir)}\n`);
      writeFileSync(`${slot}.json`, JSON.stringify({ ...state, moving: three }));
      writeFileSync(join(slot!, '.git'), 'gitdir: /nowhere\n');
      const remade = repo.push();
      assert.is(remade.code, 0, remade.out);
      assert.match(remade.out, 'it was made anew before any gate ran');
      assert.equal(poolSlots(repo), [slot], 'one slot, made anew; the broken one is not left registered');
      assertExactly(slot!, three);
      assert.equal(
        readdirSync(poolDir(repo)).filter((f) => f.startsWith('trash-')),
        [],
      );
      assert.equal(
        repo.ledger().map((x) => x.verdict),
        ['pass', 'pass', 'pass'],
      );
    },
  ));

/** The CLI as a child that can be killed, with its output. */
function spawnCli(repo: Repo, args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), ...args], {
    cwd: repo.dir,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, out: stdout + stderr })));
  return { child, done };
}

test('a run killed outright (kill -9) mid-gate: the next run takes its slot over', () =>
  withRepo(
    { files: { 'gate-ladder.config.ts': WORKTREE(`pwd >> "$GL_TRACE"; test -z "$GL_HANG" || sleep ${ownSleep()}`) } },
    async (repo) => {
      repo.write('src/a.txt', '1\n');
      repo.commit('one');
      const trace = join(dirname(repo.dir), 'trace');
      // The gate's sleep, of this test process's own length: the same file runs on two Nodes at once under .ci/run,
      // and a `pgrep -f` of a fixed length could kill the other's gate (whose run then ends and gives its slot back).
      const gate = new RegExp(`^sleep ${ownSleep()}$`);
      const run = spawnCli(repo, ['run', '--base', 'HEAD~1', '--head', 'HEAD'], { GL_TRACE: trace, GL_HANG: '1' });
      // Until the gate's sleep is there (not only its `pwd` line): killed before it started, it would start after and
      // outlive the test in the slot.
      const deadline = Date.now() + 120_000;
      while (processesMatching(gate).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const [slot] = lines(trace);
      assert.ok(slot && !slotFree(slot), `the gate runs in a held slot: ${slot} ${readdirSync(dirname(slot ?? '/')).join(' ')}`);
      const exited = new Promise((resolve) => run.child.once('exit', resolve));
      run.child.kill('SIGKILL');
      // Not its output's end: the orphaned gate still holds those pipes.
      await exited;
      // The gate runs in its own process group: end it the way the test started it, by its pid, and wait until it is gone.
      for (const line of processesMatching(gate)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
      assert.equal(leftAfter(gate), [], 'the orphaned gate is gone');
      assert.not.ok(slotFree(slot!), 'a dead run leaves its lock');
      const next = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD'], { env: { GL_TRACE: trace } });
      assert.is(next.code, 0, next.out);
      assert.equal(lines(trace), [slot, slot], 'the same slot, not a new one');
      assert.equal(poolSlots(repo), [slot]);
      assert.ok(slotFree(slot!));
    },
  ));

test('concurrent runs take different slots; worktree add and remove never race (4 loops × 5 runs, a pool of 2)', () =>
  withRepo(
    {
      files: {
        // mkdir is atomic: a second run in the same folder at once fails it, and the row says so.
        'gate-ladder.config.ts': WORKTREE(
          'mkdir "$GL_MARKS/$(basename "$PWD")" || { echo "two runs in $PWD at once"; exit 1; }; sleep 0.1; rmdir "$GL_MARKS/$(basename "$PWD")"',
        ),
      },
    },
    async (repo) => {
      repo.write('src/a.txt', '1\n');
      repo.commit('one');
      const marks = join(dirname(repo.dir), 'marks');
      mkdirSync(marks);
      const LOOPS = 4;
      // Five runs a loop (ten until issue 45, which cut the suite's time): four loops at once on a pool of two
      // slots keep two runs in one-off slots most of the time, so every run after the first few takes a slot
      // another has just given back or is adding or removing; twice as many runs repeated that.
      const RUNS = 5;
      const failures: string[] = [];
      const loop = async () => {
        for (let i = 0; i < RUNS; i++) {
          const r = await spawnCli(repo, ['run', '--base', 'HEAD~1', '--head', 'HEAD'], {
            GL_MARKS: marks,
            GATE_LADDER_WORKTREE_SLOTS: '2',
          }).done;
          if (r.code !== 0) failures.push(r.out);
        }
      };
      await Promise.all(Array.from({ length: LOOPS }, loop));
      assert.equal(failures, [], failures[0]);
      const rows = repo.ledger();
      assert.is(rows.length, LOOPS * RUNS);
      assert.equal(
        rows.filter((x) => x.verdict !== 'pass'),
        [],
      );
      assert.ok(poolSlots(repo).length <= 2, `the pool keeps 2 slots: ${poolSlots(repo).join(', ')}`);
      assert.equal(poolLocks(repo), [], 'every slot given back');
      assert.equal(
        readdirSync(poolDir(repo)).filter((f) => /^(trash-|slot-[3-9])/.test(f)),
        [],
        'one-off slots removed',
      );
      assert.is(repo.git('worktree', 'prune', '--dry-run', '--verbose').out.trim(), '', 'no worktree record is left without its folder');
    },
  ));

test('gate-ladder gc removes the pool, keeps a slot a live run holds and says whose; uninstall removes it too', () =>
  withRepo({ files: { 'gate-ladder.config.ts': WORKTREE('true') } }, (repo) => {
    repo.write('src/a.txt', '1\n');
    repo.commit('one');
    assert.is(repo.push().code, 0);
    const [slot] = poolSlots(repo);
    writeFileSync(`${slot}.lock`, `${process.pid}\n`);
    const busy = repo.cli(['gc']);
    assert.is(busy.code, 0, busy.out);
    assert.match(busy.out, `kept ${slot}: process ${process.pid} is using it`);
    assert.equal(poolSlots(repo), [slot]);
    rmSync(`${slot}.lock`);
    const gc = repo.cli(['gc']);
    assert.is(gc.code, 0, gc.out);
    assert.match(gc.out, 'removed 1 worktree slot of the pool');
    assert.equal(poolSlots(repo), []);
    assert.not.ok(existsSync(poolDir(repo)));
    assert.match(repo.cli(['gc']).out, 'no worktree slot to remove');
    assert.equal(userWorktrees(repo), [realpathSync(repo.dir)]);

    repo.write('src/a.txt', '2\n');
    repo.commit('two');
    assert.is(repo.push().code, 0);
    assert.is(poolSlots(repo).length, 1);
    const un = repo.cli(['uninstall']);
    assert.is(un.code, 0, un.out);
    assert.match(un.out, 'removed 1 worktree slot of the pool');
    assert.equal(poolSlots(repo), []);
  }));

test('the pools of repositories that are gone are removed when a slot is made and by gc; a pool in use or of a live repository stays', () =>
  withRepo({ files: { 'gate-ladder.config.ts': WORKTREE('true') } }, (repo) => {
    // A pools folder of this test's own: another test process making a slot in the shared one would sweep these pools first.
    const env = { GATE_LADDER_WORKTREES: join(repo.dir, '..', 'own-pools') };
    const own = dirname(srcPoolDir(join(realpathSync(repo.dir), '.git'), env));
    /** A pool folder beside ours whose slot points at `gitdir`, as git worktree add writes it. */
    const fakePool = (name: string, gitdir: string, lock?: number) => {
      const dir = join(own, name);
      mkdirSync(join(dir, 'slot-1', 'src'), { recursive: true });
      writeFileSync(join(dir, 'slot-1', '.git'), `gitdir: ${gitdir}\n`);
      writeFileSync(join(dir, 'slot-1', 'src', 'file.txt'), 'a checkout of a deleted clone\n');
      writeFileSync(join(dir, 'slot-1.json'), '{}');
      if (lock !== undefined) writeFileSync(join(dir, 'slot-1.lock'), `${lock}\n`);
      return dir;
    };
    mkdirSync(own, { recursive: true });
    const gone = fakePool('deleted-clone-0123456789ab', join(repo.dir, '..', 'deleted-clone', '.git', 'worktrees', 'slot-1'));
    const busy = fakePool('busy-clone-0123456789ac', join(repo.dir, '..', 'busy-clone', '.git', 'worktrees', 'slot-1'), process.pid);
    const alive = fakePool('live-clone-0123456789ad', join(realpathSync(repo.dir), '.git', 'worktrees', 'slot-9'));
    repo.write('src/a.txt', '1\n');
    repo.commit('one');
    const r = repo.push(['origin', 'HEAD'], env);
    assert.is(r.code, 0, r.out);
    assert.not.ok(existsSync(gone), 'swept when the slot was made');
    assert.ok(existsSync(busy), 'a live process holds its lock');
    assert.ok(existsSync(alive), 'its repository is there');
    const again = fakePool('deleted-again-0123456789ae', '/nonexistent/repo/.git/worktrees/slot-1');
    const gc = repo.cli(['gc'], { env });
    assert.is(gc.code, 0, gc.out);
    assert.match(gc.out, 'also removed the worktree pool of 1 repository that no longer exists');
    assert.not.ok(existsSync(again));
    assert.ok(existsSync(busy) && existsSync(alive));
    assert.equal(
      readdirSync(own).filter((n) => n.includes('trash')),
      [],
      'nothing left renamed aside',
    );
  }));

const newFilePatch = (path: string, text: string) =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${text}\n`;

test('a patch that writes into a linked dependency folder is refused, never applied: replay and seed, with and without --isolate network', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\n.venv\n',
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'true', timeout: 60 }] };\n`,
        'packages/app/package.json': '{ "name": "app" }\n',
      },
    },
    (repo) => {
      // The checkout's real dependency folders: a virtualenv and a workspace package's node_modules.
      mkdirSync(join(repo.dir, '.venv/lib/python3.11/site-packages'), { recursive: true });
      mkdirSync(join(repo.dir, 'packages/app/node_modules/dep'), { recursive: true });
      writeFileSync(join(repo.dir, 'packages/app/node_modules/dep/index.js'), 'module.exports = 1;\n');
      const patches = join(dirname(repo.dir), 'patches');
      mkdirSync(patches);
      writeFileSync(join(patches, '1-pth.patch'), newFilePatch('.venv/lib/python3.11/site-packages/zz.pth', 'import os'));
      writeFileSync(join(patches, '2-dep.patch'), newFilePatch('packages/app/node_modules/dep/evil.js', 'evil()'));
      writeFileSync(join(patches, '3-fine.patch'), newFilePatch('src/fine.txt', 'fine'));
      const evil = [join(repo.dir, '.venv/lib/python3.11/site-packages/zz.pth'), join(repo.dir, 'packages/app/node_modules/dep/evil.js')];
      for (const isolate of [[], ['--isolate', 'network']]) {
        const before = repo.ledger().length;
        const r = repo.cli(['replay', patches, '--force', ...isolate]);
        assert.is(r.code, 0, r.out);
        const rows = repo.ledger().slice(before);
        const refused = rows.filter((x) => x.applied === false);
        assert.is(rows.length, 3, JSON.stringify(rows));
        assert.is(refused.length, 2, JSON.stringify(rows));
        const pth = refused.find((x) => String(x.reason).includes('zz.pth'));
        const dep = refused.find((x) => String(x.reason).includes('evil.js'));
        assert.match(
          String(pth?.reason),
          /^not applied onto [0-9a-f]{12}: it touches \.venv\/lib\/python3\.11\/site-packages\/zz\.pth, inside \.venv, a dependency folder/,
        );
        assert.match(String(dep?.reason), 'it touches packages/app/node_modules/dep/evil.js, inside packages/app/node_modules');
        assert.equal(
          rows.filter((x) => x.applied !== false).map((x) => [x.tier, x.verdict]),
          [['t1', 'pass']],
          'an ordinary patch still applies',
        );
        for (const f of evil) assert.not.ok(existsSync(f), `${f} was written into the checkout`);
      }
      for (const p of ['1-pth.patch', '2-dep.patch']) {
        const seeded = repo.cli(['seed', join(patches, p)]);
        assert.is(seeded.code, 2, seeded.out);
        assert.match(seeded.out, 'a dependency folder the worktree copies from your checkout');
      }
      for (const f of evil) assert.not.ok(existsSync(f), `${f} was written into the checkout`);
      assert.equal(poolLocks(repo), []);
    },
  ));

test("submodules are filled in the slot from the checkout's copies, at the commit the superproject records, without the network", () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': WORKTREE(
          'if grep -q libsub .gitmodules 2>/dev/null; then grep -q "lib v2" libsub/value.txt; else test ! -e libsub; fi',
        ),
      },
    },
    (repo) => {
      const lib = join(dirname(repo.dir), 'lib');
      mkdirSync(lib);
      const inLib = (...args: string[]) => {
        const r = sh('git', args, lib);
        if (r.code !== 0) throw new Error(r.out);
        return r.stdout.trim();
      };
      inLib('init', '-q', '-b', 'main');
      writeFileSync(join(lib, 'value.txt'), 'lib v1\n');
      inLib('add', '-A');
      inLib('commit', '-qm', 'v1');
      writeFileSync(join(lib, 'value.txt'), 'lib v2\n');
      inLib('commit', '-qam', 'v2');
      const v2 = inLib('rev-parse', 'HEAD');
      repo.gitOk('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libsub');
      // An address that cannot be reached: the slot must fill the submodule from the checkout's copy.
      repo.write('.gitmodules', repo.read('.gitmodules').replace(lib, 'https://example.invalid/lib.git'));
      repo.commit('a submodule at v2');
      rmSync(lib, { recursive: true });
      // The checkout's copy moved back to v1, not committed: the pushed commit records v2.
      sh('git', ['checkout', '-q', 'HEAD~1'], join(repo.dir, 'libsub'));
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      const [slot] = poolSlots(repo);
      assert.is(sh('git', ['rev-parse', 'HEAD'], join(slot!, 'libsub')).stdout.trim(), v2);
      // The submodule removed: its files do not outlive it in the slot.
      repo.gitOk('rm', '-q', '-f', 'libsub');
      repo.commit('no submodule');
      const gone = repo.push();
      assert.is(gone.code, 0, gone.out);
      assert.not.ok(existsSync(join(slot!, 'libsub')));
      assert.equal(
        repo.ledger().map((x) => x.verdict),
        ['pass', 'pass'],
      );
    },
  ));

test('a submodule whose files were changed and not committed makes the checkout not the pushed commit: the gates run in a slot, at the commit the superproject records', () =>
  withRepo(
    {
      files: {
        // The default isolation: in place only when the checkout is exactly the pushed commit.
        'gate-ladder.config.ts': `export default { cache: false, tiers: [{ name: 't1', run: 'grep -q "lib v1" libsub/value.txt', timeout: 60 }] };\n`,
      },
    },
    (repo) => {
      const lib = join(dirname(repo.dir), 'lib');
      mkdirSync(lib);
      sh('git', ['init', '-q', '-b', 'main'], lib);
      writeFileSync(join(lib, 'value.txt'), 'lib v1\n');
      sh('git', ['add', '-A'], lib);
      sh('git', ['commit', '-qm', 'v1'], lib);
      repo.gitOk('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libsub');
      repo.commit('a submodule');
      // What the push holds passes; a change left in the submodule's work tree would fail it: the push is judged on what it holds.
      writeFileSync(join(repo.dir, 'libsub', 'value.txt'), 'not committed\n');
      repo.write('notes.txt', 'a change\n');
      repo.commit('a change beside the submodule');
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      assert.equal(repo.ledger().at(-1)!.isolation, 'worktree', JSON.stringify(repo.ledger().at(-1)));
      // The checkout's submodule is as it was left.
      assert.is(readFileSync(join(repo.dir, 'libsub', 'value.txt'), 'utf8'), 'not committed\n');
    },
  ));

test.run();
