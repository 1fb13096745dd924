import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { type GateExit, type GateIo, runGate } from '../../src/ladder/gate.js';
import { startWithFd } from '../../src/util/spawn-fd.js';
import type { ResolvedTier } from '../../src/types.js';

const tier = (run: string | string[], timeout = 30): ResolvedTier => ({ ...resolveConfig({ tiers: [{ name: 'g', run, timeout }] }).tiers[0]! });

/** Runs the gate twice: through process_wrap (the hook's path) and through child_process; both must agree. */
async function both(run: string | string[], opts: { timeout?: number; io?: () => GateIo; env?: Record<string, string> } = {}): Promise<GateExit[]> {
  const exits: GateExit[] = [];
  for (const mode of ['direct', 'child_process']) {
    const dir = mkdtempSync(join(tmpdir(), 'gl-gate-'));
    try {
      if (mode === 'child_process') process.env.GATE_LADDER_NODE_INTERNALS = '0';
      else delete process.env.GATE_LADDER_NODE_INTERNALS;
      writeFileSync(join(dir, 'noexec'), '#!/bin/sh\n');
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env };
      exits.push(await runGate(tier(run, opts.timeout), dir, env, opts.io?.() ?? {}));
    } finally {
      delete process.env.GATE_LADDER_NODE_INTERNALS;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return exits;
}

/** Gone, or dead and waiting to be reaped (a zombie: its parent shell exited before it). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

const pick = (e: GateExit) => ({ exitCode: e.exitCode, signal: e.signal, timedOut: e.timedOut, interrupted: e.interrupted, spawnError: e.spawnError, notFound: e.notFound });

test('the direct start is usable on this Node (else the hook silently loses its fast path)', () => {
  const r = startWithFd({ file: 'true', args: [], cwd: tmpdir(), env: { PATH: process.env.PATH }, stdout: 2, stderr: 2, detached: true });
  assert.ok(r !== undefined && 'pid' in r && r.pid > 0);
  return r !== undefined && 'exited' in r ? r.exited.then((x) => assert.equal(x, { exitCode: 0, signal: null })) : undefined;
});

test('exit codes: 0, 1 and 3 arrive as they are, both ways', async () => {
  for (const code of [0, 1, 3]) {
    const [direct, fallback] = await both(`exit ${code}`);
    assert.equal(pick(direct!), { exitCode: code, signal: null, timedOut: false, interrupted: false, spawnError: undefined, notFound: undefined });
    assert.equal(pick(fallback!), pick(direct!));
  }
});

test('a gate killed by a signal reports the signal and no exit code', async () => {
  const [direct, fallback] = await both('kill -TERM $$');
  assert.is(direct!.signal, 'SIGTERM');
  assert.is(direct!.exitCode, null);
  assert.equal(pick(fallback!), pick(direct!));
});

test('cwd and env reach the gate', async () => {
  const [direct, fallback] = await both('[ "$GL_PROBE" = "ok 1" ] && [ -f noexec ]', { env: { GL_PROBE: 'ok 1' } });
  assert.is(direct!.exitCode, 0);
  assert.is(fallback!.exitCode, 0);
  const [bad] = await both('[ "$GL_PROBE" = "ok 1" ]', { env: { GL_PROBE: 'other' } });
  assert.is(bad!.exitCode, 1);
});

test('a command that cannot start: not found and not executable, the same message both ways', async () => {
  const [direct, fallback] = await both(['gl-no-such-command-anywhere', '--x']);
  assert.is(direct!.spawnError, 'command not found: gl-no-such-command-anywhere');
  assert.equal(pick(fallback!), pick(direct!));
  const [d2, f2] = await both(['./noexec']);
  assert.match(d2!.spawnError ?? '', /EACCES/);
  assert.equal(pick(f2!), pick(d2!));
});

test('exit 127 from the shell names the missing command', async () => {
  const [direct, fallback] = await both('gl-no-such-command-anywhere --flag 2>/dev/null');
  assert.is(direct!.exitCode, 127);
  assert.is(direct!.notFound, 'gl-no-such-command-anywhere');
  assert.equal(pick(fallback!), pick(direct!));
});

test('a timeout kills the gate and what it started in the background', async () => {
  const [direct, fallback] = await both('sleep 30 & echo $! > bg.pid; wait', { timeout: 0.3 });
  for (const e of [direct!, fallback!]) {
    assert.ok(e.timedOut);
    assert.is(e.signal, 'SIGTERM');
    assert.ok(e.seconds < 10);
  }
});

test('the background process of a finished gate does not outlive it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-gate-bg-'));
  try {
    for (const mode of ['0', '']) {
      process.env.GATE_LADDER_NODE_INTERNALS = mode;
      const e = await runGate(tier('sleep 30 >/dev/null 2>&1 & echo $! > bg.pid'), dir, { PATH: process.env.PATH }, {});
      assert.is(e.exitCode, 0);
      const pid = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(gone(pid), `mode ${mode || 'direct'}: pid ${pid} still running`);
    }
  } finally {
    delete process.env.GATE_LADDER_NODE_INTERNALS;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interrupt stops the gate and says so', async () => {
  const [direct, fallback] = await both('sleep 30', {
    io: () => ({ interrupt: new Promise<void>((r) => setTimeout(r, 200)) }),
  });
  for (const e of [direct!, fallback!]) {
    assert.ok(e.interrupted);
    assert.is(e.signal, 'SIGINT');
    assert.not.ok(e.timedOut);
  }
});

test('a gate whose output is piped (replay) keeps a tail and reaches the writer', async () => {
  const chunks: Buffer[] = [];
  const [a, b] = await both('echo out; echo err >&2; exit 1', { io: () => ({ write: (c) => chunks.push(c) }) });
  for (const e of [a!, b!]) {
    assert.is(e.exitCode, 1);
    assert.match(e.tail, 'out');
    assert.match(e.tail, 'err');
  }
  assert.match(Buffer.concat(chunks).toString(), /out[\s\S]*err[\s\S]*out[\s\S]*err/);
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
