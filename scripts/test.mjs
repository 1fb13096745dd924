// Runs the uvu suites (unit, integration, faults) and ends with one line: `N passed, N failed`.
//
// On this Node first, then again, whole, on each Node binary named in GATE_LADDER_TEST_NODES
// (space-separated paths; .ci/run sets it to Node 22, 24 and 26). Each run puts its Node's folder
// first on PATH, so the installed hook's `node ...` line and every script the tests start run on
// the Node under test too.
//
// The unit suite runs as one process. The integration and faults files run one process each,
// GL_TEST_JOBS at a time (default 3: they mostly wait on git and the processes they start), the
// slowest first; each file's output is printed whole when it ends. They share one packed and
// installed gate-ladder (GL_TEST_INSTALLED), made once here. Files that share state run alone: none
// do today (each makes its repositories in a temp folder of its own, and its process checks look for
// commands no other file starts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['build/test/unit', 'build/test/integration', 'build/test/faults'];
const extra = (process.env.GATE_LADDER_TEST_NODES ?? '').split(/\s+/).filter(Boolean);
const nodes = [process.execPath, ...extra];
const jobs = Math.max(1, Number.parseInt(process.env.GL_TEST_JOBS ?? '3', 10) || 3);
let passed = 0;
let failed = 0;
let skipped = 0;
let status = 0;
const perNode = [];

/** One packed and installed gate-ladder for every test process (test/helpers/repo.ts `packInstall`). */
function sharedInstall() {
  if (!suites.some((s) => !s.endsWith('unit'))) return undefined;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('./build/test/helpers/repo.js'); process.stdout.write(m.packInstall());"], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0 || !r.stdout) {
    process.stdout.write('gate-ladder tests: could not pack and install gate-ladder once; each test file packs its own.\n');
    return undefined;
  }
  return r.stdout.trim();
}

const count = (out) => {
  const num = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(out)?.[1] ?? 0);
  return { total: num('Total'), passed: num('Passed'), skipped: num('Skipped') };
};

function tally(out, code) {
  const c = count(out);
  passed += c.passed;
  skipped += c.skipped;
  failed += c.total - c.passed - c.skipped;
  if (code !== 0) {
    status = 1;
    if (c.total === 0) failed += 1; // the file or suite crashed before counting
  }
}

/** Runs `uvu dir pattern` on `node`; resolves with its output and exit code. */
function uvu(node, env, dir, pattern) {
  return new Promise((resolve) => {
    const child = spawn(node, ['node_modules/uvu/bin.js', dir, pattern, '--no-color'], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => resolve({ out: Buffer.concat(chunks).toString('utf8'), code: code ?? (signal ? 1 : 0) }));
  });
}

/** The files of a suite, the biggest (as a stand-in for the slowest) first. */
function files(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => b.size - a.size)
    .map((x) => x.f);
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function runFiles(node, env, dir) {
  const queue = files(dir);
  const worker = async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
      const r = await uvu(node, env, dir, `(^|/)${escapeRe(f)}$`);
      process.stdout.write(r.out.replace(/\n*$/, '\n'));
      tally(r.out, r.code);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
}

const install = sharedInstall();
try {
  for (const node of nodes) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
    if (version.status !== 0) {
      process.stdout.write(`\n== ${node}: not a Node binary here (${(version.error?.message ?? version.stderr ?? '').trim()}); counted as one failure\n`);
      failed += 1;
      status = 1;
      perNode.push(`${node}: could not start`);
      continue;
    }
    const label = `node ${version.stdout.trim()}`;
    if (nodes.length > 1) process.stdout.write(`\n== ${label} (${node})\n`);
    const env = {
      ...process.env,
      NO_COLOR: '1',
      PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
      ...(install && { GL_TEST_INSTALLED: join(install, 'node_modules') }),
    };
    const p0 = passed;
    const f0 = failed;
    for (const dir of suites) {
      if (!existsSync(dir)) continue;
      if (dir.endsWith('unit') || jobs === 1) {
        const r = await uvu(node, env, dir, '\\.test\\.js$');
        process.stdout.write(r.out);
        tally(r.out, r.code);
      } else await runFiles(node, env, dir);
    }
    perNode.push(`${label}: ${passed - p0} passed, ${failed - f0} failed`);
  }
} finally {
  if (install) rmSync(install, { recursive: true, force: true });
}
if (nodes.length > 1) process.stdout.write(`\n${perNode.join('\n')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(status || (failed > 0 ? 1 : 0));
