/**
 * Issue 33, point 4: `kill -9` of the hook while a slot of the worktree pool is being checked out
 * (20,000 files) leaves `git checkout` and its workers writing into the slot. The next push repairs
 * the slot: it stops what the dead run left there, gives the right verdict, and leaves no trash
 * folder and no git process of the dead run behind. The git processes left are frozen (SIGSTOP) the
 * moment the hook is killed, so the next push meets them whatever the machine's speed: they are
 * still there, mid-checkout, when it starts.
 */
import { mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';
import { poolDir } from '../helpers/pool.js';
import { alive, background, killQuietly, parentOf, waitFor } from './wait.js';

const DIRS = 100;
const PER_DIR = 200;

/** Git processes (their command name) running in `dir` or below it. */
function gitIn(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'latin1').trim() !== 'git') continue;
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ');
  } catch {
    return '';
  }
};

test('kill -9 of the hook mid-checkout of a slot: the next push stops what it left, passes, and leaves no trash and no git process', () =>
  withRepo({}, async (repo) => {
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(repo.dir, 'many', String(d)), { recursive: true });
      for (let f = 0; f < PER_DIR; f++) writeFileSync(join(repo.dir, 'many', String(d), `${f}.txt`), `${d} ${f}\n`);
    }
    // The gate checks the slot's tracked files are exactly the commit's (what it shows of git status is for a failure's message).
    const run = `git status --porcelain | head -5; test -f many/${DIRS - 1}/${PER_DIR - 1}.txt && git diff --quiet HEAD && test -z "$(git status --porcelain --untracked-files=no)"`;
    repo.write(
      'gate-ladder.config.ts',
      `export default { isolation: 'worktree', cache: false, tiers: [{ name: 't1', run: ${JSON.stringify(run)}, timeout: 600 }] };\n`,
    );
    repo.commit('many files');
    repo.push(['origin', 'HEAD'], { GATE_LADDER: '0' });
    repo.write('src/a.txt', 'one\n');
    repo.commit('one');
    mkdirSync(poolDir(repo), { recursive: true });
    const pool = realpathSync(poolDir(repo));
    const slot = join(pool, 'slot-1');
    const left: number[] = [];
    try {
      const push = background('git', ['push', 'origin', 'HEAD'], repo.dir);
      // The slot's checkout under way: a git process in the slot, checking out.
      const checkout = await waitFor('the slot checkout', () => gitIn(slot).find((pid) => / checkout /.test(` ${cmdline(pid)} `)), 120_000);
      const hook = parentOf(checkout)!;
      assert.match(cmdline(hook), 'run pre-push');
      killQuietly(hook, 'SIGKILL');
      // What it left, frozen mid-checkout: it is there when the next push starts.
      for (const pid of gitIn(slot)) {
        left.push(pid);
        process.kill(pid, 'SIGSTOP');
      }
      assert.ok(left.length > 0);
      await push.done;
      repo.write('src/a.txt', 'two\n');
      repo.commit('two');
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      assert.is(repo.ledger().at(-1)!.verdict, 'pass');
      for (const pid of left) assert.not.ok(alive(pid), `git (pid ${pid}) left by the killed run is still there`);
      assert.equal(gitIn(pool), []);
      assert.equal(
        readdirSync(pool).filter((n) => n.startsWith('trash-')),
        [],
      );
    } finally {
      for (const pid of [...left, ...gitIn(pool)]) killQuietly(pid);
    }
  }));

test.run();
