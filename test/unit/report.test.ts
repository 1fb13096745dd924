import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { row } from '../helpers/rows.js';
import { advise } from '../../src/report/advice.js';
import { type FoldRow, originFold, report, rowOrigin } from '../../src/report/figures.js';
import { select } from '../../src/report/seconds.js';
import type { Advice, OrderFigures, PairOverlap, RateFigures, TierFigures } from '../../src/report/model.js';

const repeat = (n: number, make: (i: number) => FoldRow): FoldRow[] => Array.from({ length: n }, (_, i) => make(i));
const byTier = (tiers: TierFigures[]) => Object.fromEntries(tiers.map((t) => [t.tier, t]));
const kinds = (advice: Advice[]) => advice.map((a) => a.kind);

test('exact figures: even median, zero catches, only errors, zero-second rows, a tier never reached', () => {
  const rows = [
    row('t1', 'caught', 1),
    row('t1', 'pass', 10),
    row('t1', 'error', 3),
    row('t1', 'pass', 2),
    row('t2', 'pass', 60),
    row('t2', 'pass', 120),
    row('t2', 'pass', 90),
    row('t3', 'error', 0),
    row('t3', 'error', 0),
    row('stray', 'caught', 0),
  ];
  const r = report(rows, { tiers: ['t1', 't2', 't3', 't4'] });
  assert.equal(
    r.tiers.map((t) => t.tier),
    ['t1', 't2', 't3', 't4'],
  );
  const t = byTier([...r.tiers, ...r.retired]);
  assert.equal(t.t1, {
    tier: 't1',
    runs: 4,
    caught: 1,
    errors: 1,
    passes: 2,
    median_s: 2.5,
    total_s: 16,
    yield: 0.0625,
    error_rate: 0.25,
    patch_errors: 0,
    not_applied: 0,
    not_applicable: 0,
  });
  assert.equal(t.t2, {
    tier: 't2',
    runs: 3,
    caught: 0,
    errors: 0,
    passes: 3,
    median_s: 90,
    total_s: 270,
    yield: 0,
    error_rate: 0,
    patch_errors: 0,
    not_applied: 0,
    not_applicable: 0,
  });
  assert.equal(t.t3, {
    tier: 't3',
    runs: 2,
    caught: 0,
    errors: 2,
    passes: 0,
    median_s: 0,
    total_s: 0,
    yield: null,
    error_rate: 1,
    patch_errors: 0,
    not_applied: 0,
    not_applicable: 0,
  });
  assert.equal(t.t4, {
    tier: 't4',
    runs: 0,
    caught: 0,
    errors: 0,
    passes: 0,
    median_s: null,
    total_s: 0,
    yield: null,
    error_rate: null,
    patch_errors: 0,
    not_applied: 0,
    not_applicable: 0,
  });
  // Caught in zero seconds: the yield is undefined, not zero.
  assert.is(t.stray!.yield, null);
  assert.is(r.attempts, 10);
  assert.is(r.rows, 10);
  assert.equal(r.order.unranked, ['t4']);
});

test('seconds are summed exactly to the millisecond; yields keep four significant digits', () => {
  const r = report([row('t', 'caught', 0.1), row('t', 'pass', 0.2), row('t', 'pass', 2999.7)]);
  assert.is(r.tiers[0]!.total_s, 3000);
  assert.is(r.tiers[0]!.yield, 0.0003333);
  assert.is(r.tiers[0]!.median_s, 0.2);
});

test('cached, seed, unapplied and not-applicable rows stay out of the tier figures, each counted apart', () => {
  const rows = [
    row('t1', 'error', 1, { hook: 'replay', applicable: false, reason: 'not applicable at this commit: npm: missing script "test"' }),
    row('t1', 'pass', 4),
    row('t1', 'caught', 5, { calibration: true, cached: true }),
    row('t1', 'pass', 0, { cached: true }),
    row('t1', 'caught', 5, { source: 'seed' }),
    row('t1', 'caught', 5, { hook: 'seed' }),
    row('t1', 'caught', 5, { hook: 'replay', applied: false }),
    row('t1', 'pass', 6, { hook: 'replay', applied: true }),
  ];
  const r = report(rows);
  assert.equal(r.tiers[0], {
    tier: 't1',
    runs: 2,
    caught: 0,
    errors: 0,
    passes: 2,
    median_s: 5,
    total_s: 10,
    yield: 0,
    error_rate: 0,
    patch_errors: 0,
    not_applied: 1,
    not_applicable: 1,
  });
  assert.equal(r.excluded, { filtered: 0, calibration: 0, cached: 2, seed: 2, not_applied: 1, not_applicable: 1 });
  assert.is(r.attempts, 2);
});

test('--since and --hook filter rows before anything is counted', () => {
  const rows = [
    row('t1', 'pass', 1, { ts: '2025-01-31T23:59:59.999Z' }),
    row('t1', 'pass', 2, { ts: '2025-02-01T00:00:00.000Z' }),
    row('t1', 'pass', 3, { ts: '2025-02-02T00:00:00.000Z', hook: 'manual' }),
    row('t1', 'pass', 4, { ts: 'not a date' }),
    row('t1', 'pass', 5, { ts: undefined }),
  ];
  const since = report(rows, { since: new Date('2025-02-01') });
  assert.is(since.tiers[0]!.runs, 2);
  assert.is(since.excluded.filtered, 3);
  const hook = report(rows, { hook: 'manual' });
  assert.is(hook.tiers[0]!.total_s, 3);
  assert.is(report(rows, { hook: 'pre-commit' }).advice.length, 0);
});

test('t0-scope: distinct patches routed past each tier, priced at that tier median', () => {
  const skipped = ['t1'];
  const rows = [
    row('t1', 'pass', 2),
    row('t1', 'pass', 4),
    row('t2', 'pass', 100, { run: 'a', skipped, routed: true }),
    row('t3', 'pass', 50, { run: 'a', skipped, routed: true }),
    row('t2', 'caught', 80, { run: 'b', skipped, routed: true }),
    row('t2', 'pass', 90, { run: 'c', skipped: ['t1', 't3'], routed: true }),
    row('t2', 'pass', 90, { run: 'd', skipped: ['t1'], calibration: true }),
  ];
  const r = report(rows, { tiers: ['t1', 't2', 't3'] });
  // Run d is a calibration run: its routing counts too.
  assert.equal(r.scope, {
    patches: 4,
    past: [
      { tier: 't1', patches: 4, median_s: 3, saved_s: 12 },
      { tier: 't3', patches: 1, median_s: 50, saved_s: 50 },
    ],
    saved_s: 62,
  });
});

test('t0-scope routing past a tier that never ran: counted, its savings unknown', () => {
  const r = report([row('t2', 'pass', 10, { skipped: ['t1'] })], { tiers: ['t1', 't2'] });
  assert.equal(r.scope.past, [{ tier: 't1', patches: 1, median_s: null, saved_s: null }]);
  assert.is(r.scope.saved_s, 0);
});

test('calibration overlap per pair, from runs grouped by run; errors leave a tier out of the pair', () => {
  const cal = (run: string, verdicts: Record<string, FoldRow['verdict']>) =>
    Object.entries(verdicts).map(([tier, v]) => row(tier, v, 1, { run, calibration: true }));
  const rows = [
    ...cal('a', { t1: 'caught', t2: 'caught', t3: 'pass' }),
    ...cal('b', { t1: 'caught', t2: 'pass', t3: 'caught' }),
    ...cal('c', { t1: 'pass', t2: 'caught' }),
    ...cal('d', { t1: 'pass', t2: 'pass', t3: 'error' }),
    ...cal('e', { t1: 'error', t2: 'caught', t3: 'caught' }),
  ];
  const r = report(rows, { tiers: ['t1', 't2', 't3'] });
  assert.is(r.overlap.runs, 5);
  assert.equal(r.overlap.pairs, [
    { earlier: 't1', later: 't2', patches: 4, both: 1, only_earlier: 1, only_later: 1, neither: 1 },
    { earlier: 't1', later: 't3', patches: 2, both: 1, only_earlier: 1, only_later: 0, neither: 0 },
    { earlier: 't2', later: 't3', patches: 3, both: 1, only_earlier: 1, only_later: 1, neither: 0 },
  ]);
  // Each run counts as the ladder run it extends, up to its first non-pass: a, b and e stop at t1, c at t2, d at t3.
  assert.equal(
    r.tiers.map((t) => [t.tier, t.runs, t.caught, t.errors, t.passes]),
    [
      ['t1', 5, 2, 1, 2],
      ['t2', 2, 1, 0, 1],
      ['t3', 1, 0, 1, 0],
    ],
  );
  assert.is(r.overlap.counted_rows, 8);
  assert.is(r.excluded.calibration, 6);
  assert.is(r.attempts, 5);
});

test("order: one ladder at a time: a pre-commit-only tier is the commit ladder's, out of the push order unless --hook pre-commit", () => {
  const rows = [
    ...repeat(10, (i) => row('lint-staged', i < 5 ? 'caught' : 'pass', 1, { hook: 'pre-commit' })),
    ...repeat(10, (i) => row('slow', i === 0 ? 'caught' : 'pass', 10)),
    ...repeat(10, (i) => row('cheap', i < 5 ? 'caught' : 'pass', 2, { hook: i < 2 ? 'pre-commit' : 'pre-push' })),
  ];
  const policy = { shortFeedbackS: 0, minAttempts: 0 };
  // No config: from the rows (cheap ran on both hooks, so it is the push ladder's too).
  assert.equal(report(rows, policy).order.current, ['slow', 'cheap']);
  // The config's hooks decide: tiers named in `ladder` only, in config order.
  const tiers = ['lint-staged', 'slow', 'cheap'];
  assert.equal(report(rows, { ...policy, tiers, ladder: ['slow', 'cheap'] }).order.current, ['slow', 'cheap']);
  assert.not.match(
    report(rows, { ...policy, tiers, ladder: ['slow', 'cheap'] }).advice.find((a) => a.kind === 'order')!.text,
    'lint-staged',
  );
  // --hook pre-commit: that ladder's rows, its tiers.
  assert.equal(report(rows, { ...policy, hook: 'pre-commit' }).order.current, ['lint-staged', 'cheap']);
  // The tier figures still list every tier.
  assert.equal(
    report(rows, policy).tiers.map((t) => t.tier),
    ['lint-staged', 'slow', 'cheap'],
  );
});

test('order: ascending mean seconds ÷ catch probability, with expected seconds per patch for both orders', () => {
  const rows = [
    ...repeat(10, (i) => row('slow', i === 0 ? 'caught' : 'pass', 10)),
    ...repeat(10, (i) => row('cheap', i < 5 ? 'caught' : 'pass', 2)),
  ];
  const r = report(rows, { tiers: ['slow', 'cheap', 'none'], shortFeedbackS: 0, minAttempts: 0 });
  assert.equal(r.order, {
    current: ['slow', 'cheap'],
    recommended: ['cheap', 'slow'],
    current_s: 11.8,
    recommended_s: 7,
    unranked: ['none'],
    priced: [
      { tier: 'slow', mean_s: 10, p: 0.1, ratio: 100 },
      { tier: 'cheap', mean_s: 2, p: 0.5, ratio: 4 },
    ],
    method: 'independence',
    calibration_runs: 0,
  });
  const order = r.advice.find((a) => a.kind === 'order')!;
  assert.match(order.text, /^reorder to t0-scope → cheap → slow: expected 7 s per patch instead of 11\.8 s/);
  assert.match(order.text, /not priced, no runs: none/);
});

test('median of an odd and an even count, with duplicates, matches a sort', () => {
  const values = [5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];
  for (let n = 1; n <= values.length; n++) {
    const xs = values.slice(0, n);
    const sorted = [...xs].sort((a, b) => a - b);
    const expected = n % 2 ? sorted[n >> 1] : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
    assert.is(report(xs.map((s) => row('t', 'pass', s))).tiers[0]!.median_s, expected, `n=${n}`);
  }
  let x = 7;
  const random = Float64Array.from({ length: 1001 }, () => (x = (x * 48271) % 2147483647) % 97);
  const k = 500;
  const v = select(random, k);
  assert.is(v, [...random].sort((a, b) => a - b)[k]);
  for (let i = 0; i < k; i++) assert.ok(random[i]! <= v);
});

// Advice thresholds: each case sits exactly at a threshold or just past it.
const tier = (name: string, over: Partial<TierFigures> = {}): TierFigures => ({
  tier: name,
  runs: 40,
  caught: 4,
  errors: 0,
  passes: 36,
  median_s: 60,
  total_s: 2400,
  yield: 0.001667,
  error_rate: 0,
  not_applied: 0,
  not_applicable: 0,
  ...over,
});
const pair = (both: number, onlyEarlier: number, onlyLater: number, neither = 30): PairOverlap => ({
  earlier: 't1',
  later: 't2',
  patches: both + onlyEarlier + onlyLater + neither,
  both,
  only_earlier: onlyEarlier,
  only_later: onlyLater,
  neither,
});
const noOrder: OrderFigures = {
  current: [],
  recommended: [],
  current_s: null,
  recommended_s: null,
  unranked: [],
  priced: [],
  method: 'independence',
  calibration_runs: 0,
};
const rate = (attempts: number, months = 1): RateFigures => ({
  attempts,
  first: '2025-01-01',
  last: '2025-01-31',
  months,
  per_month: Number((attempts / months).toPrecision(4)),
});
const base = {
  tiers: [tier('t1', { median_s: 5 }), tier('t2')],
  overlap: { pairs: [] as PairOverlap[] },
  order: noOrder,
  attempts: 30,
  rate: rate(30),
};

const thresholds: [string, Partial<typeof base>, Advice['kind'], boolean][] = [
  ['29 attempts a month: too few', { rate: rate(29) }, 'too-few-attempts', true],
  ['30 attempts a month: enough', { rate: rate(30) }, 'too-few-attempts', false],
  ['300 attempts over 12 months (25 a month): too few', { attempts: 300, rate: rate(300, 12) }, 'too-few-attempts', true],
  ['360 attempts over 12 months (30 a month): enough', { attempts: 360, rate: rate(360, 12) }, 'too-few-attempts', false],
  [
    'dearest median 29.999 s: short feedback',
    { tiers: [tier('t1', { median_s: 5 }), tier('t2', { median_s: 29.999 })] },
    'short-feedback',
    true,
  ],
  ['dearest median 30 s: not short', { tiers: [tier('t1', { median_s: 5 }), tier('t2', { median_s: 30 })] }, 'short-feedback', false],
  ['one error: error rate shown', { tiers: [tier('t1', { errors: 1, error_rate: 0.025 }), tier('t2')] }, 'errors', true],
  ['no error: nothing', {}, 'errors', false],
  ['later adds 2 of 40 caught (5 %): contract check', { overlap: { pairs: [pair(37, 1, 2)] } }, 'contract-check', true],
  ['later adds 2 of 39 caught (5.1 %): earns its minutes', { overlap: { pairs: [pair(36, 1, 2)] } }, 'contract-check', false],
  ['later adds nothing, earlier caught one: contract check', { overlap: { pairs: [pair(0, 1, 0)] } }, 'contract-check', true],
  ['neither caught anything: no contract-check advice', { overlap: { pairs: [pair(0, 0, 0)] } }, 'contract-check', false],
  ['later caught all the earlier did and 1 more: decorative', { overlap: { pairs: [pair(10, 0, 1)] } }, 'decorative', true],
  ['earlier caught 1 alone: not decorative', { overlap: { pairs: [pair(10, 1, 1)] } }, 'decorative', false],
  ['later caught nothing more: not decorative', { overlap: { pairs: [pair(10, 0, 0)] } }, 'decorative', false],
  ['decorative takes the place of contract-check for the same pair', { overlap: { pairs: [pair(100, 0, 1)] } }, 'contract-check', false],
  ['a pair with 30 calibration runs gets advice', { overlap: { pairs: [pair(10, 0, 1, 19)] } }, 'decorative', true],
  ['a pair with 29 calibration runs does not', { overlap: { pairs: [pair(10, 0, 1, 18)] } }, 'decorative', false],
];
for (const [title, over, kind, present] of thresholds) {
  test(`advice: ${title}`, () => {
    const advice = advise({ ...base, ...over });
    assert.is(kinds(advice).includes(kind), present, kinds(advice).join(', '));
  });
}

test('advice: the numbers behind each piece are in its text and figures', () => {
  const advice = advise({
    ...base,
    attempts: 12,
    rate: rate(12),
    tiers: [tier('t1', { median_s: 5, errors: 3, runs: 40, error_rate: 0.075, caught: 4 }), tier('t2', { median_s: 20 })],
    overlap: { pairs: [pair(37, 1, 2)] },
  });
  const by = Object.fromEntries(advice.map((a) => [a.kind, a]));
  // A short suite outranks too few attempts (one recommendation, see advice.test.ts): asked alone.
  const few = advise({ ...base, attempts: 12, rate: rate(12) }).find((a) => a.kind === 'too-few-attempts')!;
  assert.match(
    few.text,
    /^too few attempts: ratios are noise; choose the order by judgment and revisit\. 12 patch attempts a month \(12 in 1 month\), fewer than 30 a month/,
  );
  assert.match(
    by['short-feedback']!.text,
    /^short-feedback suite: the ladder's overhead likely exceeds what ordering saves\. The most expensive tier, t2, has a median of 20 s, under 30 s/,
  );
  assert.match(by.errors!.text, /^t1: 3 errors in 40 runs, error rate 7\.5 %, apart from its 4 catches/);
  assert.match(
    by['contract-check']!.text,
    /^t2: buying a contract check, not bug detection: keep it, but it does not earn its minutes\. In 70 calibration runs it caught 2 that t1 missed, of 40 caught by either/,
  );
  assert.equal(by['contract-check']!.figures, {
    earlier: 't1',
    later: 't2',
    patches: 70,
    both: 37,
    only_earlier: 1,
    only_later: 2,
    limit_percent: 5,
    from: 'calibration',
  });
  const deco = advise({ ...base, overlap: { pairs: [pair(10, 0, 3)] } }).find((a) => a.kind === 'decorative')!;
  assert.match(
    deco.text,
    /^t1: decorative: delete it rather than reorder\. In 43 calibration runs, t2 caught every patch t1 caught \(10\) and 3 more/,
  );
});

test('advice: short feedback names the dearest priced tier (the first of equals) with its figures; no priced tier, no such advice', () => {
  const short = (tiers: TierFigures[]) => advise({ ...base, tiers }).find((a) => a.kind === 'short-feedback');
  assert.equal(short([tier('big', { median_s: 20 }), tier('small', { median_s: 5 })])?.figures, { tier: 'big', median_s: 20, limit_s: 30 });
  assert.equal(short([tier('first', { median_s: 20 }), tier('second', { median_s: 20 })])?.figures.tier, 'first');
  assert.equal(short([tier('unpriced', { median_s: null }), tier('priced', { median_s: 7 })])?.figures.tier, 'priced');
  assert.is(short([tier('a', { median_s: null }), tier('b', { median_s: null })]), undefined);
  assert.is(short([]), undefined);
});

test('advice: errors carry their figures', () => {
  const errors = advise({ ...base, tiers: [tier('t1', { errors: 3, runs: 40, error_rate: 0.075, caught: 4 }), tier('t2')] }).filter(
    (a) => a.kind === 'errors',
  );
  assert.equal(
    errors.map((a) => a.figures),
    [{ tier: 't1', errors: 3, patch_errors: 0, runs: 40, error_rate: 0.075, caught: 4 }],
  );
});

test('advice: a tier calibration already calls a contract check is not called one again from ladder rows', () => {
  // t2 from ladder rows alone: 40 runs, 2 catches (5 %), a contract check.
  const ladderOnly = advise({ ...base, tiers: [tier('t1'), tier('t2', { caught: 2 })] }).filter((a) => a.kind === 'contract-check');
  assert.equal(
    ladderOnly.map((a) => [a.figures.later, a.figures.from]),
    [['t2', 'ladder']],
  );
  const both = advise({ ...base, tiers: [tier('t1'), tier('t2', { caught: 2 })], overlap: { pairs: [pair(37, 1, 2)] } }).filter(
    (a) => a.kind === 'contract-check',
  );
  assert.equal(
    both.map((a) => [a.figures.later, a.figures.from]),
    [['t2', 'calibration']],
  );
  // A decorative pair does not stand for a contract check.
  const deco = advise({ ...base, tiers: [tier('t1'), tier('t2', { caught: 2 })], overlap: { pairs: [pair(10, 0, 1)] } });
  assert.equal(
    deco.filter((a) => a.kind === 'contract-check').map((a) => a.figures.from),
    ['ladder'],
  );
});

test('advice: ladder rows never call the first tier that ran a contract check, even after tiers that never ran', () => {
  const advice = advise({
    ...base,
    tiers: [tier('never', { runs: 0, caught: 0, passes: 0, median_s: null }), tier('first', { caught: 1 }), tier('second', { caught: 1 })],
  });
  assert.equal(
    advice.filter((a) => a.kind === 'contract-check').map((a) => a.figures.later),
    ['second'],
  );
});

test('advice: order advice only when both orders are priced, with the orders as words', () => {
  const order = (current_s: number | null, recommended_s: number | null): OrderFigures => ({
    ...noOrder,
    current: ['a', 'b'],
    recommended: ['b', 'a'],
    current_s,
    recommended_s,
  });
  assert.not.ok(kinds(advise(base)).includes('order'));
  assert.not.ok(kinds(advise({ ...base, order: order(10, null) })).includes('order'));
  assert.not.ok(kinds(advise({ ...base, order: order(null, 8) })).includes('order'));
  const figures = advise({ ...base, order: order(10, 8) }).find((a) => a.kind === 'order')?.figures;
  assert.equal(figures, {
    current: 'a b',
    recommended: 'b a',
    current_s: 10,
    recommended_s: 8,
    method: 'independence',
    calibration_runs: 0,
  });
});

test('advice: minAttempts is configurable', () => {
  assert.ok(kinds(advise({ ...base, rate: rate(4) }, { minAttempts: 5 })).includes('too-few-attempts'));
  assert.not.ok(kinds(advise({ ...base, rate: rate(5) }, { minAttempts: 5 })).includes('too-few-attempts'));
});

test('order advice: equal ratios keep the order; a strictly cheaper order is recommended', () => {
  // The order advice alone: these tiers are quick and the patches few (one gate, or too few attempts, would outrank it).
  const alone = { shortFeedbackS: 0, minAttempts: 0 };
  const equal = report(
    [...repeat(4, (i) => row('a', i < 1 ? 'caught' : 'pass', 4)), ...repeat(4, (i) => row('b', i < 2 ? 'caught' : 'pass', 8))],
    alone,
  );
  assert.equal(equal.order.recommended, ['a', 'b']);
  assert.match(equal.advice.find((a) => a.kind === 'order')!.text, /^keep the order t0-scope → a → b: expected 10 s per patch/);
  const better = report(
    [...repeat(4, (i) => row('a', i < 1 ? 'caught' : 'pass', 4)), ...repeat(4, (i) => row('b', i < 2 ? 'caught' : 'pass', 7.996))],
    alone,
  );
  assert.equal(better.order.recommended, ['b', 'a']);
  assert.is(better.advice.find((a) => a.kind === 'order')!.figures.recommended_s, 9.996);
});

test('an empty ledger has zero figures and no advice', () => {
  const r = report([], { tiers: ['t1'] });
  assert.equal(r.advice, []);
  assert.is(r.attempts, 0);
  assert.equal(r.order.current_s, null);
  assert.equal(r.scope, { patches: 0, past: [], saved_s: 0 });
});

test('rowOrigin: the origin a sync stamped on the row, else the local one', () => {
  assert.is(rowOrigin({ origin: 'ci' }, 'here'), 'ci');
  assert.is(rowOrigin({}, 'here'), 'here');
  assert.is(rowOrigin({ origin: '' }, 'here'), 'here');
  assert.is(rowOrigin({ origin: 7 }, 'here'), 'here');
});

test('originFold: each origin folded apart, the local one first, then by name; refused rows named; empty tiers dropped', () => {
  const f = originFold({ tiers: ['lint', 'unit'] }, 'here');
  f.add(row('lint', 'pass', 2, { origin: 'zeta' }));
  f.add(row('lint', 'caught', 1));
  f.add(row('unit', 'pass', 4, { origin: 'alpha' }));
  f.add(row('unit', 'pass', 6, { origin: 'alpha' }));
  const out = f.finish({ beta: { rows: 3 }, alpha: { rows: 1 } });
  assert.equal(
    out.map((o) => [o.origin, o.rows, o.refused, o.tiers.map((t) => [t.tier, t.runs, t.caught, t.total_s])]),
    [
      ['here', 1, 0, [['lint', 1, 1, 1]]],
      ['alpha', 2, 1, [['unit', 2, 0, 10]]],
      ['beta', 0, 3, []],
      ['zeta', 1, 0, [['lint', 1, 0, 2]]],
    ],
  );
  assert.equal(originFold({}, 'here').finish(), []);
});

test("errors by cause: a patch's error rows and the harness's are counted apart, both among the tier's errors", () => {
  const r = report([
    row('unit', 'error', 1, { error_cause: 'patch' }),
    row('unit', 'error', 1, { error_cause: 'harness' }),
    row('unit', 'error', 1),
    row('unit', 'pass', 1),
  ]);
  assert.equal(r.errors, { patch: 1, harness: 2 });
  assert.is(r.tiers[0]?.errors, 3);
  assert.is(r.tiers[0]?.patch_errors, 1);
});

test.run();
