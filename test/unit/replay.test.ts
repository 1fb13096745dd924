import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { EMPTY_TREE } from '../../src/git/git.js';
import { isolateTier, netDevices, probeNetworkIsolation, unsharePrefixes } from '../../src/replay/isolate.js';
import { runPool } from '../../src/replay/pool.js';
import { LedgerError } from '../../src/ledger/ledger.js';
import { judgeMsg, replayMsg } from '../../src/replay/messages.js';
import { commitPatches, parseRevList, patchFileId, type ReplayPatch } from '../../src/replay/inputs.js';
import { configHash, isReplayRow, replayKey, stableStringify } from '../../src/replay/key.js';
import { APPLY_TIER, notAppliedRow, type PatchOutcome } from '../../src/replay/patch.js';
import { Progress, estimateLeft, formatSeconds, outcomeText, statusLine } from '../../src/replay/progress.js';
import { figureLines, median, replayFigures } from '../../src/replay/summary.js';
import type { GateResult } from '../../src/gates/result.js';
import type { LedgerRow } from '../../src/ledger/row.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const M = 'd'.repeat(40);

test('patchFileId: file name and 12 hex of the content hash; content decides, not location', () => {
  const id = patchFileId('fix.patch', 'diff --git a/x b/x\n');
  assert.match(id, /^fix\.patch@[0-9a-f]{12}$/);
  assert.is(patchFileId('fix.patch', Buffer.from('diff --git a/x b/x\n')), id);
  assert.is.not(patchFileId('fix.patch', 'diff --git a/y b/y\n'), id);
  assert.is.not(patchFileId('other.patch', 'diff --git a/x b/x\n'), id);
});

test('parseRevList reads the formatted lines and ignores commit headers', () => {
  const out = `commit ${A}\n\0${A}\0\0root commit\ncommit ${B}\n\0${B}\0${A}\0second: a subject\ncommit ${M}\n\0${M}\0${B} ${C}\0Merge branch 'side'\n`;
  assert.equal(parseRevList(out), [
    { sha: A, parents: [], subject: 'root commit' },
    { sha: B, parents: [A], subject: 'second: a subject' },
    { sha: M, parents: [B, C], subject: "Merge branch 'side'" },
  ]);
  assert.equal(parseRevList(''), []);
});

const commits = [
  { sha: A, parents: [], subject: 'root' },
  { sha: B, parents: [A], subject: 'two' },
  { sha: M, parents: [B, C], subject: 'merge' },
];

test('commitPatches: each commit against its parent, a root against the empty tree, merges left out', () => {
  const { patches, merges } = commitPatches(commits, false);
  assert.equal(
    patches.map((p) => [p.id, p.base]),
    [
      [A, EMPTY_TREE],
      [B, A],
    ],
  );
  assert.equal(merges, [M]);
  assert.is(patches[1]!.label, `${B.slice(0, 12)} two`);
});

test('commitPatches with firstParent: a merge is one patch against its first parent', () => {
  const { patches, merges } = commitPatches(commits, true);
  assert.equal(
    patches.map((p) => [p.id, p.base]),
    [
      [A, EMPTY_TREE],
      [B, A],
      [M, B],
    ],
  );
  assert.equal(merges, []);
});

const raw = {
  tiers: [
    { name: 't1', run: 'sh check.sh', timeout: 30, env: { A: '1', B: '2' }, skipWhenTestAdjacent: true },
    { name: 't2', run: ['sh', 'check.sh'], timeout: 60 },
  ],
};
const config = resolveConfig(raw);
const mode = { calibrate: false };

test('stableStringify sorts keys at every depth and drops undefined', () => {
  assert.is(stableStringify({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
});

const hashCases: [string, () => string, boolean][] = [
  ['same config again', () => configHash(resolveConfig(structuredClone(raw)), mode), true],
  [
    'a caught list written out, the same as the default',
    () => configHash(resolveConfig({ tiers: raw.tiers.map((t) => ({ ...t, caught: [1] })) }), mode),
    false,
  ],
  [
    'env keys in another order',
    () => configHash({ ...config, tiers: [{ ...config.tiers[0]!, env: { B: '2', A: '1' } }, config.tiers[1]!] }, mode),
    true,
  ],
  ['another ledger path', () => configHash({ ...config, ledger: 'elsewhere.jsonl' }, mode), true],
  ['a timeout changed', () => configHash({ ...config, tiers: [{ ...config.tiers[0]!, timeout: 31 }, config.tiers[1]!] }, mode), false],
  [
    'a command changed',
    () => configHash({ ...config, tiers: [config.tiers[0]!, { ...config.tiers[1]!, run: 'sh other.sh' }] }, mode),
    false,
  ],
  ['tiers reordered', () => configHash({ ...config, tiers: [config.tiers[1]!, config.tiers[0]!] }, mode), false],
  ['the scope changed', () => configHash({ ...config, scope: ['**/spec/**'] }, mode), false],
  ['--calibrate', () => configHash(config, { calibrate: true }), false],
  ['--isolate network', () => configHash(config, { calibrate: false, isolate: 'network' }), false],
];
for (const [title, hash, same] of hashCases) {
  test(`configHash: ${title} ${same ? 'keeps' : 'changes'} the hash`, () => {
    const base = configHash(config, mode);
    assert.match(base, /^[0-9a-f]{12}$/);
    if (same) assert.is(hash(), base);
    else assert.is.not(hash(), base);
  });
}

const row = (extra: Partial<LedgerRow>): LedgerRow => ({
  ts: '2026-01-01T00:00:00.000Z',
  run: 'r1',
  hook: 'replay',
  patch: A,
  base: B,
  tier: 't1',
  verdict: 'pass',
  seconds: 1,
  exit: 0,
  files: [],
  files_count: 0,
  routed: false,
  source: 'replay',
  config_hash: 'h1',
  ...extra,
});

test('replayKey and isReplayRow: same patch, base and config only', () => {
  assert.is(replayKey(A, B, 'h1'), replayKey(A, B, 'h1'));
  assert.is.not(replayKey(A, B, 'h1'), replayKey(A, C, 'h1'));
  assert.is.not(replayKey(A, B, 'h1'), replayKey(A, B, 'h2'));
  assert.ok(isReplayRow(row({}), 'h1'));
  assert.not.ok(isReplayRow(row({}), 'h2'));
  assert.not.ok(isReplayRow(row({ source: undefined, hook: 'pre-push' }), 'h1'), 'a pushed row never counts as replayed');
});

test('isolateTier: a command string keeps its shell; an argv is prefixed as is', () => {
  const prefix = ['unshare', '--net', '--'];
  assert.equal(isolateTier(config.tiers[0]!, prefix).run, ['unshare', '--net', '--', '/bin/sh', '-c', 'sh check.sh']);
  assert.equal(isolateTier(config.tiers[1]!, prefix).run, ['unshare', '--net', '--', 'sh', 'check.sh']);
  assert.is(isolateTier(config.tiers[0]!, prefix).timeout, 30, 'everything else is kept');
  assert.equal(config.tiers[0]!.run, 'sh check.sh', 'the tier itself is not changed');
});

test('unsharePrefixes: root tries a plain namespace first, others a user namespace', () => {
  assert.equal(unsharePrefixes(true), [
    ['unshare', '--net', '--'],
    ['unshare', '--net', '--map-root-user', '--'],
  ]);
  assert.equal(unsharePrefixes(false), [['unshare', '--net', '--map-root-user', '--']]);
});

test('netDevices reads interface names from /proc/net/dev', () => {
  const text = `Inter-|   Receive |  Transmit\n face |bytes packets|bytes\n    lo:       0       0\n  eth0: 123 4\n`;
  assert.equal(netDevices(text), ['lo', 'eth0']);
});

test('probeNetworkIsolation refuses a platform without network namespaces, saying why', () => {
  const probe = probeNetworkIsolation('darwin', 501);
  assert.is(probe.ok, false);
  if (!probe.ok) assert.match(probe.reason, 'needs Linux network namespaces');
});

test('runPool runs every item, never more than `jobs` at a time, and starts them in order', async () => {
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  await runPool([0, 1, 2, 3, 4, 5, 6], 3, async (n) => {
    started.push(n);
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5 + (n % 3) * 5));
    running--;
  });
  assert.equal(started, [0, 1, 2, 3, 4, 5, 6]);
  assert.is(peak, 3);
});

test('runPool: once stopped, no new item starts; running ones finish', async () => {
  let stop = false;
  const done: number[] = [];
  await runPool(
    [0, 1, 2, 3, 4],
    2,
    async (n) => {
      if (n === 1) stop = true;
      await new Promise((r) => setTimeout(r, n === 0 ? 20 : 5));
      done.push(n);
    },
    () => stop,
  );
  assert.equal(done.sort(), [0, 1]);
});

test('runPool: a failure stops new items and is thrown after the running ones settle', async () => {
  const done: number[] = [];
  let caught: unknown;
  try {
    await runPool([0, 1, 2, 3], 2, async (n) => {
      if (n === 0) throw new Error('boom');
      await new Promise((r) => setTimeout(r, 10));
      done.push(n);
    });
  } catch (err) {
    caught = err;
  }
  assert.is((caught as Error).message, 'boom');
  assert.equal(done, [1], 'item 1 was running and finished; 2 and 3 never started');
});

const durations: [number, string][] = [
  [0.04, '0.0 s'],
  [4.25, '4.3 s'],
  [12.4, '12 s'],
  [185, '3 m 05 s'],
  [3720, '1 h 02 m'],
];
for (const [s, text] of durations) test(`formatSeconds(${s}) is ${text}`, () => assert.is(formatSeconds(s), text));

test('statusLine: done/total, caught, errors, elapsed, estimate at the pace so far', () => {
  const t = { total: 10, done: 0, caught: 0, errors: 0, notApplied: 0 };
  assert.is(statusLine(t, 1), 'replay 0/10 · caught 0 · errors 0 · 1.0 s elapsed · estimating…');
  const later = { total: 10, done: 4, caught: 1, errors: 1, notApplied: 1 };
  assert.is(estimateLeft(later, 8), 12);
  assert.is(statusLine(later, 8), 'replay 4/10 · caught 1 · errors 1 · not applied 1 · 8.0 s elapsed · ~12 s left');
  assert.is(statusLine({ ...later, done: 10 }, 20), 'replay 10/10 · caught 1 · errors 1 · not applied 1 · 20 s elapsed · done');
});

const patch: ReplayPatch = { kind: 'file', id: 'x.patch@0123456789ab', base: B, label: 'x.patch', file: '/tmp/x.patch' };
const result = (tier: string, verdict: GateResult['verdict'], extra: Partial<GateResult> = {}): GateResult => ({
  tier,
  verdict,
  exitCode: verdict === 'pass' ? 0 : 1,
  signal: null,
  seconds: 0.5,
  timedOut: false,
  tail: '',
  ...extra,
});
const outcome = (o: Partial<PatchOutcome>): PatchOutcome => ({ patch, status: 'pass', rows: [], results: [], seconds: 1, ...o });

const texts: [string, PatchOutcome, string][] = [
  ['pass', outcome({ results: [result('t1', 'pass'), result('t2', 'pass')] }), 'pass (2 tiers, 1.0 s)'],
  [
    'routed pass',
    outcome({ results: [result('t2', 'pass')], rows: [row({ skipped: ['t1'] })] }),
    'pass (1 tier, 0.5 s; t0-scope skipped t1)',
  ],
  [
    'caught',
    outcome({ status: 'caught', results: [result('t1', 'caught')], stoppedBy: result('t1', 'caught') }),
    'caught by t1 (exit 1, 0.5 s)',
  ],
  [
    'error',
    outcome({ status: 'error', stoppedBy: result('t1', 'error', { exitCode: 4, reason: 'exit 4: usage error' }) }),
    'error at t1: exit 4: usage error (not a verdict on the patch)',
  ],
  [
    "error the patch caused (its row's error_cause): said so, as the row says",
    outcome({
      status: 'error',
      stoppedBy: result('t1', 'error', {
        reason: 'mocha could not load the tests: `SyntaxError`',
        cause: 'patch',
        causeFile: 'packages/b/index.js',
      }),
    }),
    'error at t1: mocha could not load the tests: `SyntaxError` (the patch broke the harness: packages/b/index.js)',
  ],
  ['not applied', outcome({ status: 'not-applied', reason: 'patch failed: a.txt:1' }), 'did not apply: patch failed: a.txt:1'],
  [
    'calibration',
    outcome({
      status: 'caught',
      results: [result('t1', 'caught'), result('t2', 'caught')],
      rows: [row({ calibration: true })],
      stoppedBy: result('t1', 'caught'),
    }),
    'calibration: t1 caught, t2 caught',
  ],
  ['no tier', outcome({}), 'no tier runs for this change'],
];
for (const [title, o, text] of texts) test(`outcomeText: ${title}`, () => assert.is(outcomeText(o), text));

test('Progress without a terminal: one plain line per patch, carrying the status; interrupted patches are not counted', () => {
  const lines: string[] = [];
  let now = 0;
  const p = new Progress(2, { write: (s) => lines.push(s), isTTY: false }, () => now);
  now = 2000;
  p.finished(outcome({ status: 'caught', stoppedBy: result('t1', 'caught') }));
  p.finished(outcome({ status: 'interrupted' }));
  p.stop();
  assert.equal(lines, [
    'gate-ladder: [1/2] x.patch: caught by t1 (exit 1, 0.5 s)  (replay 1/2 · caught 1 · errors 0 · 2.0 s elapsed · ~2.0 s left)\n',
    'gate-ladder: x.patch: interrupted; no rows kept, it runs again next time\n',
  ]);
  assert.not.match(lines.join(''), '\x1b', 'no terminal control codes');
});

test('Progress on a terminal redraws one status line below the patch lines', () => {
  const out: string[] = [];
  const p = new Progress(1, { write: (s) => out.push(s), isTTY: true }, () => 0);
  p.finished(outcome({ results: [result('t1', 'pass')] }));
  p.stop();
  const text = out.join('');
  assert.match(text, '\r\x1b[2Kgate-ladder: [1/1] x.patch: pass (1 tier, 0.5 s)\n');
  assert.ok(text.endsWith('\r\x1b[2Kreplay 1/1 · caught 0 · errors 0 · 0.0 s elapsed · done\n'));
});

test('notAppliedRow: one (apply) row flagged applied: false, stamped with the config hash', () => {
  const r = notAppliedRow(
    patch,
    'patch failed: a.txt:1',
    0.2,
    { configHash: 'h1', calibrate: false, isolate: 'network' },
    'run1',
    new Date(0),
  );
  assert.equal(
    {
      tier: r.tier,
      applied: r.applied,
      patch: r.patch,
      base: r.base,
      source: r.source,
      hook: r.hook,
      config_hash: r.config_hash,
      isolate: r.isolate,
      files_count: r.files_count,
    },
    {
      tier: APPLY_TIER,
      applied: false,
      patch: patch.id,
      base: B,
      source: 'replay',
      hook: 'replay',
      config_hash: 'h1',
      isolate: 'network',
      files_count: 0,
    },
  );
  assert.match(String(r.reason), `does not apply onto ${B.slice(0, 12)}: patch failed: a.txt:1`);
  assert.is(r.calibration, undefined);
});

test('median of an odd and an even count', () => {
  assert.is(median([3, 1, 2]), 2);
  assert.is(median([4, 1, 3, 2]), 2.5);
  assert.is(median([]), null);
});

test('replayFigures: per tier in ladder order; unapplied patches apart; a tier never reached has no median', () => {
  const rows = [
    row({ patch: 'p1', tier: 't1', verdict: 'caught', seconds: 1 }),
    row({ patch: 'p2', tier: 't1', verdict: 'pass', seconds: 3 }),
    row({ patch: 'p2', tier: 't2', verdict: 'error', seconds: 10 }),
    row({ patch: 'p3', tier: APPLY_TIER, verdict: 'error', applied: false, seconds: 0.1 }),
  ];
  const f = replayFigures(rows, ['t1', 't2', 't3']);
  assert.is(f.patches, 3);
  assert.equal(f.notApplied, ['p3']);
  assert.equal(f.tiers, [
    { tier: 't1', runs: 2, caught: 1, errors: 0, passes: 1, median_s: 2, total_s: 4 },
    { tier: 't2', runs: 1, caught: 0, errors: 1, passes: 0, median_s: 10, total_s: 10 },
    { tier: 't3', runs: 0, caught: 0, errors: 0, passes: 0, median_s: null, total_s: 0 },
  ]);
  const lines = figureLines(f, false);
  assert.is(lines[0], 'tier  runs  caught  errors  passes  median_s  total_s');
  assert.is(lines[3], 't3       0       0       0       0         -    0.000');
  assert.is(lines[4], 'did not apply (counted apart: not a catch, not an error): 1');
});

test('replay stopped by an unwritable ledger: its sentence quoted once, and no claim that finished patches are in the ledger', () => {
  const said = replayMsg.failed(new LedgerError('/proc/l.jsonl', 'permission denied'), true);
  assert.match(said, 'gate-ladder: replay stopped: cannot write the ledger /proc/l.jsonl: permission denied');
  assert.is(said.split('gate-ladder:').length, 2, said);
  assert.not.match(said, '..');
  assert.not.match(said, 'finished patches are in the ledger');
  assert.match(replayMsg.failed(new Error('boom\n\u001b[2J')), 'replay stopped: boom\\n\\x1b[2J. Every worktree');
});

test("judge's next step after a catch points at the failed tests only when it names some (a check's finding names none)", () => {
  const next = (named?: boolean) =>
    judgeMsg.next({ verdict: 'caught', applied: true, ...(named !== undefined && { named }), base: 'a'.repeat(40), configFile: 'c.ts' });
  assert.is(next(true), 'The patch is wrong: fix it (the failed tests say where), then judge it again.');
  assert.is(
    next(false),
    "The patch is wrong: fix it (the reason says what the tier found; `--json`'s `summary` has the end of its output), then judge it again.",
  );
});

test("judge's next step after a test binary the code under test ended (go's log.Fatal, Rust's abort): the code, likely the patch, not a broken harness", () => {
  const next = (file?: string) =>
    judgeMsg.next({
      verdict: 'error',
      applied: true,
      cause: 'patch',
      stopped: true,
      ...(file !== undefined && { file }),
      base: 'a'.repeat(40),
      configFile: 'c.ts',
    });
  assert.is(
    next('calc/calc.go'),
    'The code under test ended its test binary mid-run (it exited or aborted; the reason says where and how to find the test): likely the patch (calc/calc.go). Fix it, then judge it again.',
  );
  assert.not.match(next(), 'broke the harness');
});

test("judge's text answer gives a verdict's reason whole up to 1000 characters (its end is often the step to take), a longer one cut and measured", () => {
  const step = 'run `go test -v -run ^TestNeg$ example.com/m/calc` to see it';
  const reason = `${'the code under test ended the test binary of example.com/m/calc mid-run; '.repeat(5)}${step}`;
  assert.ok(reason.length > 200 && reason.length < 1000);
  const line = judgeMsg.verdict({ verdict: 'error', label: 'p.diff', tier: 't1', reason, seconds: 1, tiers: 1 });
  assert.ok(line.endsWith(step), line);
  const long = judgeMsg.verdict({ verdict: 'error', label: 'p.diff', tier: 't1', reason: 'x'.repeat(5000), seconds: 1, tiers: 1 });
  assert.ok(long.endsWith(`${'x'.repeat(10)}… (5000 characters)`), long.slice(-40));
});

test.run();
