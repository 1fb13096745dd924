// Runs the uvu suites (unit, integration, faults) and ends with one line: `N passed, N failed`.
//
// Two sets. `npm test` (`--fast`): the unit suite and the integration files and tests FAST names, the
// cheapest that still push for real and run each command and each runner once (about 4 minutes here).
// `npm run test:all` (no argument): every file of the three folders, what .ci/run runs on each Node.
// Folders or `.test.js` files named as arguments run instead (`npm run test:unit` names the unit folder).
//
// On this Node and on each Node binary named in GATE_LADDER_TEST_NODES (space-separated paths;
// .ci/run names none: it gives the others GATE_LADDER_TEST_NODES_SOME, below). A job on a Node puts a folder holding only a `node` link to
// that Node first on PATH, so the installed hook's `node ...` line and every script the tests start run
// on the Node under test too, and nothing else changes: putting the Node's own folder first would, for
// a Node in /usr/bin, put every system tool there ahead of the user's (a python3 without pytest ahead
// of pyenv's, say).
//
// Jobs: the unit suite (one process) and each integration and faults file (one process each), for
// every Node, in one queue, GL_TEST_JOBS at a time (default 3: they wait on git and the processes they
// start about a third of the time): the unit suites first, then the slowest first (durations recorded
// by the last run in node_modules/.cache/gate-ladder-tests/durations.json, else
// scripts/test-durations.json; file size stands in for a file never timed), so no core idles behind
// one long file at the end. Each job's output is printed whole when it ends, under its Node, with its
// wall time and its CPU time (user + system, with what it started and waited for; Linux), and the run
// ends with the sum of those CPU times before its last line: on a shared machine the wall time is the
// load's, the CPU time is the suite's. The integration and faults files share one packed and installed
// gate-ladder (GL_TEST_INSTALLED), made here while the unit suite runs. Files that share state would
// have to run alone: none do (each makes its repositories in a temp folder of its own, and its process
// checks look for commands no other file starts).
//
// On each Node binary named in GATE_LADDER_TEST_NODES_SOME, only the tests of what differs between
// Nodes run (NODE_SENSITIVE below: the unit suite, and the files and tests that start processes, send
// signals, load modules and configs, or run the hook): .ci/run gives the whole suite to the oldest Node
// (20) and this part to the others (22, 24, 26).
//
// A time limit per test: each test process reports every test's start and end (test/helpers/test-clock.ts,
// loaded with --import, writing to a pipe of its own); a test that has not ended after GL_TEST_TIMEOUT_S
// seconds (default 300), or a file that starts no test for as long, is stopped with everything it
// started, and the job's output names the file and the test.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
/** `--fast`: `npm test`'s set (FAST below); without it, `npm run test:all`'s whole suite. */
const fast = args.includes('--fast');
const named = args.filter((a) => a !== '--fast');
const suites = named.length > 0 ? named : ['build/test/unit', 'build/test/integration', 'build/test/faults'];
const words = (value) =>
  (value ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((node) => resolve(node));
const some = words(process.env.GATE_LADDER_TEST_NODES_SOME);
const nodes = [...new Set([process.execPath, ...words(process.env.GATE_LADDER_TEST_NODES), ...some].map((node) => resolve(node)))];

/**
 * What differs between Nodes, and so runs on every Node of GATE_LADDER_TEST_NODES_SOME (.ci/run: 22, 24
 * and 26; the oldest, 20, runs everything). `true`: the whole file; `'marked'`: only its tests declared
 * with `nodeTest` (test/helpers/sets.ts; the job gets GL_TEST_PART=node-sensitive, and a file that marks
 * none fails). What differs between Nodes is what Node itself does for gate-ladder: loading modules and
 * configs (jiti, the config's worker thread and how it ends, TypeScript, the compile cache), starting
 * processes and their errors, signals and process groups, the hook line as git runs it, and node's own
 * test runner's JUnit report. Git, routing, the ledger's and the caches' bookkeeping and the runners'
 * verdicts are the same code on every Node, so their tests run on the oldest only. docs/testing.md
 * ("What runs on which Node") lists each file's marked tests and why.
 *
 * Whole: the unit suite (one process, about 30 s: the widest net for an API a newer Node changed or
 * removed, and child processes and signals in processes and gate tests), faults/node (Node's own
 * flags and deprecations), faults/orphans (signals, process groups), integration/hook-line (the hook's
 * line, old and new, as git runs it). Marked: integration/package (the packed bin and library as
 * this Node loads them; not tsc's check of the types, the same on every Node), faults/config (the config worker: never settling, exiting, looping, printing; a missing cwd
 * at spawn), faults/cache and integration/cache (configs that import files or read them, the hook's
 * cached path), integration/push (pass, catch, timeout killing the tree, a missing command, the bypass,
 * through the hook), integration/pre-commit (lint-staged through the hook, its config loading,
 * Ctrl-C and SIGTERM), integration/judge (node --test's JUnit report: it names a failed test's file
 * from Node 23 on, before that its stack does; the MCP server).
 */
const NODE_SENSITIVE = {
  'build/test/unit': true,
  'build/test/faults/node.test.js': true,
  'build/test/faults/orphans.test.js': true,
  'build/test/faults/config.test.js': 'marked',
  'build/test/faults/cache.test.js': 'marked',
  'build/test/integration/cache.test.js': 'marked',
  'build/test/integration/package.test.js': 'marked',
  'build/test/integration/push.test.js': 'marked',
  'build/test/integration/hook-line.test.js': true,
  'build/test/integration/pre-commit.test.js': 'marked',
  'build/test/integration/judge.test.js': 'marked',
  // node:test's JUnit report, whose ids differ between Nodes (from Node 23 on they name the file)
  'build/test/integration/evidence.test.js': 'marked',
  // node:test's own output (tap, dot), read on the Node that prints it
  'build/test/integration/runners.test.js': 'marked',
};
/**
 * `npm test`'s integration files (`--fast`; `npm run test:all` runs every file): the cheapest that still
 * push for real through the installed hook, run each command (run, install and uninstall, ci, report,
 * replay, merge, judge, mcp, flaky, sync, seed, gc) and each runner of the verdict matrix once. A file
 * listed with the beginnings of some of its tests' titles runs those tests only (the file imports `test`
 * from test/helpers/sets.ts, which skips the others and fails on a beginning no title has); with `true`,
 * all of them. Each job runs with GL_TEST_SET=fast (runners.test.ts then runs one case per runner). What
 * each is here for: docs/testing.md ("Two commands").
 */
const FAST = {
  // a real push through the installed hook, each verdict, install and uninstall (and Node-sensitive: the hook)
  'build/test/integration/push.test.js': true,
  // the packed bin, the library and its types
  'build/test/integration/package.test.js': 'marked',
  // the report's figures, table, markdown, JSON and page
  'build/test/integration/report-cli.test.js': true,
  // seed, and the report counting what it seeded
  'build/test/integration/seed-report.test.js': true,
  // each runner and linter of the verdict matrix, on a failing case (GL_TEST_SET=fast)
  'build/test/integration/runners.test.js': true,
  'build/test/integration/ci.test.js': ['GitHub pull_request'],
  'build/test/integration/judge.test.js': ['a caught patch', 'mcp:'],
  // sync, then report and flaky on the synced ledger; a remote that refuses
  'build/test/integration/sync.test.js': ['a malformed row', 'a remote that refuses'],
  // replay, replay --shard and merge
  'build/test/integration/shard-merge.test.js': ['a 12-commit range'],
  'build/test/integration/worktree-pool.test.js': ['gate-ladder gc removes'],
};
const TIMEOUT_S = Number(process.env.GL_TEST_TIMEOUT_S) > 0 ? Number(process.env.GL_TEST_TIMEOUT_S) : 300;
const CLOCK = pathToFileURL(resolve('build/test/helpers/test-clock.js')).href;
/** Test processes under way, each the leader of its own process group: stopped with the run. */
const running = new Set();
const jobs = Math.max(1, Number.parseInt(process.env.GL_TEST_JOBS ?? '3', 10) || 3);
let passed = 0;
let failed = 0;
let skipped = 0;
let cpuTotal = 0;
const started = Date.now();
let status = 0;
const perNode = [];

/**
 * The temp folder every test process makes its repositories in (TMPDIR): a new folder in memory
 * (/dev/shm) where there is one, else the system's. The suite creates and deletes some hundred thousand
 * files; on this machine's ext4 /tmp the kernel's inode bookkeeping for that was about half of the
 * suite's system time (one file: 9.0 s of system time on /tmp, 4.1 s in memory; 22 s wall against 17 s).
 * GL_TEST_TMPDIR names another parent folder. Removed at the end; a run killed outright (kill -9)
 * cannot, so its folder (named with its pid) is removed by the next run once that pid is gone.
 */
function testTmp() {
  for (const parent of [process.env.GL_TEST_TMPDIR, '/dev/shm'].filter(Boolean)) {
    try {
      if (!statSync(parent).isDirectory()) continue;
      for (const name of readdirSync(parent)) {
        const pid = /^gl-tests-(\d+)-/.exec(name)?.[1];
        if (pid !== undefined && !alive(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
      }
      return mkdtempSync(join(parent, `gl-tests-${process.pid}-`));
    } catch {
      // not there, or not writable: the next, else the system's temp folder
    }
  }
  return undefined;
}

/** Whether a process of this id exists (signal 0 checks without sending anything). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * The CPU time (user + system, seconds) of this process's children that have ended and been waited
 * for, from /proc (Linux): read when a job's process is reaped, the growth since the last reading is
 * that job's CPU time, with what it started and waited for (git, the CLI, the runners; not a process it
 * left behind to be reaped by another). Two jobs that end at the same moment may swap a little of it.
 * Undefined where there is no /proc.
 */
const TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(r.stdout) > 0 ? Number(r.stdout) : 100;
})();
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, cutime 16 and cstime 17 (1-based, of the whole line).
    return (Number(f[13]) + Number(f[14])) / TICKS;
  } catch {
    return undefined;
  }
}
let cpuSeen = childrenCpu();
/** The CPU time that ended since the last call (the job just reaped), or undefined. */
function cpuSince() {
  const now = childrenCpu();
  const d = now === undefined || cpuSeen === undefined ? undefined : now - cpuSeen;
  cpuSeen = now;
  return d;
}

/**
 * One packed and installed gate-ladder for every test process (test/helpers/repo.ts `packInstall`),
 * made while the unit suite, which does not need it, runs. Resolves with its folder, or undefined.
 */
function sharedInstall() {
  if (!suites.some((s) => !s.endsWith('unit'))) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('./build/test/helpers/repo.js'); process.stdout.write(m.packInstall());"],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...(tmp && { TMPDIR: tmp }) },
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      cpuSince(); // not a test job's
      if (code === 0 && out.trim() !== '') return resolve(out.trim());
      process.stdout.write('gate-ladder tests: could not pack and install gate-ladder once; each test file packs its own.\n');
      resolve(undefined);
    });
  });
}

const count = (out) => {
  // uvu's own summary is the last one in a job's output: a failed test's message may quote another (a gate running uvu).
  const num = (name) => Number([...out.matchAll(new RegExp(`^\\s*${name}:\\s+(\\d+)`, 'gm'))].at(-1)?.[1] ?? 0);
  return { total: num('Total'), passed: num('Passed'), skipped: num('Skipped') };
};

/** Adds a job's counts to the totals and to its Node's line (`node`). */
function tally(out, code, node) {
  const c = count(out);
  // uvu's Total counts the tests that ran: the skipped ones are beside it, not in it.
  let fails = c.total - c.passed;
  if (code !== 0) {
    status = 1;
    if (c.total === 0) fails += 1; // the file or suite crashed before counting
  }
  passed += c.passed;
  skipped += c.skipped;
  failed += fails;
  node.passed += c.passed;
  node.failed += fails;
}

/**
 * Runs `uvu dir pattern` on `node`; resolves with its output and exit code. The process leads a group
 * of its own, so that a test stopped for its time limit takes what it started with it.
 */
function uvu(node, env, dir, pattern) {
  return new Promise((resolve) => {
    const clock = existsSync(new URL(CLOCK)) ? ['--import', CLOCK] : [];
    const child = spawn(node, [...clock, 'node_modules/uvu/bin.js', dir, pattern, '--no-color'], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...env, GL_TEST_EVENTS_FD: '3' },
      detached: true,
    });
    running.add(child.pid);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    let current;
    let stopped;
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stopped = current ?? { file: dir, name: '(no test under way: loading the file, or between tests)' };
        stopGroup(child.pid);
      }, TIMEOUT_S * 1000);
    };
    arm();
    let pending = '';
    child.stdio[3].on('data', (c) => {
      pending += c.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const [kind, file, name] = line.split('\t');
        current = kind === 'start' ? { file, name } : undefined;
        arm();
      }
    });
    let cpu;
    child.on('exit', () => (cpu = cpuSince()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      if (stopped)
        chunks.push(
          Buffer.from(
            `\n  ✘ ${stopped.file} › ${stopped.name}: did not end within ${TIMEOUT_S} s (GL_TEST_TIMEOUT_S); stopped with everything it started\n`,
          ),
        );
      resolve({ out: Buffer.concat(chunks).toString('utf8'), code: stopped ? 1 : (code ?? (signal ? 1 : 0)), cpu });
    });
  });
}

/** Kills a test process's group (it and what it started that stayed in the group). */
function stopGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// This machine's last run, else the committed seed (a fresh clone's first run), else file sizes.
const DURATIONS = 'node_modules/.cache/gate-ladder-tests/durations.json';
const SEED = 'scripts/test-durations.json';
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};
const durations = readJson(DURATIONS) ?? readJson(SEED) ?? {};

/** The jobs of a suite: the unit suite whole, or one per file of the others; a file named alone, that file. */
function suiteJobs(dir, perFile) {
  if (!existsSync(dir)) return [];
  if (dir.endsWith('.test.js'))
    return [{ key: dir, dir: dirname(dir), pattern: `(^|/)${escapeRe(basename(dir))}$`, size: statSync(dir).size }];
  const names = readdirSync(dir).filter((f) => f.endsWith('.test.js'));
  if (dir.endsWith('unit') || (jobs === 1 && !perFile)) {
    const size = names.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    return [{ key: dir, dir, pattern: '\\.test\\.js$', size }];
  }
  return names.map((f) => ({ key: join(dir, f), dir, pattern: `(^|/)${escapeRe(f)}$`, size: statSync(join(dir, f)).size }));
}

// Seconds a job took last time (in the fast set, where its `fullOnly` tests are skipped, the time of
// that set); a job never timed is guessed from its size (about 1 s a kilobyte here).
const timeKey = (key) => (fast ? `${key} (fast)` : key);
const estimate = (job) => durations[timeKey(job.key)] ?? durations[job.key] ?? job.size / 1000;

const tmp = testTmp();
// A run stopped with Ctrl-C (the test processes get it too) or SIGTERM leaves no folder in memory behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const pid of running) stopGroup(pid);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
const installing = sharedInstall();
let install;
const nodeLinks = mkdtempSync(join(tmp ?? tmpdir(), 'gl-test-nodes-'));
const seen = {};
try {
  const runs = [];
  for (const node of nodes) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
    if (version.status !== 0) {
      process.stdout.write(
        `\n== ${node}: not a Node binary here (${(version.error?.message ?? version.stderr ?? '').trim()}); counted as one failure\n`,
      );
      failed += 1;
      status = 1;
      perNode.push({ label: `${node}: could not start`, passed: 0, failed: 1 });
      continue;
    }
    const line = { label: `node ${version.stdout.trim()}`, node, passed: 0, failed: 0 };
    perNode.push(line);
    const bin = join(nodeLinks, String(perNode.length));
    mkdirSync(bin);
    symlinkSync(node, join(bin, 'node'));
    const env = {
      ...process.env,
      NO_COLOR: '1',
      PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
      ...(tmp && { TMPDIR: tmp }),
      GL_TEST_SET: fast ? 'fast' : 'all',
      // Set per job below, never inherited from a run around this one.
      GL_TEST_PART: undefined,
      // The worktree pools of the tests' repositories, removed with the rest at the end.
      GATE_LADDER_WORKTREES: join(nodeLinks, 'worktrees'),
    };
    // On a Node named in GATE_LADDER_TEST_NODES_SOME alone, only what differs between Nodes.
    const partial = some.includes(node) && !words(process.env.GATE_LADDER_TEST_NODES).includes(node) && node !== resolve(process.execPath);
    if (partial) line.label += ' (the Node-sensitive tests)';
    for (const dir of suites) {
      for (const job of suiteJobs(dir, partial))
        if ((!partial || Object.hasOwn(NODE_SENSITIVE, job.key)) && (!fast || dir.endsWith('unit') || Object.hasOwn(FAST, job.key))) {
          const keep = fast ? FAST[job.key] : undefined;
          const jobEnv = {
            ...env,
            ...(Array.isArray(keep) && { GL_TEST_KEEP: JSON.stringify(keep) }),
            ...(partial && NODE_SENSITIVE[job.key] === 'marked' && { GL_TEST_PART: 'node-sensitive' }),
          };
          runs.push({ ...job, node, env: jobEnv, line, unit: dir.endsWith('unit') });
        }
    }
  }
  // The unit suites first (they start while the install is made), then the slowest first.
  runs.sort((a, b) => Number(b.unit) - Number(a.unit) || estimate(b) - estimate(a));
  const worker = async () => {
    for (let job = runs.shift(); job !== undefined; job = runs.shift()) {
      if (!job.unit) {
        install = await installing;
        if (install) job.env.GL_TEST_INSTALLED = join(install, 'node_modules');
      }
      const t0 = Date.now();
      const r = await uvu(job.node, job.env, job.dir, job.pattern);
      const seconds = (Date.now() - t0) / 1000;
      // The slowest of the Nodes' times, for this project's suites (a test of this script runs it on
      // suites of its own): the order is for the next run on all of them.
      if (job.key.startsWith('build/')) seen[timeKey(job.key)] = Math.max(seen[timeKey(job.key)] ?? 0, seconds);
      const took = `${seconds.toFixed(1)} s${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(1)} s CPU`}`;
      if (r.cpu !== undefined) cpuTotal += r.cpu;
      const header = nodes.length > 1 ? `\n== ${job.line.label}: ${job.key} (${took})\n` : `\n== ${job.key} (${took})\n`;
      process.stdout.write(header + r.out.replace(/\n*$/, '\n'));
      tally(r.out, r.code, job.line);
    }
  };
  cpuSince(); // the version checks above are not a job's
  await Promise.all(Array.from({ length: Math.min(jobs, runs.length) }, worker));
} finally {
  install = await installing;
  if (install) rmSync(install, { recursive: true, force: true });
  rmSync(nodeLinks, { recursive: true, force: true });
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  try {
    mkdirSync(dirname(DURATIONS), { recursive: true });
    writeFileSync(DURATIONS, `${JSON.stringify({ ...durations, ...seen }, null, 1)}\n`);
  } catch {
    // only the next run's order is at stake
  }
}
if (nodes.length > 1)
  process.stdout.write(`\n${perNode.map((n) => (n.node ? `${n.label}: ${n.passed} passed, ${n.failed} failed` : n.label)).join('\n')}\n`);
// The test processes' CPU time (user + system, with what they waited for), beside the wall time: on a shared machine the
// wall time is the load's, the CPU time the suite's (over two idle cores, about half of it plus the longest file).
if (cpuTotal > 0)
  process.stdout.write(`\ntest processes: ${cpuTotal.toFixed(0)} s of CPU time in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(status || (failed > 0 ? 1 : 0));
