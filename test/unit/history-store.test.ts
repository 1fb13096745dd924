import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  COMPACT_AT_BYTES,
  compactHistory,
  foldRecordsFile,
  historyPath,
  readHistory,
  readTeamHistory,
  recordTests,
} from '../../src/evidence/history-store.js';
import { testLogFiles } from '../../src/ledger/ledger.js';
import { emptyHistory, serializeHistory, type TestRecord } from '../../src/evidence/history.js';
import { resolveTestId } from '../../src/evidence/resolve-id.js';
import { today } from '../../src/util/iso-time.js';

const rec = (i: number, tree: string, pass: string[], fail: string[]): TestRecord => ({
  ts: `2025-01-01T00:00:${String(i).padStart(2, '0')}Z`,
  run: `r${i}`,
  tier: 't1',
  hook: 'pre-push',
  patch: tree,
  tree,
  cmd: 'c',
  pass,
  fail,
  skip: [],
});

function withDir(fn: (tests: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'gl-history-'));
  try {
    fn(join(dir, 'tests.jsonl'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('compaction folds the log into the compact file and starts a new log; reading before and after gives the same history', () =>
  withDir((tests) => {
    const recs = [rec(1, 'A', ['a'], ['b']), rec(2, 'A', ['a', 'b'], []), rec(3, 'B', [], ['a', 'b'])];
    for (const r of recs.slice(0, 2)) recordTests(tests, r);
    const before = serializeHistory(readHistory(tests).state);
    compactHistory(tests);
    assert.is(statSync(tests).size, 0, 'a new, empty log');
    assert.is(serializeHistory(readHistory(tests).state), before);
    recordTests(tests, recs[2]!);
    const h = readHistory(tests).state;
    const b = h.tiers.get('t1')!.tests.get('b')!;
    assert.equal([b.runs, b.fails, b.sameCodeRuns, b.flips], [3, 2, 1, 1]);
    assert.is(h.records, 3);
  }));

test('compaction keeps the folded log (tests-archive/): every record this clone wrote is still there, once, for `sync`', () =>
  withDir((tests) => {
    for (let i = 1; i <= 3; i++) recordTests(tests, rec(i, 'A', ['a'], []));
    compactHistory(tests);
    recordTests(tests, rec(4, 'B', ['a'], []));
    compactHistory(tests);
    recordTests(tests, rec(5, 'C', ['a'], []));
    const files = testLogFiles(tests);
    assert.is(files.length, 3, 'two archived logs, then the live one');
    assert.is(files[2], tests);
    const runs = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as TestRecord).run),
    );
    assert.equal(runs, ['r1', 'r2', 'r3', 'r4', 'r5']);
    assert.is(readHistory(tests).state.records, 5, 'reading the history does not count the archive again');
  }));

test("another file of records (the team's) folds into a history, counting its records and origins; a missing one adds nothing", () =>
  withDir((tests) => {
    const team = join(tests, '..', 'team.jsonl');
    const lines = [
      { ...rec(1, 'A', ['a'], []), origin: 'x' },
      { ...rec(2, 'A', [], ['a']), origin: 'y' },
      { ...rec(3, 'A', ['a'], []), origin: 'x' },
    ];
    writeFileSync(team, `${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
    const state = emptyHistory();
    const stats = { rows: 0, skipped: 0 };
    assert.equal(foldRecordsFile(team, state, stats), { records: 3, origins: 2 });
    assert.equal(stats, { rows: 3, skipped: 1 });
    assert.is(state.tiers.get('t1')!.tests.get('a')!.flips, 2);
    assert.equal(foldRecordsFile(join(tests, '..', 'none.jsonl'), state, stats), { records: 0, origins: 0 });
  }));

test('a writer that stopped between writing the compact file and starting a new log counts nothing twice', () =>
  withDir((tests) => {
    recordTests(tests, rec(1, 'A', [], ['a']));
    recordTests(tests, rec(2, 'A', ['a'], []));
    const logText = readFileSync(tests, 'utf8');
    const ino = statSync(tests).ino;
    compactHistory(tests);
    // Put the old log back under its old inode's byte count: as if the new log was never made.
    const compact = JSON.parse(readFileSync(historyPath(tests), 'utf8'));
    writeFileSync(historyPath(tests), JSON.stringify({ ...compact, log_ino: statSync(tests).ino, log_bytes: Buffer.byteLength(logText) }));
    writeFileSync(tests, logText);
    assert.is.not(ino, undefined);
    const a = readHistory(tests).state.tiers.get('t1')!.tests.get('a')!;
    assert.equal([a.runs, a.flips], [2, 1]);
  }));

test('a log past COMPACT_AT_BYTES is compacted by the writer that finds it so', () =>
  withDir((tests) => {
    const many = Array.from({ length: Math.ceil(COMPACT_AT_BYTES / 12) }, (_, i) => `test_${i}`);
    recordTests(tests, rec(1, 'A', many, []));
    assert.is(statSync(tests).size, 0);
    assert.is(readHistory(tests).state.tiers.get('t1')!.tests.size, many.length);
  }));

test('an unreadable compact file is set aside and said, and history goes on from the log', () =>
  withDir((tests) => {
    writeFileSync(historyPath(tests), 'garbage');
    recordTests(tests, rec(1, 'A', ['a'], []));
    const r = readHistory(tests);
    assert.match(r.problem ?? '', 'is not a history file');
    compactHistory(tests);
    assert.is(readFileSync(`${historyPath(tests)}.unreadable`, 'utf8'), 'garbage');
    assert.is(readHistory(tests).problem, undefined);
  }));

test('resolving a typed id: exact, the id pytest prints (no tier folder), a title alone, several, or the closest', () => {
  const known = [
    { tier: 't1', id: 'py/tests/Integration/test_dup.py::TestK::test_x' },
    { tier: 't1', id: 'test/a.test.mjs::flaky multiplies' },
    { tier: 't1', id: 'test/b.test.mjs::flaky multiplies' },
    { tier: 't2', id: 'math > adds' },
    { tier: 't3', id: 'math > adds' },
  ];
  assert.equal(resolveTestId('py/tests/Integration/test_dup.py::TestK::test_x', known), { kind: 'one', test: known[0] });
  assert.equal(resolveTestId('tests/Integration/test_dup.py::TestK::test_x', known), { kind: 'one', test: known[0] });
  assert.equal(resolveTestId('flaky multiplies', known), { kind: 'many', candidates: [known[1], known[2]] });
  assert.equal(resolveTestId('math > adds', known), { kind: 'many', candidates: [known[3], known[4]] });
  assert.equal(resolveTestId('math > adds', known, 't3'), { kind: 'one', test: known[4] });
  const none = resolveTestId('tests/integration/test_dup.py::TestK::test_y', known);
  assert.is(none.kind, 'none');
  assert.is(none.kind === 'none' && none.near[0], known[0]!.id);
});

test('today is the UTC day, whatever the local time zone', () => {
  const tz = process.env.TZ;
  try {
    process.env.TZ = 'Etc/GMT-14';
    const now = new Date('2025-01-01T12:00:00Z'); // 2025-01-02 02:00 there
    assert.is(now.getDate(), 2, 'the zone is in effect');
    assert.is(today({}, now), '2025-01-01');
    process.env.TZ = 'Etc/GMT+12';
    assert.is(today({}, new Date('2025-01-01T06:00:00Z')), '2025-01-01');
    assert.is(today({ GATE_LADDER_NOW: '2025-01-31T23:30:00-05:00' }), '2025-02-01');
    assert.is(today({ GATE_LADDER_NOW: '2025-03-04' }), '2025-03-04');
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});

test("the team's records fold in time order with this clone's, compacted ones included: a flip between two clones' runs of the same code counts as it happened", () =>
  withDir((tests) => {
    // This clone passed at :01 and :03 (the first folded into the compact file); a teammate's run at :02 failed, all on tree A.
    recordTests(tests, rec(1, 'A', ['x'], []));
    compactHistory(tests);
    recordTests(tests, rec(3, 'A', ['x'], []));
    const team = join(tests, '..', 'team-tests.jsonl');
    writeFileSync(team, `${JSON.stringify({ ...rec(2, 'A', [], ['x']), run: 'their', origin: 'clone-b' })}\n`);
    const x = (h: ReturnType<typeof readTeamHistory>) => {
      const t = h.state.tiers.get('t1')!.tests.get('x')!;
      return [t.runs, t.fails, t.sameCodeRuns, t.flips];
    };
    const timed = readTeamHistory(tests, team);
    assert.equal([timed.order, timed.own, timed.team, timed.origins], ['time', 2, 1, 1]);
    assert.equal(x(timed), [3, 1, 2, 2], 'pass, fail, pass: two flips');
    // Too many raw records to read again: the team's after this clone's (pass, pass, fail: one flip), and said so.
    const after = readTeamHistory(tests, team, undefined, 10);
    assert.equal([after.order, ...x(after)], ['team-after', 3, 1, 2, 1]);
    // An archive removed by hand: the raw records no longer hold the whole history, so the same.
    const archive = join(tests, '..', 'tests-archive');
    for (const f of readdirSync(archive)) rmSync(join(archive, f));
    const missing = readTeamHistory(tests, team);
    assert.equal([missing.order, ...x(missing)], ['team-after', 3, 1, 2, 1]);
    // No team file: this clone's history as it is read alone.
    rmSync(team);
    const alone = readTeamHistory(tests, team);
    assert.equal([alone.order, alone.team, ...x(alone)], ['time', 0, 2, 0, 1, 0]);
  }));

test.run();
