import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { type GateExit, type GateIo, runGate } from '../../src/gates/gate.js';
import { keepFor } from '../../src/verdict/runner-output.js';
import { classify } from '../../src/verdict/verdict.js';
import { scriptKeep } from '../../src/verdict/script-output.js';
import type { ResolvedTier } from '../../src/config/resolved.js';
import { PROJECT, processesMatching } from '../helpers/repo.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const tier = (run: string | string[], timeout = 30): ResolvedTier => ({
  ...resolveConfig({ tiers: [{ name: 'g', run, timeout }] }).tiers[0]!,
});

/** Runs the gate in a fresh folder (holding a non-executable file `noexec`). */
async function gateIn(
  run: string | string[],
  opts: { timeout?: number; io?: () => GateIo; env?: Record<string, string> } = {},
): Promise<GateExit> {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-'));
  try {
    writeFileSync(join(dir, 'noexec'), '#!/bin/sh\n');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env };
    return await runGate(tier(run, opts.timeout), dir, env, opts.io?.() ?? {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Gone, or dead and waiting to be reaped (a zombie: its parent shell exited before it). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

const pick = (e: GateExit) => ({
  exitCode: e.exitCode,
  signal: e.signal,
  timedOut: e.timedOut,
  interrupted: e.interrupted,
  spawnError: e.spawnError,
  notFound: e.notFound,
});

/** Waits until `pid` is gone (or a zombie), polling /proc, for at most `ms`. */
async function waitGone(pid: number, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!gone(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

test('exit codes: 0, 1 and 3 arrive as they are', async () => {
  for (const code of [0, 1, 3]) {
    const e = await gateIn(`exit ${code}`);
    assert.equal(pick(e), {
      exitCode: code,
      signal: null,
      timedOut: false,
      interrupted: false,
      spawnError: undefined,
      notFound: undefined,
    });
  }
});

test('a gate killed by a signal reports the signal and no exit code', async () => {
  const e = await gateIn('kill -TERM $$');
  assert.is(e.signal, 'SIGTERM');
  assert.is(e.exitCode, null);
});

test('cwd and env reach the gate', async () => {
  assert.is((await gateIn('[ "$GL_PROBE" = "ok 1" ] && [ -f noexec ]', { env: { GL_PROBE: 'ok 1' } })).exitCode, 0);
  assert.is((await gateIn('[ "$GL_PROBE" = "ok 1" ]', { env: { GL_PROBE: 'other' } })).exitCode, 1);
});

test('a command that cannot start: not found and not executable', async () => {
  assert.is((await gateIn(['gl-no-such-command-anywhere', '--x'])).spawnError, 'command not found: gl-no-such-command-anywhere');
  assert.match((await gateIn(['./noexec'])).spawnError ?? '', /EACCES/);
});

test('exit 127 from the shell names the missing command', async () => {
  const e = await gateIn('gl-no-such-command-anywhere --flag 2>/dev/null');
  assert.is(e.exitCode, 127);
  assert.is(e.notFound, 'gl-no-such-command-anywhere');
});

test('a timeout kills the gate and what it started in the background', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-to-'));
  try {
    // 2 s, not less: the shell must have started the sleep and written its pid before the timeout ends it,
    // and starting two processes on a loaded machine can take a good part of 0.3 s.
    const e = await runGate(tier('sleep 30 & echo $! > bg.pid; wait', 2), dir, { PATH: process.env.PATH }, {});
    assert.ok(e.timedOut);
    assert.is(e.signal, 'SIGTERM');
    const pid = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
    assert.ok(await waitGone(pid), `pid ${pid} still running`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the background process of a finished gate does not outlive it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-bg-'));
  try {
    const e = await runGate(tier('sleep 30 >/dev/null 2>&1 & echo $! > bg.pid'), dir, { PATH: process.env.PATH }, {});
    assert.is(e.exitCode, 0);
    const pid = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
    assert.ok(await waitGone(pid), `pid ${pid} still running`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interrupt stops the gate and says so', async () => {
  // Ctrl-C once the gate's process is there, not after a fixed wait.
  const started = new Promise<void>((r) => {
    const poll = setInterval(() => {
      if (processesMatching(/^sleep 3021$/).length === 0) return;
      clearInterval(poll);
      r();
    }, 10);
  });
  const e = await gateIn('sleep 3021', { io: () => ({ interrupt: started }) });
  assert.ok(e.interrupted);
  assert.is(e.signal, 'SIGINT');
  assert.not.ok(e.timedOut);
});

test('a gate whose output is piped (replay) keeps a tail and reaches the writer', async () => {
  const chunks: Buffer[] = [];
  const e = await gateIn('echo out; echo err >&2; exit 1', { io: () => ({ write: (c) => chunks.push(c) }) });
  assert.is(e.exitCode, 1);
  assert.match(e.tail, 'out');
  assert.match(e.tail, 'err');
  assert.match(Buffer.concat(chunks).toString(), /out[\s\S]*err/);
});

test('a long output keeps, besides its tail, the lines the reading needs (a summary printed before 300 kB of failure details)', async () => {
  // mocha's spec reporter: counts, then each failure's details; the counts fall out of a 64 kB tail.
  const script = [
    "process.stdout.write('  ✔ one\\n  1069 passing (6s)\\n  4 pending\\n  187 failing\\n\\n');",
    "for (let i = 1; i <= 3000; i++) process.stdout.write(`  ${i}) a test\\n     Error: expected 404 got 405 ${'x'.repeat(80)}\\n`);",
    // One line longer than the tail, whose start is what counts (jest's --json).
    "process.stdout.write('{\"numTotalTests\":7,' + 'y'.repeat(200000) + '}\\n');",
    "process.stdout.write('the end\\n');",
  ].join('\n');
  const keep = (line: string) => /^\s*\d+ (?:passing|failing|pending)\b|"numTotalTests":/.test(line);
  const e = await gateIn([process.execPath, '-e', script], { io: () => ({ write: () => {}, keep }) });
  assert.is(e.exitCode, 0);
  const lines = e.tail.split('\n');
  assert.equal(lines.slice(0, 3), ['  1069 passing (6s)', '  4 pending', '  187 failing']);
  assert.ok(lines[3]!.startsWith('{"numTotalTests":7,yyy'), 'the start of the long line is kept');
  assert.ok(lines[3]!.length <= 4096, 'a kept line is cut');
  assert.ok(e.tail.endsWith('the end\n'));
  assert.not.match(e.tail, '✔ one', 'only the lines asked for are kept');
  // Without `keep`: only the tail.
  const plain = await gateIn([process.execPath, '-e', script], { io: () => ({ write: () => {} }) });
  assert.not.match(plain.tail, 'passing');
  assert.ok(plain.tail.length <= 64 * 1024);
});

test('a real jest run: "Test suite failed to run", then 80 kB of passing tests, still quotes the reason below it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-jest-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{"name":"j","private":true}\n');
    // The larger file runs first (jest orders new files by size): the failing suite, then the passing tests' verbose lines.
    writeFileSync(
      join(dir, 'a.test.js'),
      `const x = require('./nope');\ntest('adds', () => {});\n${Array.from({ length: 15000 }, (_, i) => `// pad ${i}`).join('\n')}\n`,
    );
    writeFileSync(
      join(dir, 'b.test.js'),
      Array.from(
        { length: 1000 },
        (_, i) => `test('case number ${i} with a rather long name to fill the verbose output of jest', () => {});\n`,
      ).join(''),
    );
    const jest = join(PROJECT, 'node_modules', 'jest', 'bin', 'jest.js');
    const run = [process.execPath, jest, '--rootDir', dir, '--no-cache', '--ci', '-i', '--verbose'];
    let bytes = 0;
    const e = await runGate(
      tier(run, 120),
      dir,
      { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      { write: (chunk) => (bytes += chunk.length), keep: keepFor('jest')! },
    );
    assert.is(e.exitCode, 1, e.tail.slice(-2000));
    assert.ok(bytes > 64 * 1024 + 8 * 1024, `the output (${bytes} bytes) is longer than the tail`);
    assert.not.match(e.tail, '> 1 | const x', "the suite's own lines fell out of the tail");
    const c = classify(e, [1], 120, { runner: 'jest', output: { detection: { runner: 'jest', words: [], managers: [] } } });
    assert.is(c.verdict, 'error');
    assert.is(c.reason, "a test file could not run (a.test.js): `Cannot find module './nope' from 'a.test.js'`");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("jest's summary (on stderr) is kept when more than the tail of the tests' own stdout is read after it", async () => {
  // jest writes its summary to stderr; a test's stdout still in its pipe can be read after it (seen in a workspaces push).
  const script = [
    "process.stderr.write('Tests:       1 passed, 1 total\\n');",
    "for (let i = 0; i < 1500; i++) process.stdout.write(`${'x'.repeat(99)}\\n`);",
  ].join('\n');
  const e = await gateIn([process.execPath, '-e', script], { io: () => ({ write: () => {}, keep: keepFor('jest')! }) });
  assert.ok(e.tail.startsWith('Tests:       1 passed, 1 total\n'), e.tail.slice(0, 200));
});

test("keepLater: loaded on a gate's first output, and what came while it loaded is read; a gate that prints nothing loads none", async () => {
  // A script that names no runner calls mocha, whose `2 failing` comes before more than the tail of details.
  let loads = 0;
  const keepLater = async () => {
    loads++;
    // The output goes on while the keep loads: those chunks wait for it.
    await new Promise((r) => setTimeout(r, 100));
    return scriptKeep();
  };
  const script = [
    "process.stdout.write('  1 passing (4ms)\\n  2 failing\\n\\n');",
    "for (let i = 0; i < 1500; i++) process.stdout.write(`  at detail ${i} ${'x'.repeat(80)}\\n`);",
    'process.exitCode = 2;',
  ].join('\n');
  const e = await gateIn([process.execPath, '-e', script], { io: () => ({ write: () => {}, keepLater }) });
  assert.is(loads, 1);
  assert.ok(e.tail.length < 100 * 1024 && !e.tail.includes('detail 0 '), 'the first details fell out of the tail');
  assert.ok(e.tail.includes('  2 failing\n'), e.tail.slice(0, 200));
  const c = classify(e, [1], 30, { output: { detection: { words: [], managers: [] } } });
  assert.equal([c.verdict, c.reason], ['caught', 'mocha: `2 failing`']);
  const silent = await gateIn(['true'], { io: () => ({ write: () => {}, keepLater }) });
  assert.is(silent.exitCode, 0);
  assert.is(loads, 1, 'a gate that printed nothing loaded no keep');
});

test('a file made executable after a refusal then runs (nothing cached between starts)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-x-'));
  try {
    const file = join(dir, 'late.sh');
    writeFileSync(file, '#!/bin/sh\nexit 4\n');
    assert.match((await runGate(tier([file]), dir, { PATH: process.env.PATH }, {})).spawnError ?? '', /EACCES/);
    chmodSync(file, 0o755);
    assert.is((await runGate(tier([file]), dir, { PATH: process.env.PATH }, {})).exitCode, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
