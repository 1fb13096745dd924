import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addDays,
  checkFreezeRequest,
  fixed3,
  flipStats,
  forgive,
  freezeEligible,
  lastFrozenDay,
  parseDay,
  parseFreezes,
  serializeFreezes,
  upsertFreeze,
  type Freeze,
} from '../../src/evidence/freeze.js';
import { testMsg } from '../../src/evidence/messages.js';

const policy = { minRuns: 20, minFlipRate: 0.02 };
/** `runs` outcomes starting with a pass, flipping at the first `flips` steps. */
const series = (runs: number, flips: number): boolean[] => {
  const out = [true];
  for (let i = 1; i < runs; i++) out.push(i <= flips ? !out[i - 1] : out[i - 1]!);
  return out;
};

test('flip rate is flips / (runs - 1) over outcomes in order', () => {
  assert.equal(flipStats([]), { runs: 0, flips: 0, flipRate: null });
  assert.equal(flipStats([true]), { runs: 1, flips: 0, flipRate: null });
  assert.equal(flipStats([true, false, false, true, true]), { runs: 5, flips: 2, flipRate: 0.5 });
  assert.equal(flipStats(series(20, 19)).flipRate, 1);
});

/** A series of outcomes all on the same code (one tree, one command): every run after the first is a same-code run. */
const onOneTree = (outcomes: boolean[], evidence: boolean) => ({
  runs: outcomes.length,
  fails: outcomes.filter((o) => !o).length,
  sameCodeRuns: Math.max(0, outcomes.length - 1),
  flips: flipStats(outcomes).flips,
  evidence: evidence ? 1 : 0,
});

// [title, outcomes, evidence, eligible, reason]; the seed's reasons, character for character, and "broken" for a test that always fails.
const cases: [string, boolean[], boolean, boolean, string][] = [
  ['19 runs is insufficient, however flaky', series(19, 9), true, false, 'insufficient history; keep observing'],
  ['20 runs is enough', series(20, 2), true, true, 'freeze with expiry, flip_rate=0.105'],
  ['no runs at all', [], true, false, 'insufficient history; keep observing'],
  [
    'flip rate exactly at the threshold (1 flip in 51 runs = 0.02) is flaky',
    series(51, 1),
    true,
    true,
    'freeze with expiry, flip_rate=0.020',
  ],
  ['flip rate just below the threshold (1 flip in 52 runs) is not', series(52, 1), true, false, 'not actually flaky (0.020)'],
  [
    'an always-failing test is broken, not flaky',
    Array(25).fill(false),
    true,
    false,
    'broken, not flaky: failed all 25 runs; fix it or delete it',
  ],
  ['an always-passing test', Array(25).fill(true), true, false, 'not actually flaky (0.000)'],
  ['history but no sensitivity evidence', series(30, 10), false, false, 'no sensitivity evidence; rewrite or delete'],
  ['flip rate is checked before evidence', [true, ...Array(59).fill(false)], false, false, 'not actually flaky (0.017)'],
  ['every run flips', series(20, 19), true, true, 'freeze with expiry, flip_rate=1.000'],
];
for (const [title, outcomes, evidence, eligible, reason] of cases) {
  test(`predicate: ${title}`, () => {
    const r = freezeEligible(onOneTree(outcomes, evidence), policy);
    assert.is(r.eligible, eligible);
    assert.is(r.reason, reason);
  });
}

test('predicate: thresholds come from the config', () => {
  assert.is(freezeEligible(onOneTree(series(5, 1), true), { minRuns: 5, minFlipRate: 0.25 }).reason, 'freeze with expiry, flip_rate=0.250');
  assert.is(freezeEligible(onOneTree(series(5, 1), true), { minRuns: 5, minFlipRate: 0.3 }).reason, 'not actually flaky (0.250)');
  assert.is(freezeEligible(onOneTree(series(5, 1), true), { minRuns: 6, minFlipRate: 0 }).reason, 'insufficient history; keep observing');
});

test('predicate: the flip rate is flips per same-code run; with none there is no rate yet', () => {
  // 35 runs, each on its own tree: a catch and a fix are history, not flips.
  const r = freezeEligible({ runs: 35, fails: 2, sameCodeRuns: 0, flips: 0, evidence: 1 }, policy);
  assert.equal([r.eligible, r.flipRate, r.sameCodeRuns], [false, null, 0]);
  assert.match(r.reason, /^insufficient history; keep observing \(no run repeated on the same code yet/);
  const some = freezeEligible({ runs: 30, fails: 6, sameCodeRuns: 6, flips: 3, evidence: 1 }, policy);
  assert.equal([some.eligible, some.flipRate, some.reason], [true, 0.5, 'freeze with expiry, flip_rate=0.500']);
  assert.is(freezeEligible({ runs: 30, fails: 6, sameCodeRuns: 6, flips: 0, evidence: 1 }, policy).reason, 'not actually flaky (0.000)');
});

test('predicate: an id that named several tests is never eligible, whatever its counts', () => {
  const r = freezeEligible({ runs: 30, fails: 6, sameCodeRuns: 6, flips: 3, evidence: 1, ambiguous: true }, policy);
  assert.is(r.eligible, false);
  assert.match(r.reason, /^ambiguous id: several tests in one report share it/);
});

test("three decimals round exact ties to even, as Python's :.3f does (toFixed rounds them up)", () => {
  const want: [number, string][] = [
    [1 / 16, '0.062'],
    [3 / 16, '0.188'],
    [5 / 16, '0.312'],
    [7 / 16, '0.438'],
    [9 / 16, '0.562'],
    [1 / 19, '0.053'],
    [2 / 19, '0.105'],
    [1 / 51, '0.020'],
    [0, '0.000'],
    [1, '1.000'],
    [0.0005, '0.001'],
    [2 / 3, '0.667'],
  ];
  for (const [x, s] of want) assert.is(fixed3(x), s, String(x));
  assert.is(
    freezeEligible(onOneTree(series(33, 2), true), { minRuns: 20, minFlipRate: 0.02 }).reason,
    'freeze with expiry, flip_rate=0.062',
  );
});

test('dates: only real YYYY-MM-DD days; adding days crosses months and leap years', () => {
  assert.is(parseDay('2024-02-29'), '2024-02-29');
  assert.is(parseDay('2023-02-29'), null);
  assert.is(parseDay('2024-2-1'), null);
  assert.is(parseDay('tomorrow'), null);
  assert.is(addDays('2024-02-28', 1), '2024-02-29');
  assert.is(addDays('2024-12-31', 90), '2025-03-31');
});

const request: [string, string | undefined, string | undefined, string[]][] = [
  ['expiry and re-entry are both required', undefined, undefined, ['needs --expires', 'needs --reentry']],
  ['blank re-entry', '2025-02-01', '  ', ['needs --reentry']],
  ['not a date', '01/02/2025', 'x', ['is not a date']],
  ['today is not in the future', '2025-01-01', 'x', ['is not after today (2025-01-01 UTC)']],
  ['past', '2024-12-01', 'x', ['is not after today']],
  ['91 days ahead is too far', '2025-04-02', 'x', ['more than 90 days ahead; the latest allowed is 2025-04-01']],
  ['exactly 90 days ahead is fine', '2025-04-01', 'x', []],
  ['tomorrow is fine', '2025-01-02', 'x', []],
];
for (const [title, expires, reentry, problems] of request) {
  test(`freeze request: ${title}`, () => {
    const r = checkFreezeRequest(expires, reentry, '2025-01-01', 90);
    assert.is(r.problems.length, problems.length, r.problems.join(' | '));
    for (const [i, p] of problems.entries()) assert.match(r.problems[i]!, p);
    if (problems.length === 0) assert.is(r.expires, expires);
  });
}

const freeze = (test: string, expires: string): Freeze => ({
  test,
  flip_rate: 0.1,
  runs: 20,
  flips: 2,
  evidence: 1,
  by: 'T <t@x>',
  at: '2025-01-01T00:00:00.000Z',
  expires,
  reentry: 'fixed',
});

test('forgive: a freeze counts before its expiry day, not on or after it', () => {
  const freezes = [freeze('a', '2025-02-01'), freeze('b', '2025-01-10')];
  assert.equal(forgive(['a', 'b', 'c'], freezes, '2025-01-09'), { frozen: ['a', 'b'], expired: [], ambiguous: [], unfrozen: ['c'] });
  const onDay = forgive(['a', 'b'], freezes, '2025-01-10');
  assert.equal(onDay.frozen, ['a']);
  assert.equal(
    onDay.expired.map((f) => f.test),
    ['b'],
  );
  assert.equal(forgive([], freezes, '2025-01-01'), { frozen: [], expired: [], ambiguous: [], unfrozen: [] });
});

test('forgive: a freeze names one test in one tier; an id several test cases share is never forgiven', () => {
  const inT1 = { ...freeze('a', '2025-02-01'), tier: 't1' };
  assert.equal(forgive(['a'], [inT1], '2025-01-09', { tier: 't1' }).frozen, ['a']);
  assert.equal(forgive(['a'], [inT1], '2025-01-09', { tier: 't2' }).unfrozen, ['a'], 'frozen in t1 only');
  assert.equal(
    forgive(['a'], [freeze('a', '2025-02-01')], '2025-01-09', { tier: 't2' }).frozen,
    ['a'],
    'an older freeze without a tier applies in every tier',
  );
  assert.equal(forgive(['a'], [inT1], '2025-01-09', { tier: 't1', dup: ['a'] }), {
    frozen: [],
    expired: [],
    ambiguous: ['a'],
    unfrozen: [],
  });
});

test('the freezes file round-trips sorted, and a broken one names every problem', () => {
  const text = serializeFreezes(upsertFreeze([freeze('b', '2025-02-01'), freeze('a', '2025-02-01')], freeze('b', '2025-03-01')));
  const back = parseFreezes(text);
  assert.ok(back.ok);
  if (back.ok)
    assert.equal(
      back.freezes.map((f) => [f.test, f.expires]),
      [
        ['a', '2025-02-01'],
        ['b', '2025-03-01'],
      ],
    );
  assert.match(text, /^\{\n {2}"version": 1,\n {2}"freezes": \[/);
  const bad = parseFreezes('{"freezes":[{"test":"a","expires":"soon"}]}');
  assert.is(bad.ok, false);
  if (!bad.ok) {
    assert.match(bad.why, 'freezes[0].reentry must be a string');
    assert.match(bad.why, 'freezes[0].runs must be a number');
    assert.match(bad.why, 'freezes[0].expires must be YYYY-MM-DD');
  }
  assert.is(parseFreezes('not json').ok, false);
  assert.is(parseFreezes('{}').ok, false);
});

test('flipStats: two runs already have a flip rate', () => {
  assert.equal(flipStats([true, false]), { runs: 2, flips: 1, flipRate: 1 });
  assert.equal(flipStats([true, true]), { runs: 2, flips: 0, flipRate: 0 });
  assert.equal(flipStats([true]), { runs: 1, flips: 0, flipRate: null });
});

test('fixed3: only odd sixteenths are ties; even ones print as toFixed does', () => {
  assert.is(fixed3(0.125), '0.125');
  assert.is(fixed3(0.375), '0.375');
  assert.is(fixed3(0.0625), '0.062');
  assert.is(fixed3(0.1875), '0.188');
});

test('freezeEligible: one run is not history, even when the policy asks for fewer', () => {
  for (const p of [
    { minRuns: 1, minFlipRate: 0.02 },
    { minRuns: 0, minFlipRate: 0 },
  ]) {
    for (const runs of [0, 1]) {
      const r = freezeEligible({ runs, fails: runs, sameCodeRuns: 0, flips: 0, evidence: 1 }, p);
      assert.equal([r.eligible, r.broken, r.reason], [false, false, testMsg.insufficientHistory()], JSON.stringify([p, runs]));
    }
  }
});

test('parseDay: surrounding blanks are not part of the date', () => {
  assert.is(parseDay(' 2025-01-31 '), '2025-01-31');
  assert.is(parseDay('2025-01-31\n'), '2025-01-31');
});

test('freeze request: a blank expiry is a missing one, and a good expiry is returned only when nothing else is wrong', () => {
  assert.equal(checkFreezeRequest('   ', 'x', '2025-01-01', 90).problems, [testMsg.freezeNeedsExpiry()]);
  const noReentry = checkFreezeRequest('2025-01-10', undefined, '2025-01-01', 90);
  assert.equal(noReentry, { problems: [testMsg.freezeNeedsReentry()] });
  assert.equal(checkFreezeRequest(' 2025-01-10 ', 'x', '2025-01-01', 90), { problems: [], expires: '2025-01-10' });
});

test('the freezes file: unsorted freezes are written sorted by test; odd JSON is a problem, not a crash', () => {
  const text = serializeFreezes([
    freeze('m', '2025-02-01'),
    freeze('z', '2025-02-01'),
    freeze('a', '2025-02-01'),
    freeze('b', '2025-02-01'),
  ]);
  const back = parseFreezes(text);
  assert.ok(back.ok);
  if (back.ok)
    assert.equal(
      back.freezes.map((f) => f.test),
      ['a', 'b', 'm', 'z'],
    );
  const twice = serializeFreezes([freeze('b', '2025-03-01'), freeze('a', '2025-01-05'), freeze('b', '2025-02-01')]);
  const again = parseFreezes(twice);
  if (again.ok)
    assert.equal(
      again.freezes.map((f) => [f.test, f.expires]),
      [
        ['a', '2025-01-05'],
        ['b', '2025-03-01'],
        ['b', '2025-02-01'],
      ],
    );
  const broken = parseFreezes('{"version": 1');
  assert.ok(!broken.ok && broken.why.startsWith('not JSON: '));
  assert.is(parseFreezes('null').ok, false);
  const nulls = parseFreezes('{"freezes":[null]}');
  assert.ok(!nulls.ok && nulls.why.includes('freezes[0].test must be a string') && nulls.why.includes('freezes[0].runs must be a number'));
  const noExpiry = parseFreezes('{"freezes":[{"test":"a"}]}');
  assert.ok(!noExpiry.ok && noExpiry.why.includes('freezes[0].expires must be a string') && !noExpiry.why.includes('YYYY-MM-DD'));
});

test('the freezes file is sorted however many freezes it holds (past the sizes a sort does by insertion)', () => {
  const tests = Array.from({ length: 60 }, (_, i) => `t${String((i * 37) % 60).padStart(2, '0')}`);
  const back = parseFreezes(serializeFreezes(tests.map((t) => freeze(t, '2025-02-01'))));
  assert.ok(back.ok);
  if (back.ok)
    assert.equal(
      back.freezes.map((f) => f.test),
      [...tests].sort(),
    );
});

test('freezeEligible: a test that failed every run is marked broken (flaky --json prints it); a flaky one, or one without enough runs, is not', () => {
  const always = freezeEligible(onOneTree(Array(25).fill(false), true), policy);
  assert.equal([always.broken, always.eligible], [true, false]);
  assert.is(freezeEligible(onOneTree(series(25, 3), true), policy).broken, false);
  assert.is(freezeEligible(onOneTree(Array(19).fill(false), true), policy).broken, false);
});

test('forgive: without a list of shared ids, no id is shared, whatever its text', () => {
  for (const id of ['a', '', 'undefined', 'Stryker was here']) {
    const freezes = [freeze(id, '2025-02-01')];
    assert.equal(forgive([id], freezes, '2025-01-09'), { frozen: [id], expired: [], ambiguous: [], unfrozen: [] }, JSON.stringify(id));
    assert.equal(forgive([id], freezes, '2025-01-09', { tier: 't1' }).frozen, [id], JSON.stringify(id));
  }
});

test('the freezes file: a tier, when a freeze has one, is a string', () => {
  const back = parseFreezes(serializeFreezes([{ ...freeze('a', '2025-02-01'), tier: 't1' }, freeze('b', '2025-02-01')]));
  assert.ok(back.ok, back.ok ? '' : back.why);
  if (back.ok)
    assert.equal(
      back.freezes.map((f) => [f.test, f.tier ?? null]),
      [
        ['a', 't1'],
        ['b', null],
      ],
    );
  for (const tier of [3, null, true, ['t1'], {}]) {
    const bad = parseFreezes(JSON.stringify({ version: 1, freezes: [freeze('a', '2025-02-01'), { ...freeze('b', '2025-02-01'), tier }] }));
    assert.equal(bad, { ok: false, why: 'freezes[1].tier must be a string' }, JSON.stringify(tier));
  }
});

test("the freezes file: one test's freezes are written by tier, the one for every tier first", () => {
  const inTier = (test: string, tier: string): Freeze => ({ ...freeze(test, '2025-02-01'), tier });
  const text = serializeFreezes([
    inTier('a', 't2'),
    inTier('b', 'E2E'),
    inTier('a', 'E2E'),
    freeze('a', '2025-02-01'),
    inTier('a', 't1'),
    freeze('b', '2025-02-01'),
  ]);
  const back = parseFreezes(text);
  assert.ok(back.ok);
  if (back.ok) {
    assert.equal(
      back.freezes.map((f) => [f.test, f.tier ?? null]),
      [
        ['a', null],
        ['a', 'E2E'],
        ['a', 't1'],
        ['a', 't2'],
        ['b', null],
        ['b', 'E2E'],
      ],
    );
  }
});

test('upsertFreeze: a renewal replaces the freeze of the same test in the same tier, and no other', () => {
  const a1: Freeze = { ...freeze('a', '2025-02-01'), tier: 't1' };
  const a2: Freeze = { ...freeze('a', '2025-02-01'), tier: 't2' };
  const aAll = freeze('a', '2025-02-01');
  const b1: Freeze = { ...freeze('b', '2025-02-01'), tier: 't1' };
  const renewed: Freeze = { ...a1, expires: '2025-03-01' };
  assert.equal(upsertFreeze([a1, a2, aAll, b1], renewed), [a2, aAll, b1, renewed]);
  const everywhere = freeze('a', '2025-04-01');
  assert.equal(upsertFreeze([a1, aAll, b1], everywhere), [a1, b1, everywhere]);
  assert.equal(upsertFreeze([b1], a2), [b1, a2]);
});

test('lastFrozenDay: the day before the expiry day, across a month, a leap day and a year', () => {
  assert.is(lastFrozenDay({ expires: '2025-02-02' }), '2025-02-01');
  assert.is(lastFrozenDay({ expires: '2025-03-01' }), '2025-02-28');
  assert.is(lastFrozenDay({ expires: '2024-03-01' }), '2024-02-29');
  assert.is(lastFrozenDay({ expires: '2025-01-01' }), '2024-12-31');
});

test.run();
