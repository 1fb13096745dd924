/**
 * Issue 33, point 2: two Ctrl-Cs at any spacing during a pre-commit lint-staged tier, sent to the
 * whole process group as a terminal sends them (git, the hook, lint-staged's git commands and its
 * tasks), through a real `git commit`. The working tree and index end exactly as before the commit,
 * or the changes sit in a named stash and the printed command restores them exactly. Issue 44: the
 * spacings are held, not hoped for: commits at each of 0, 50 and 100 ms, as measured between the two
 * signals (a timer's wake-up had made them 165-230 ms on a loaded machine), and the test prints the
 * spacings it measured.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, cleanEnv, sh, withRepo } from '../helpers/repo.js';
import { waitFor } from './wait.js';

const CONFIG = `export default {\n  tiers: [\n    { name: 'lint', lintStaged: true },\n  ],\n};\n`;

/** A lint-staged task that says it started, then runs until it is stopped (Ctrl-C ends it at once, as most tools). */
const TASK = `import { writeFileSync } from 'node:fs';
writeFileSync(process.env.GL_MARK, '');
setInterval(() => {}, 1000);
`;

const lines = (n: number, word: string) => `${Array.from({ length: n }, (_, i) => `${word} ${i}`).join('\n')}\n`;

/** Every file of the work tree (not .git, not the node_modules link) with its bytes and mode, and the index's entries. */
function snapshot(repo: Repo): string {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (rel === '' && (name === '.git' || name === 'node_modules')) continue;
      const path = join(dir, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path, `${rel}${name}/`);
      else out.push(`${rel}${name} ${st.mode.toString(8)} ${readFileSync(path).toString('base64')}`);
    }
  };
  walk(repo.dir, '');
  out.push(repo.gitOk('ls-files', '--stage'));
  return out.join('\n');
}

/** Whether any process of group `pgid` is left. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const SPACINGS = [0, 50, 100] as const;
/**
 * Commits on target per spacing: 7 (issue 44 had 20; issue 45 cut the suite's time). A trial at a spacing
 * lands the second Ctrl-C at the same step of the hook give or take the jitter the test prints (about
 * 0-8 ms at 0 ms, 50-72 ms at 50 ms, 100-150 ms at 100 ms on a machine loaded 4 times over its cores),
 * so more trials at one spacing mostly repeat the same landing: 3 x 20 commits took 400 s there, and all
 * 65 came back restored, none stashed. Seven per spacing still sample that jitter at each of the three
 * spacings (21 commits, each a full `git commit` through the hook and lint-staged), about a third of
 * the time.
 */
const TRIALS = 7;
/** A trial whose measured spacing is this far from its target is off target: counted and printed, not failed (a loaded machine). */
const TOLERANCE_MS = 20;

/** What one trial's Ctrl-Cs were: their measured spacing, or that the commit had ended before the second was due. */
type Sent = ({ spacing: number } | { endedAfter: number }) & { outcome?: 'restored' | 'stashed' };

/**
 * Two Ctrl-Cs to group `pgid`, the second `ms` after the first as the monotonic clock measures it: the
 * test spins on the clock and on the group's state (no timer: a timer's wake-up on a loaded machine comes
 * 100 ms late and more, which turned 0-100 ms into 165-230 ms). When the group has ended before the
 * second is due, there is nothing left to stop: said as such. The spacing measured is from just before
 * the first signal is sent to just before the second.
 */
function twoCtrlCs(pgid: number, ms: number): Sent {
  const first = performance.now();
  process.kill(-pgid, 'SIGINT');
  for (;;) {
    const now = performance.now();
    // Any process of the group left (git itself exits at the first Ctrl-C; the hook goes on restoring): the commit is not over.
    if (!groupAlive(pgid)) return { endedAfter: now - first };
    if (now - first < ms) continue;
    try {
      process.kill(-pgid, 'SIGINT');
    } catch {
      return { endedAfter: now - first };
    }
    return { spacing: now - first };
  }
}

const fixed = (n: number) => n.toFixed(1);

/** The measured spacings of one target, as the test prints them. */
function spread(target: number, sent: readonly Sent[]): string {
  const spacings = sent.flatMap((s) => ('spacing' in s ? [s.spacing] : [])).sort((a, b) => a - b);
  const ended = sent.length - spacings.length;
  const off = spacings.filter((s) => s > target + TOLERANCE_MS).length;
  const stashed = sent.filter((x) => x.outcome === 'stashed').length;
  const median = spacings[Math.floor(spacings.length / 2)];
  return `${target} ms: ${sent.length} trials, ${spacings.length} with two Ctrl-Cs measured ${spacings.length ? `${fixed(spacings[0]!)}-${fixed(spacings.at(-1)!)} ms apart (median ${fixed(median!)})` : '(none)'}, ${off} of them more than ${TOLERANCE_MS} ms late${ended ? `, ${ended} ended before the second was due` : ''}; ${sent.length - stashed} restored, ${stashed} left in a named stash and restored by its command`;
}

/** TRIALS commits on target at one spacing (a test per spacing: each within the suite's time limit for one test on a loaded machine). */
const stopCommits = (target: number) =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': CONFIG,
        '.lintstagedrc.json': '{ "src/*.txt": "node task.mjs" }\n',
        'task.mjs': TASK,
        'src/value.txt': lines(40, 'line'),
        'src/other.txt': 'other\n',
        'src/gone.txt': 'to be deleted, unstaged\n',
      },
    },
    async (repo) => {
      const hook = repo.cli(['install', '--pre-commit']);
      assert.is(hook.code, 0, hook.out);
      repo.gitOk('add', '.husky');
      assert.is(sh('git', ['commit', '-q', '-m', 'hooks'], repo.dir, { env: { GATE_LADDER: '0' } }).code, 0);
      // A file with staged and unstaged hunks, a staged new file, an unstaged deletion, an untracked file.
      repo.write('src/value.txt', lines(40, 'line').replace('line 1\n', 'line 1 staged\n'));
      repo.gitOk('add', 'src/value.txt', 'src/other.txt');
      repo.write(
        'src/value.txt',
        lines(40, 'line').replace('line 1\n', 'line 1 staged\n').replace('line 30\n', 'line 30 unstaged \u00e9\n'),
      );
      repo.write('src/new.txt', 'new and staged\n');
      repo.gitOk('add', 'src/new.txt');
      repo.write('src/new.txt', 'new and staged\nplus unstaged\n');
      rmSync(join(repo.dir, 'src/gone.txt'));
      repo.write('notes.txt', 'untracked\n');
      const head = repo.gitOk('rev-parse', 'HEAD');
      const before = snapshot(repo);
      const stashes = repo.gitOk('stash', 'list');
      const marks = mkdtempSync(join(tmpdir(), 'gl-marks-'));
      const outcomes: string[] = [];
      const sent: Sent[] = [];
      const onTarget = () => sent.filter((x) => 'spacing' in x && x.spacing <= target + TOLERANCE_MS).length;
      try {
        // Until TRIALS trials are on target; one that misses (the machine was busy, or the commit ended before the second
        // Ctrl-C was due) is tried again, up to TRIALS more times, then printed as not held.
        for (let trial = 0; onTarget() < TRIALS && sent.length < 2 * TRIALS; trial++) {
          const spacing = target;
          const mark = join(marks, String(trial));
          // Its own process group, as a terminal's foreground job: each Ctrl-C reaches every process in it.
          const child = spawn('git', ['commit', '-m', 'attempt'], {
            cwd: repo.dir,
            env: cleanEnv({ GL_MARK: mark }),
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d));
          child.stderr.on('data', (d: Buffer) => (out += d));
          const closed = new Promise<void>((r) => child.on('close', () => r()));
          let ended = false;
          void closed.then(() => (ended = true));
          await waitFor(`the lint-staged task to start (trial ${trial})`, () => existsSync(mark) || ended);
          assert.ok(existsSync(mark), `the task started: ${out}`);
          const how: Sent = twoCtrlCs(child.pid!, spacing);
          sent.push(how);
          if ('spacing' in how)
            assert.ok(
              how.spacing >= spacing,
              `trial ${trial}: the second Ctrl-C came ${how.spacing} ms after the first, before ${spacing} ms`,
            );
          // Done when every process of the group is gone (git may be, the hook still restoring) and the output is whole.
          await waitFor(`the commit's processes to end (trial ${trial})`, () => !groupAlive(child.pid!));
          await closed;
          const label = `trial ${trial}, ${spacing} ms (${'spacing' in how ? `measured ${fixed(how.spacing)} ms` : `ended ${fixed(how.endedAfter)} ms after the first`}):\n${out}`;
          assert.is(repo.gitOk('rev-parse', 'HEAD'), head, `no commit was made; ${label}`);
          const after = snapshot(repo);
          if (after === before) {
            assert.is(repo.gitOk('stash', 'list'), stashes, `nothing left in the stash list when the work is back; ${label}`);
            outcomes.push('restored');
            how.outcome = 'restored';
            continue;
          }
          // Not back: the output names a stash and the exact command that brings the changes back.
          const command = /`(git [^`]*stash apply --index [^`]*)`/.exec(out)?.[1];
          assert.ok(command, `the work tree or index changed and no restoring command was printed; ${label}`);
          assert.match(repo.gitOk('stash', 'list'), 'gate-ladder', `the changes sit in a named stash; ${label}`);
          const r = sh('sh', ['-c', command], repo.dir);
          assert.is(r.code, 0, `${command}: ${r.out}`);
          assert.is(snapshot(repo), before, `the printed command restores the tree and index exactly; ${label}`);
          outcomes.push('stashed');
          how.outcome = 'stashed';
          repo.gitOk('stash', 'drop', '-q');
          assert.is(repo.gitOk('stash', 'list'), stashes);
        }
      } finally {
        rmSync(marks, { recursive: true, force: true });
      }
      assert.is(outcomes.length, sent.length, 'every trial was checked');
      // The spacings the trials really had: the claim is about these.
      console.log(`commit-ctrl-c: ${spread(target, sent)}${onTarget() < TRIALS ? `: NOT HELD (${onTarget()} on target)` : ''}`);
    },
  );

for (const ms of SPACINGS)
  test(`${TRIALS} commits each stopped by two Ctrl-Cs ${ms} ms apart (measured): tree and index as before, or a named stash and the command that restores them`, () =>
    stopCommits(ms));

test.run();
