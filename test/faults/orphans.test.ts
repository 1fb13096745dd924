/**
 * Issue 16, point 6: no orphans. A gate left running by a hook killed outright is stopped by the
 * next run, which says so; a hook whose `git push` was killed stops its gates and writes no row; a
 * timeout also kills what the gate started in a session of its own (`setsid`); and replay never
 * waits for a daemon that keeps a gate's pipe open.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, withRepo } from '../helpers/repo.js';
import { alive, background, killQuietly, parentOf, pidIn, waitFor } from './wait.js';

const SLOW = `echo $$ > "$GL_PIDS/gate.tmp" && mv "$GL_PIDS/gate.tmp" "$GL_PIDS/gate"; sleep 300 & echo $! > "$GL_PIDS/child"; wait`;

/** Shell: wait until "$GL_PIDS/<name>" exists. */
const WAIT = (name: string) => `while [ ! -s "$GL_PIDS/${name}" ]; do sleep 0.05; done`;

function setup(repo: Repo, run: string, timeout = 600): string {
  const pids = join(dirname(repo.dir), 'pids');
  mkdirSync(pids, { recursive: true });
  repo.write(
    'gate-ladder.config.ts',
    `export default { tiers: [{ name: 't1-slow', run: ${JSON.stringify(run)}, timeout: ${timeout} }] };\n`,
  );
  repo.write('src/a.txt', `${Math.random()}\n`);
  repo.commit('change');
  return pids;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

/** The pids a test must clean up whatever happens: known as soon as they are. */
interface Started {
  gate?: number;
  child?: number;
}

/** A real `git push` whose slow gate (and its background child) are running; `started` gets their pids at once. */
async function pushUntilGateRuns(repo: Repo, started: Started, timeoutS?: number) {
  const pids = setup(repo, SLOW, timeoutS);
  const push = background('git', ['push', 'origin', 'HEAD'], repo.dir, { GL_PIDS: pids });
  const gate = (started.gate = await waitFor('the gate to start', pidIn(join(pids, 'gate'))));
  const child = (started.child = await waitFor('its background child', pidIn(join(pids, 'child'))));
  const hook = parentOf(gate)!;
  assert.match(cmdline(hook), 'cli.cjs run pre-push');
  return { push, gate, child, hook };
}

/** The watcher a run starts once a gate has run a second: a shell, a child of `pid`, that runs `gc --leftovers` if `pid` is killed. */
function watcherOf(pid: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    const child = Number(name);
    if (!Number.isInteger(child) || parentOf(child) !== pid) continue;
    if (cmdline(child).includes('gate-ladder-watch')) return child;
  }
  return undefined;
}

test('kill -9 of the hook: its watcher stops the gate group at once and says so; the next run has nothing to stop', () =>
  withRepo({}, async (repo) => {
    const started: Started = {};
    try {
      const { push, gate, child, hook } = await pushUntilGateRuns(repo, started);
      await waitFor('the watcher to start', () => watcherOf(hook));
      process.kill(hook, 'SIGKILL');
      assert.is.not(await push.done, 0);
      const [g, c] = [gate, child];
      await waitFor('the gate and its child to be gone', () => !alive(g) && !alive(c));
      await push.closed;
      assert.match(push.out(), `gate-ladder: a run that was killed (pid ${hook}) left t1-slow running since`, push.out());
      assert.match(push.out(), `(process group ${gate}); stopped 2 processes.`);
      const next = repo.cli(['run', '--base', 'HEAD~1', '--dry-run']);
      assert.is(next.code, 0, next.out);
      assert.not.match(next.out, 'a run that was killed', 'said once');
    } finally {
      killQuietly(started.gate);
      killQuietly(started.child);
    }
  }));

test('kill -9 of the hook and its watcher: the gate group outlives them, and the next run stops it and says so', () =>
  withRepo({}, async (repo) => {
    const started: Started = {};
    try {
      const { push, gate, child, hook } = await pushUntilGateRuns(repo, started);
      // The runner writes its record just after starting the gate; the gate may get there first.
      const records = join(repo.dir, '.git', 'gate-ladder', 'gates');
      await waitFor('the gate to be recorded', () => existsSync(records) && readdirSync(records).some((f) => f.endsWith('.json')));
      const watcher = await waitFor('the watcher to start', () => watcherOf(hook));
      process.kill(watcher, 'SIGKILL');
      process.kill(hook, 'SIGKILL');
      assert.is.not(await push.done, 0);
      assert.ok(alive(gate) && alive(child), 'the gate outlived its hook');
      const next = repo.cli(['run', '--base', 'HEAD~1', '--dry-run']);
      assert.is(next.code, 0, next.out);
      assert.match(next.out, `gate-ladder: a run that was killed (pid ${hook}) left t1-slow running since`, next.out);
      assert.match(next.out, `(process group ${gate}); stopped 2 processes.`);
      const [g, c] = [gate, child];
      await waitFor('the gate and its child to be gone', () => !alive(g) && !alive(c));
      const again = repo.cli(['run', '--base', 'HEAD~1', '--dry-run']);
      assert.not.match(again.out, 'a run that was killed', 'said once');
    } finally {
      killQuietly(started.gate);
      killQuietly(started.child);
    }
  }));

test('kill -9 of `git push`: the hook stops its gates, says the push no longer exists, and writes no row', () =>
  withRepo({}, async (repo) => {
    const started: Started = {};
    try {
      const { push, gate, child, hook } = await pushUntilGateRuns(repo, started, 20);
      process.kill(push.pid, 'SIGKILL');
      await waitFor('the hook to stop', () => !alive(hook));
      const [g, c] = [gate, child];
      await waitFor('the gate and its child to be gone', () => !alive(g) && !alive(c));
      await push.closed;
      assert.match(
        push.out(),
        `gate-ladder: git (pid ${push.pid}), which started this run, has exited: the push no longer exists.`,
        push.out(),
      );
      assert.equal(repo.ledger(), [], 'no row for a push that no longer exists');
    } finally {
      killQuietly(started.gate);
      killQuietly(started.child);
    }
  }));

test('a timeout also kills what the gate started in a session of its own (setsid)', () =>
  withRepo({}, async (repo) => {
    // A daemon as daemons are: its own session, its output elsewhere (so nothing waits on a pipe it
    // holds), living longer than any wait here. The gate waits until it has its own session (it
    // wrote its pid from there).
    const pids = setup(
      repo,
      `setsid sh -c 'echo $$ > "$GL_PIDS/escaper.tmp" && mv "$GL_PIDS/escaper.tmp" "$GL_PIDS/escaper" && exec sleep 3000' </dev/null >/dev/null 2>&1 & ${WAIT('escaper')}; sleep 300`,
      3,
    );
    let escaper: number | undefined;
    try {
      const r = repo.push(['origin', 'HEAD'], { GL_PIDS: pids });
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 'timed out after 3 s');
      escaper = pidIn(join(pids, 'escaper'))();
      assert.ok(escaper !== undefined && escaper > 1);
      const e = escaper;
      await waitFor('the setsid escaper to be gone', () => !alive(e));
    } finally {
      killQuietly(escaper);
    }
  }));

test("replay does not wait for a daemon that keeps its gate's pipe open: it ends when the gate does", () =>
  withRepo({}, (repo) => {
    const pids = setup(
      repo,
      `setsid sh -c 'echo $$ > "$GL_PIDS/daemon.tmp" && mv "$GL_PIDS/daemon.tmp" "$GL_PIDS/daemon" && exec sleep 300' & ${WAIT('daemon')}; echo started`,
    );
    let daemon: number | undefined;
    try {
      const r = repo.cli(['replay', 'HEAD~1..HEAD', '--jobs', '1'], { env: { GL_PIDS: pids }, timeoutMs: 120_000 });
      daemon = pidIn(join(pids, 'daemon'))();
      assert.is(r.code, 0, r.out);
      assert.match(r.out, 'replay: 1 patch');
      assert.ok(daemon !== undefined && alive(daemon), 'the daemon was still running when replay ended');
    } finally {
      killQuietly(daemon);
    }
  }));

test.run();
