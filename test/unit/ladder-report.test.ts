import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import type { GateExit } from '../../src/gates/gate.js';
import type { ReportRead } from '../../src/evidence/junit.js';
import { type LadderInput, runLadder } from '../../src/run/ladder.js';
import type { ReportDeps } from '../../src/verdict/tier-report.js';
import type { HookName } from '../../src/types.js';
import type { Freeze } from '../../src/evidence/freeze.js';
import type { LedgerRow } from '../../src/ledger/row.js';
import type { Plan } from '../../src/route/route.js';
import type { TestRecord } from '../../src/evidence/history.js';

const config = resolveConfig({
  tiers: [
    { name: 't1', run: 'x', runner: 'node', junit: 'out/junit.xml' },
    { name: 't2', run: 'y', runner: 'jest' },
    { name: 't3', run: 'z', runner: 'pytest', junit: 'report.xml', cwd: 'py' },
  ],
});
const plan: Plan = { files: ['src/a.ts'], fileCount: 1, hits: [], tiers: config.tiers.map((tier) => ({ tier, run: true })) };
// t2 has no report: its jest output is read, and jest always prints its summary (exit 0 without one is no pass).
const JEST_PASSED = 'Tests:       1 passed, 1 total\n';
const exit = (code: number, tail = ''): GateExit => ({
  exitCode: code,
  signal: null,
  timedOut: false,
  interrupted: false,
  seconds: 0.5,
  tail,
});
const freeze = (test: string, expires: string): Freeze => ({
  test,
  flip_rate: 0.2,
  runs: 20,
  flips: 4,
  evidence: 1,
  by: 'T',
  at: '2025-01-01T00:00:00Z',
  expires,
  reentry: 'fixed',
});

interface World {
  /** A tier's exit code, or one per attempt (a retry takes the next). */
  exits: Record<string, number | number[]>;
  /** What a gate printed (its output is read: the fakes pass `write`). */
  tails?: Record<string, string>;
  /** A report, or one per read. */
  reports: Record<string, ReportRead | ReportRead[]>;
  freezes?: Freeze[];
  today?: string;
}

/** Fake gates and reports; `events` shows the order of what happened. */
function fakes(world: World) {
  const events: string[] = [];
  const rows: LedgerRow[] = [];
  const records: TestRecord[] = [];
  const logs: string[] = [];
  const reports: ReportDeps = {
    prepare: (path) => {
      events.push(`prepare ${path}`);
      return 1000;
    },
    read: async (path, since, ctx) => {
      events.push(`read ${path} since ${since} base ${ctx.base} runner ${ctx.runner}`);
      const r = world.reports[path];
      return (Array.isArray(r) ? r.shift() : r) ?? { kind: 'missing' };
    },
    record: (rec) => void records.push(rec),
    freezes: (cwd) => {
      events.push(`freezes ${cwd}`);
      return { freezes: world.freezes ?? [] };
    },
    today: () => world.today ?? '2025-01-15',
  };
  const deps = {
    runGate: async (tier: { name: string }) => {
      events.push(`gate ${tier.name}`);
      const e = world.exits[tier.name];
      return exit((Array.isArray(e) ? e.shift() : e) ?? 0, world.tails?.[tier.name] ?? (tier.name === 't2' ? JEST_PASSED : ''));
    },
    appendRows: (r: LedgerRow[]) => rows.push(...r),
    now: () => new Date('2025-01-15T10:00:00Z'),
    log: (line: string) => logs.push(line),
    write: () => {},
    env: {},
    reports,
  };
  return { deps, events, rows, records, logs };
}

const input = (hook: HookName = 'pre-push', extra: Partial<LadderInput> = {}): LadderInput => ({
  plan,
  runId: 'run1',
  hook,
  patch: 'abc',
  base: 'def',
  cwd: '/repo',
  isolation: 'none',
  ...extra,
});
const cases = (...c: [string, 'pass' | 'fail' | 'skip'][]): ReportRead => ({
  kind: 'ok',
  cases: c.map(([id, outcome]) => ({ id, outcome })),
});

test('the report is cleared before the gate and read after it; outcomes are recorded with the run id', async () => {
  const f = fakes({
    exits: {},
    reports: { '/repo/out/junit.xml': cases(['a', 'pass'], ['b', 'skip']), '/repo/py/report.xml': cases(['p', 'pass']) },
  });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'pass');
  assert.equal(f.events, [
    'prepare /repo/out/junit.xml',
    'gate t1',
    'read /repo/out/junit.xml since 1000 base . runner node',
    'gate t2',
    'prepare /repo/py/report.xml',
    'gate t3',
    'read /repo/py/report.xml since 1000 base py runner pytest',
  ]);
  assert.equal(
    f.records.map((r) => [r.run, r.tier, r.pass, r.skip]),
    [
      ['run1', 't1', ['a'], ['b']],
      ['run1', 't3', ['p'], []],
    ],
  );
  assert.is(f.rows[0]!.tests, undefined, 'outcomes live in tests.jsonl, not in the ledger row');
});

test('a failed case is caught; the row lists it; no freezes file when nothing is frozen', async () => {
  const f = fakes({ exits: { t1: 1 }, reports: { '/repo/out/junit.xml': cases(['a', 'pass'], ['b', 'fail']) } });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'caught');
  assert.equal(
    f.rows.map((r) => [r.tier, r.verdict, r.failed]),
    [['t1', 'caught', ['b']]],
  );
  assert.ok(f.logs.some((l) => l.includes('t1: 1 test failed: b')));
  assert.equal(f.records[0]!.fail, ['b']);
});

test('exit 1 with no report is an error, and nothing is recorded', async () => {
  const f = fakes({ exits: { t1: 1 }, reports: {} });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'error');
  assert.match(f.rows[0]!.reason ?? '', 'exit 1 and no JUnit report at out/junit.xml');
  assert.equal(f.records, []);
});

test('a tier whose only failures are frozen passes; the row and the output list them', async () => {
  const f = fakes({ exits: { t1: 1 }, reports: { '/repo/out/junit.xml': cases(['a', 'fail']) }, freezes: [freeze('a', '2025-02-01')] });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'pass');
  assert.equal(
    f.rows.map((r) => [r.tier, r.verdict]),
    [
      ['t1', 'pass'],
      ['t2', 'pass'],
      ['t3', 'pass'],
    ],
  );
  assert.equal(f.rows[0]!.frozen, ['a']);
  assert.match(f.rows[0]!.reason ?? '', 'only frozen tests failed: a');
  assert.ok(f.logs.some((l) => l.includes('only frozen tests failed, so the tier passes: a')));
  assert.equal(f.records[0]!.fail, ['a'], 'a forgiven failure is still history');
});

test('an expired freeze no longer counts: caught, naming the test and how to renew or remove it', async () => {
  const f = fakes({ exits: { t1: 1 }, reports: { '/repo/out/junit.xml': cases(['a', 'fail']) }, freezes: [freeze('a', '2025-01-15')] });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'caught');
  const note = f.logs.find((l) => l.includes('expired'))!;
  assert.match(note, 't1: a failed and its freeze expired: frozen through 2025-01-14 UTC, it counts again from 2025-01-15 UTC');
  assert.match(note, 'gate-ladder freeze "a" --expires');
  assert.match(note, 'gate-ladder unfreeze "a"');
});

test('a frozen failure next to an unfrozen one is still caught', async () => {
  const f = fakes({
    exits: { t1: 1 },
    reports: { '/repo/out/junit.xml': cases(['a', 'fail'], ['b', 'fail']) },
    freezes: [freeze('a', '2025-02-01')],
  });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'caught');
  assert.equal(f.rows[0]!.frozen, ['a']);
  assert.equal(f.rows[0]!.failed, ['a', 'b']);
});

test('seeded runs: every tier runs, rows carry source seed, freezes never forgive', async () => {
  const f = fakes({
    exits: { t1: 1, t2: 1, t3: 1 },
    tails: { t2: 'Tests:       1 failed, 1 total\n' },
    reports: { '/repo/out/junit.xml': cases(['a', 'fail']), '/repo/py/report.xml': cases(['p', 'fail']) },
    freezes: [freeze('a', '2025-02-01')],
  });
  const out = await runLadder(input('seed', { runAll: true, source: 'seed' }), f.deps);
  assert.equal(
    f.rows.map((r) => [r.tier, r.verdict, r.hook, r.source, r.calibration]),
    [
      ['t1', 'caught', 'seed', 'seed', undefined],
      ['t2', 'caught', 'seed', 'seed', undefined],
      ['t3', 'caught', 'seed', 'seed', undefined],
    ],
  );
  assert.is(out.results.length, 3);
  assert.not.ok(f.events.some((e) => e.startsWith('freezes')));
  assert.equal(
    f.records.map((r) => [r.source, r.fail]),
    [
      ['seed', ['a']],
      ['seed', ['p']],
    ],
  );
});

test('a catch from an ambiguous runner whose output is not read says the exit code cannot tell', async () => {
  const f = fakes({ exits: { t2: 1 }, reports: { '/repo/out/junit.xml': cases(['a', 'pass']) } });
  const { write: _unread, ...deps } = f.deps;
  await runLadder(input(), deps);
  assert.ok(f.logs.some((l) => l.includes('t2: note: jest exits 1 for failed tests and for config errors')));
});

test('with its output read, jest exit 1 is caught only when its summary counts a failed test', async () => {
  const f = fakes({
    exits: { t2: 1 },
    tails: { t2: 'FAIL a.test.js\nTests:       1 failed, 2 passed, 3 total\n' },
    reports: { '/repo/out/junit.xml': cases(['a', 'pass']) },
  });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'caught');
  assert.is(f.rows[1]!.reason, 'jest: `Tests:       1 failed, 2 passed, 3 total`');
  assert.not.ok(
    f.logs.some((l) => l.includes('note:')),
    'a proven catch needs no note',
  );
  const g = fakes({
    exits: { t2: 1 },
    tails: { t2: 'Error: Could not find a config file based on provided values\n' },
    reports: { '/repo/out/junit.xml': cases(['a', 'pass']) },
  });
  const bad = await runLadder(input(), g.deps);
  assert.is(bad.verdict, 'error');
  assert.match(String(g.rows[1]!.reason), 'a jest config error: `Error: Could not find a config file');
});

const retrying = resolveConfig({
  tiers: [
    { name: 't1', run: 'x', runner: 'node', junit: 'junit.xml', retries: 1 },
    { name: 't2', run: 'y' },
  ],
});
const retryPlan: Plan = { ...plan, tiers: retrying.tiers.map((tier) => ({ tier, run: true })) };

test('retries: 1: a gate whose tests failed runs once more on the same code; a pass then is a pass, both attempts are history', async () => {
  const f = fakes({
    exits: { t1: [1, 0] },
    reports: { '/repo/junit.xml': [cases(['a', 'fail'], ['b', 'pass']), cases(['a', 'pass'], ['b', 'pass'])] },
  });
  const out = await runLadder(input('pre-push', { plan: retryPlan }), f.deps);
  assert.is(out.verdict, 'pass');
  assert.equal(
    f.events.filter((e) => e.startsWith('gate')),
    ['gate t1', 'gate t1', 'gate t2'],
  );
  const row = f.rows[0]!;
  assert.equal([row.tier, row.verdict, row.exit, row.retried?.verdict, row.retried?.failed], ['t1', 'pass', 0, 'caught', ['a']]);
  assert.ok(
    row.seconds >= 1 && row.retried!.seconds >= 0.5 && row.retried!.seconds < row.seconds,
    'both attempts (0.5 s each, and reading their reports) are what the tier cost',
  );
  assert.match(row.reason ?? '', 'passed on retry: a failed, then passed on the same code');
  assert.equal(
    f.records.map((r) => [r.attempt, r.fail, r.pass]),
    [
      [undefined, ['a'], ['b']],
      [2, [], ['a', 'b']],
    ],
  );
  assert.ok(
    f.records.every((r) => typeof r.cmd === 'string' && r.cmd === f.records[0]!.cmd),
    'each record names the command',
  );
  assert.ok(f.logs.some((l) => l.includes('tests failed; running it once more on the same code (retries: 1)')));
});

test("retries: 1: failing again is caught with the retry's failures; a retry that gives no verdict leaves the catch standing", async () => {
  const again = fakes({
    exits: { t1: [1, 1] },
    reports: { '/repo/junit.xml': [cases(['a', 'fail']), cases(['a', 'fail'], ['b', 'fail'])] },
  });
  const out = await runLadder(input('pre-push', { plan: retryPlan }), again.deps);
  assert.is(out.verdict, 'caught');
  assert.equal(
    again.rows.map((r) => [r.tier, r.verdict, r.failed]),
    [['t1', 'caught', ['a', 'b']]],
  );
  const broken = fakes({ exits: { t1: [1, 1] }, reports: { '/repo/junit.xml': [cases(['a', 'fail'])] } });
  const out2 = await runLadder(input('pre-push', { plan: retryPlan }), broken.deps);
  assert.is(out2.verdict, 'caught');
  assert.equal(broken.rows[0]!.failed, ['a']);
  assert.ok(broken.logs.some((l) => l.includes('the retry gave no verdict (exit 1 and no JUnit report at junit.xml')));
});

test('retries: seeded runs and passing gates are never retried', async () => {
  const seeded = fakes({ exits: { t1: [1, 0] }, reports: { '/repo/junit.xml': [cases(['a', 'fail']), cases(['a', 'pass'])] } });
  await runLadder(input('seed', { plan: retryPlan, runAll: true, source: 'seed' }), seeded.deps);
  assert.equal(
    seeded.events.filter((e) => e === 'gate t1'),
    ['gate t1'],
  );
  const passing = fakes({ exits: {}, reports: { '/repo/junit.xml': cases(['a', 'pass']) } });
  await runLadder(input('pre-push', { plan: retryPlan }), passing.deps);
  assert.equal(
    passing.events.filter((e) => e === 'gate t1'),
    ['gate t1'],
  );
});

test('an id several test cases share is not forgiven by its freeze', async () => {
  const f = fakes({
    exits: { t1: 1 },
    reports: { '/repo/out/junit.xml': { kind: 'ok', cases: [{ id: 'a', outcome: 'fail' }], dup: ['a'] } },
    freezes: [freeze('a', '2025-02-01')],
  });
  const out = await runLadder(input(), f.deps);
  assert.is(out.verdict, 'caught');
  assert.ok(f.logs.some((l) => l.includes('t1: a is frozen, but in this report that id names more than one test')));
  assert.equal(f.records[0]!.dup, ['a']);
});

test('without report deps, junit paths are ignored and the output decides', async () => {
  const f = fakes({ exits: { t1: 1 }, tails: { t1: '# tests 1\n# pass 0\n# fail 1\n' }, reports: {} });
  const { reports: _unused, ...plain } = f.deps;
  const out = await runLadder(input(), plain);
  assert.is(out.verdict, 'caught');
  assert.equal(f.events, ['gate t1']);
});

test("every gate's output is read and shown through us, keeping its colours on a terminal (FORCE_COLOR=1), unless the tier or replay says otherwise", async () => {
  const one = resolveConfig({
    tiers: [
      { name: 'v', run: 'npx vitest run' },
      { name: 'plain', run: 'make test' },
      { name: 'nc', run: 'npx jest', env: { FORCE_COLOR: '0' } },
    ],
  });
  const p: Plan = { files: ['a'], fileCount: 1, hits: [], tiers: one.tiers.map((tier) => ({ tier, run: true })) };
  const seen: Record<string, { env: NodeJS.ProcessEnv; piped: boolean }> = {};
  const gate = async (tier: { name: string }, _cwd: string, env: NodeJS.ProcessEnv, io: { write?: unknown }) => {
    seen[tier.name] = { env, piped: io.write !== undefined };
    return exit(0, tier.name === 'plain' ? '' : 'Tests  1 passed (1)\nTests:       1 passed, 1 total\n');
  };
  const base = { runGate: gate, appendRows: () => {}, now: () => new Date(), log: () => {}, env: {} };
  await runLadder({ ...input(), plan: p }, { ...base, echo: () => {}, colour: () => true });
  assert.equal([seen.v!.piped, seen.v!.env.FORCE_COLOR], [true, '1']);
  assert.equal([seen.plain!.piped, seen.plain!.env.FORCE_COLOR], [true, '1'], 'no runner: shown through us too (escaped), coloured');
  await runLadder({ ...input(), plan: p }, { ...base });
  assert.is(seen.plain!.piped, false, 'nothing to show it through: straight to stderr');
  assert.is(seen.nc!.env.FORCE_COLOR, '0', "the tier's own env wins");
  await runLadder({ ...input(), plan: p }, { ...base, echo: () => {}, colour: () => false });
  assert.is(seen.v!.env.FORCE_COLOR, undefined, 'not a terminal, or NO_COLOR/FORCE_COLOR set by the user');
  await runLadder({ ...input(), plan: p }, { ...base, write: () => {}, colour: () => true });
  assert.is(seen.v!.env.FORCE_COLOR, undefined, 'output that is not shown (replay) is not coloured');
});

test("output: 'summary': a tier's output goes to its log only (both attempts of a retry), uncoloured; the result names the log and counts its lines; an interrupted tier says where its output is", async () => {
  const one = resolveConfig({
    tiers: [
      { name: 'u', run: 'npx jest', retries: 1 },
      { name: 'w', run: 'sh w.sh' },
    ],
  });
  const p: Plan = { files: ['a'], fileCount: 1, hits: [], tiers: one.tiers.map((tier) => ({ tier, run: true })) };
  const written: Record<string, string> = {};
  const opened: string[] = [];
  const openLog = (tier: { name: string }) => {
    opened.push(tier.name);
    written[tier.name] = '';
    return {
      path: `/git/gate-ladder/logs/${tier.name}.log`,
      write: (chunk: Buffer) => void (written[tier.name] += chunk.toString()),
      lines: () => written[tier.name]!.split('\n').length - 1,
      cut: () => undefined,
      close: () => {},
    };
  };
  const echoed: string[] = [];
  const logs: string[] = [];
  let env: NodeJS.ProcessEnv = {};
  const gate = async (tier: { name: string }, _cwd: string, e: NodeJS.ProcessEnv, io: { write?: (c: Buffer) => void }) => {
    env = e;
    const out = 'FAIL a.test.js\nTests:       1 failed, 1 total\n';
    io.write?.(Buffer.from(out));
    return tier.name === 'w' ? { ...exit(130, ''), interrupted: true } : exit(1, out);
  };
  const deps = {
    runGate: gate,
    appendRows: () => {},
    now: () => new Date(),
    log: (l: string) => logs.push(l),
    env: {},
    echo: (c: Buffer) => void echoed.push(c.toString()),
    colour: () => true,
    openLog,
  };
  const out = await runLadder({ ...input(), plan: p }, deps);
  assert.is(out.verdict, 'caught');
  assert.equal(opened, ['u'], 'one log per tier, the retry in it too');
  assert.is(written.u, 'FAIL a.test.js\nTests:       1 failed, 1 total\n'.repeat(2));
  assert.equal(echoed, [], 'nothing shown as it comes');
  assert.is(env.FORCE_COLOR, undefined, 'no colours asked for');
  assert.is(out.results[0]!.log, '/git/gate-ladder/logs/u.log');
  assert.is(out.results[0]!.outputLines, 4);
  const two = resolveConfig({ tiers: [{ name: 'w', run: 'sh w.sh' }] });
  await runLadder({ ...input(), plan: { ...p, tiers: two.tiers.map((tier) => ({ tier, run: true })) } }, deps);
  assert.ok(logs.includes('gate-ladder: the output of w until it was stopped: /git/gate-ladder/logs/w.log'), logs.join('\n'));
});

test("a gate's last line without a newline is ended before our next line, shown or held", async () => {
  const one = resolveConfig({ tiers: [{ name: 'a', run: 'tsd' }] });
  const p: Plan = { files: ['a'], fileCount: 1, hits: [], tiers: one.tiers.map((tier) => ({ tier, run: true })) };
  const gate = async (_t: unknown, _cwd: string, _env: NodeJS.ProcessEnv, io: { write?: (c: Buffer) => void }) => {
    io.write?.(Buffer.from('line one\n  ✖  1:2  no newline'));
    return exit(1);
  };
  const base = { runGate: gate, appendRows: () => {}, now: () => new Date(), log: () => {}, env: {} };
  let shown = '';
  await runLadder({ ...input(), plan: p }, { ...base, echo: (c) => (shown += c.toString()) });
  assert.is(shown, 'line one\n  ✖  1:2  no newline\n');
  const held = resolveConfig({ output: 'failures', tiers: [{ name: 'a', run: 'tsd' }] });
  shown = '';
  await runLadder(
    { ...input(), plan: { ...p, tiers: held.tiers.map((tier) => ({ tier, run: true })) } },
    { ...base, echo: (c) => (shown += c.toString()) },
  );
  assert.is(shown, 'line one\n  ✖  1:2  no newline\n');
});

test('retries: 1 with no test report: the pass on retry says no test was recorded for `flaky`, and how to have them', async () => {
  const config = resolveConfig({ tiers: [{ name: 't1', run: 'x', retries: 1 }] });
  const f = fakes({ exits: { t1: [1, 0] }, reports: {} });
  const out = await runLadder(input('pre-push', { plan: { ...plan, tiers: config.tiers.map((tier) => ({ tier, run: true })) } }), f.deps);
  assert.is(out.verdict, 'pass');
  const reason = f.rows[0]!.reason ?? '';
  assert.match(reason, 'passed on retry: failed, then passed on the same code');
  assert.match(reason, "no test's flips are recorded for `gate-ladder flaky`: give the tier a JUnit `report`");
  assert.not.match(reason, 'recorded, see');
});

test.run();
