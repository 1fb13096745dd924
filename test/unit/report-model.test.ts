/** The report's model (issue 19): exact order from calibration runs, ladder prefixes, routing, rates, retired tiers, seeds. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { row } from '../helpers/rows.js';
import { type FoldRow, NOT_APPLICABLE_PREFIX, isNotApplicable, replayRuns, report } from '../../src/report/figures.js';
import { bestReplayOrder, replaySeconds, type ReplayRun } from '../../src/report/order.js';
import { periods, weekStart } from '../../src/report/trend.js';
import { reportMsg } from '../../src/report/messages.js';
import type { Verdict } from '../../src/ledger/row.js';

/** A calibration run: every tier's verdict and seconds on one patch, in ladder order. */
const cal = (run: string, verdicts: [string, Verdict, number][], extra: Record<string, unknown> = {}): FoldRow[] =>
  verdicts.map(([tier, v, s]) => row(tier, v, s, { run, calibration: true, ...extra }));

// --- exact order evaluation -------------------------------------------------------------------

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

const replayCases: [string, number, ReplayRun[], number[], number][] = [
  // [title, tiers, runs, best order, its expected seconds]
  ['one run, the cheap tier catches: it goes first', 2, [{ pass: 0b01, seconds: [10, 1] }], [1, 0], 1],
  ['both pass: order does not matter, every tier runs', 2, [{ pass: 0b11, seconds: [10, 1] }], [0, 1], 11],
  [
    'overlap the independence rule cannot see: t2 catches exactly what t1 catches',
    3,
    [
      { pass: 0b100, seconds: [5, 6, 50] },
      { pass: 0b111, seconds: [5, 6, 50] },
      { pass: 0b011, seconds: [5, 6, 50] },
    ],
    // t1 → t3 → t2: run 1 stops at t1 (5), run 2 runs all (61), run 3 stops at t3 (55). t2 first or t3 first costs more.
    [0, 2, 1],
    121 / 3,
  ],
  [
    'a routed tier (pass bit, 0 s) never stops the ladder',
    2,
    [
      { pass: 0b10, seconds: [3, 20] },
      { pass: 0b01, seconds: [0, 20] },
    ],
    [0, 1],
    (3 + 20) / 2,
  ],
];
for (const [title, n, runs, order, seconds] of replayCases) {
  test(`exact order: ${title}`, () => {
    const best = bestReplayOrder(n, runs);
    assert.equal(best, order);
    assert.ok(Math.abs(replaySeconds(best, runs) - seconds) < 1e-9, String(replaySeconds(best, runs)));
    for (const p of permutations(n)) assert.ok(replaySeconds(best, runs) <= replaySeconds(p, runs) + 1e-9, p.join());
  });
}

test('exact order: the search over sets of tiers finds the cheapest of every permutation (random runs)', () => {
  let x = 12345;
  const rnd = () => (x = (x * 48271) % 2147483647) / 2147483647;
  for (let trial = 0; trial < 40; trial++) {
    const n = 1 + (trial % 5);
    const runs: ReplayRun[] = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => ({
      pass: Math.floor(rnd() * (1 << n)),
      seconds: Array.from({ length: n }, () => Math.round(rnd() * 100) / 10),
    }));
    const cheapest = Math.min(...permutations(n).map((p) => replaySeconds(p, runs)));
    assert.ok(Math.abs(replaySeconds(bestReplayOrder(n, runs), runs) - cheapest) < 1e-9, `trial ${trial}`);
  }
});

test('report: with calibration runs the order is exact, and the advice says so; without, it says it assumes independence', () => {
  // t1 and t2 catch the same patches; t3 catches others. Independence would price them apart.
  const rows = [
    ...cal('a', [
      ['t1', 'caught', 2],
      ['t2', 'caught', 20],
      ['t3', 'pass', 4],
    ]),
    ...cal('b', [
      ['t1', 'pass', 2],
      ['t2', 'pass', 20],
      ['t3', 'caught', 4],
    ]),
    ...cal('c', [
      ['t1', 'pass', 2],
      ['t2', 'pass', 20],
      ['t3', 'pass', 4],
    ]),
  ];
  // Quick tiers and three patches: the order advice is asked for alone (else one gate, or too few attempts, outranks it: advice.ts).
  const r = report(rows, { tiers: ['t1', 't2', 't3'], shortFeedbackS: 0, minAttempts: 0 });
  assert.is(r.order.method, 'calibration');
  assert.is(r.order.calibration_runs, 3);
  assert.equal(r.order.current, ['t1', 't2', 't3']);
  // current: a 2; b 2+20+4; c 26 → 54 / 3 = 18. Best: t1 → t3 → t2: a 2; b 2+4; c 26 → 34 / 3.
  assert.is(r.order.current_s, 18);
  assert.equal(r.order.recommended, ['t1', 't3', 't2']);
  assert.is(r.order.recommended_s, 11.333);
  const text = r.advice.find((a) => a.kind === 'order')!.text;
  assert.match(text, /^reorder to t0-scope → t1 → t3 → t2: expected 11\.333 s per patch instead of 18 s/);
  assert.match(text, /exact: 3 calibration runs replayed under each order, each stopping at its first non-pass/);
  assert.not.match(text, /independently/);

  const ladder = report([row('t1', 'pass', 2), row('t2', 'caught', 20)], { tiers: ['t1', 't2'], shortFeedbackS: 0, minAttempts: 0 });
  assert.is(ladder.order.method, 'independence');
  assert.match(
    ladder.advice.find((a) => a.kind === 'order')!.text,
    /assumes tiers fail independently \(no calibration run covers every tier\)/,
  );
});

test('report: calibration runs that miss a ranked tier cannot be replayed; the estimate falls back to independence', () => {
  const rows = [
    ...cal('a', [
      ['t1', 'pass', 1],
      ['t2', 'caught', 5],
    ]),
    row('t3', 'pass', 9),
  ];
  const r = report(rows, { tiers: ['t1', 't2', 't3'] });
  assert.is(r.order.method, 'independence');
  assert.is(r.order.calibration_runs, 0);
});

test('report: a tier routed past in a calibration run is replayed as a free pass', () => {
  const rows = [
    ...cal('a', [['t2', 'caught', 5]], { skipped: ['t1'] }),
    ...cal('b', [
      ['t1', 'pass', 1],
      ['t2', 'pass', 5],
    ]),
  ];
  const r = report(rows, { tiers: ['t1', 't2'] });
  assert.is(r.order.method, 'calibration');
  assert.is(r.order.calibration_runs, 2);
  assert.is(r.order.current_s, 5.5);
});

// --- calibration runs as ladder attempts ---------------------------------------------------------

const prefixCases: [string, [string, Verdict, number][], [string, number, number][], number][] = [
  // [title, verdicts in ladder order, counted [tier, runs, caught], rows past the prefix]
  [
    'all pass: every row counts',
    [
      ['t1', 'pass', 1],
      ['t2', 'pass', 2],
    ],
    [
      ['t1', 1, 0],
      ['t2', 1, 0],
    ],
    0,
  ],
  [
    't1 catches: only t1 counts',
    [
      ['t1', 'caught', 1],
      ['t2', 'caught', 2],
    ],
    [
      ['t1', 1, 1],
      ['t2', 0, 0],
    ],
    1,
  ],
  [
    't2 catches: t1 and t2 count, t3 does not',
    [
      ['t1', 'pass', 1],
      ['t2', 'caught', 2],
      ['t3', 'pass', 3],
    ],
    [
      ['t1', 1, 0],
      ['t2', 1, 1],
      ['t3', 0, 0],
    ],
    1,
  ],
  [
    'an error also ends the ladder run',
    [
      ['t1', 'error', 1],
      ['t2', 'caught', 2],
    ],
    [
      ['t1', 1, 0],
      ['t2', 0, 0],
    ],
    1,
  ],
];
for (const [title, verdicts, counted, past] of prefixCases) {
  test(`calibration prefix: ${title}`, () => {
    const r = report(cal('x', verdicts), { tiers: verdicts.map((v) => v[0]) });
    assert.equal(
      r.tiers.map((t) => [t.tier, t.runs, t.caught]),
      counted,
    );
    assert.is(r.excluded.calibration, past);
    assert.is(r.overlap.counted_rows, verdicts.length - past);
    assert.is(r.attempts, 1);
  });
}

test('40 calibrated commits fill the tier table (the replay --calibrate case of the issue)', () => {
  const rows = Array.from({ length: 40 }, (_, i) =>
    cal(
      `c${i}`,
      i % 3 === 0
        ? [['t2', 'pass', 10]]
        : [
            ['t1', i % 5 === 0 ? 'caught' : 'pass', 1],
            ['t2', 'pass', 10],
          ],
      i % 3 === 0 ? { skipped: ['t1'] } : {},
    ),
  ).flat();
  const r = report(rows, { tiers: ['t1', 't2'] });
  assert.is(r.attempts, 40);
  assert.ok(r.tiers.every((t) => t.runs > 0));
  // 14 of 40 were routed past t1 (i = 0, 3, …, 39): t0-scope's routing counts from calibration rows.
  assert.is(r.scope.patches, 14);
  assert.equal(
    r.scope.past.map((p) => [p.tier, p.patches]),
    [['t1', 14]],
  );
  assert.not.match(reportMsg.noRoutes(), /14/);
});

// --- monthly rate ----------------------------------------------------------------------------

const rateCases: [string, string[], number, number][] = [
  // [title, days of the runs, months, per month]
  ['one day: one month at least', ['2025-03-01', '2025-03-01'], 1, 2],
  ['a fortnight: still one month', ['2025-03-01', '2025-03-14'], 1, 2],
  ['three months and a day: 91 days', ['2025-01-01', '2025-02-01', '2025-04-01'], 2.99, 1.003],
];
for (const [title, days, months, perMonth] of rateCases) {
  test(`monthly rate: ${title}`, () => {
    const r = report(days.map((d) => row('t1', 'pass', 1, { ts: `${d}T12:00:00.000Z` })));
    assert.is(r.rate.months, months);
    assert.is(r.rate.per_month, perMonth);
    assert.is(r.rate.first, days[0]);
    assert.is(r.rate.last, days[days.length - 1]);
  });
}

test('too-few-attempts reads the monthly rate: 40 attempts in four months is 10 a month', () => {
  const rows = Array.from({ length: 40 }, (_, i) =>
    row('t1', 'pass', 1, { ts: new Date(Date.UTC(2025, 0, 1) + i * 3 * 86_400_000).toISOString() }),
  );
  // One-second tiers: short feedback would outrank it (advice.ts), so it is asked for alone.
  const r = report(rows, { shortFeedbackS: 0 });
  const a = r.advice.find((x) => x.kind === 'too-few-attempts')!;
  assert.ok(a, 'fires');
  assert.equal([a.figures.attempts, a.figures.per_month], [40, 10.32]);
  assert.match(a.text, /10\.32 patch attempts a month \(40 in 3\.88 months\), fewer than 30 a month/);
});

// --- contract check from ladder rows ----------------------------------------------------------

const contractCases: [string, number, number, boolean][] = [
  // [title, runs reaching t2, t2's catches, advice for t2]
  ['reached 40 times, caught 2 (5 %): a contract check', 40, 2, true],
  ['reached 40 times, caught 3 (7.5 %): earns its minutes', 40, 3, false],
  ['reached 29 times, caught 0: too few to judge', 29, 0, false],
  ['reached 30 times, caught 0: a contract check', 30, 0, true],
];
for (const [title, runs, caught, fires] of contractCases) {
  test(`contract check from ladder rows: ${title}`, () => {
    const rows = [
      ...Array.from({ length: 20 }, () => row('t1', 'caught', 1)),
      ...Array.from({ length: runs }, (_, i) => {
        const run = `l${i}`;
        return [row('t1', 'pass', 1, { run }), row('t2', i < caught ? 'caught' : 'pass', 60, { run })];
      }).flat(),
    ];
    const r = report(rows, { tiers: ['t1', 't2'] });
    const advice = r.advice.filter((a) => a.kind === 'contract-check');
    assert.is(advice.length, fires ? 1 : 0);
    if (fires) {
      assert.equal(advice[0]!.figures, { later: 't2', runs, caught, limit_percent: 5, from: 'ladder' });
      assert.match(
        advice[0]!.text,
        new RegExp(
          `^t2: buying a contract check, not bug detection: keep it, but it does not earn its minutes\\. Reached by ${runs} patches, it caught ${caught}`,
        ),
      );
    }
  });
}

test('contract check from ladder rows: never for the first tier, whatever it catches', () => {
  const r = report(
    Array.from({ length: 50 }, () => row('t1', 'pass', 1)),
    { tiers: ['t1'] },
  );
  assert.not.ok(r.advice.some((a) => a.kind === 'contract-check'));
});

// --- retired tiers, seeds, not applicable ---------------------------------------------------------

test('tiers no longer in the config are listed apart as retired, out of the order and the advice', () => {
  const rows = [row('t1', 'pass', 1), row('old', 'error', 1), row('old', 'caught', 0.1), row('t2', 'caught', 5)];
  const r = report(rows, { tiers: ['t1', 't2'] });
  assert.equal(
    r.tiers.map((t) => t.tier),
    ['t1', 't2'],
  );
  assert.equal(
    r.retired.map((t) => [t.tier, t.runs, t.caught, t.errors]),
    [['old', 2, 1, 1]],
  );
  assert.not.ok([...r.order.current, ...r.order.recommended, ...r.order.unranked].includes('old'));
  assert.not.ok(r.advice.some((a) => JSON.stringify(a.figures).includes('old')));
  // Without a config every tier seen is current.
  assert.equal(report(rows).retired, []);
});

test('seeded bugs per tier: how many each tier caught, and how many escaped every tier', () => {
  const seed = (run: string, verdicts: [string, Verdict][]) =>
    verdicts.map(([tier, v]) => row(tier, v, 1, { run, hook: 'seed', source: 'seed' }));
  const rows = [
    ...seed('s1', [
      ['t1', 'caught'],
      ['t2', 'caught'],
    ]),
    ...seed('s2', [
      ['t1', 'pass'],
      ['t2', 'caught'],
    ]),
    ...seed('s3', [
      ['t1', 'pass'],
      ['t2', 'pass'],
    ]),
    ...seed('s4', [
      ['t1', 'error'],
      ['t2', 'pass'],
    ]),
    row('t1', 'pass', 1),
  ];
  const r = report(rows, { tiers: ['t1', 't2'] });
  assert.equal(r.seeds, {
    runs: 4,
    caught: 2,
    tiers: [
      { tier: 't1', runs: 4, caught: 1, errors: 1 },
      { tier: 't2', runs: 4, caught: 2, errors: 0 },
    ],
  });
  assert.is(r.excluded.seed, 8);
  assert.is(r.tiers[0]!.runs, 1);
});

test(`error rows whose reason starts "${NOT_APPLICABLE_PREFIX}" are counted apart, not as errors`, () => {
  const na = { reason: `${NOT_APPLICABLE_PREFIX} no pytest tests at this commit` };
  assert.ok(isNotApplicable({ verdict: 'error', reason: na.reason }));
  assert.not.ok(isNotApplicable({ verdict: 'error', reason: 'timed out after 3 s' }));
  assert.not.ok(isNotApplicable({ verdict: 'pass', reason: na.reason }));
  const r = report([row('t1', 'error', 2, na), row('t1', 'error', 2, { reason: 'exit 4: usage error' }), row('t1', 'pass', 1)], {
    tiers: ['t1'],
  });
  assert.equal([r.tiers[0]!.runs, r.tiers[0]!.errors, r.tiers[0]!.not_applicable], [2, 1, 1]);
  assert.is(r.excluded.not_applicable, 1);
});

test('a tier named t0-scope appears once in the order text', () => {
  const r = report([row('t0-scope', 'pass', 1), row('t1', 'caught', 1)], { tiers: ['t0-scope', 't1'], shortFeedbackS: 0, minAttempts: 0 });
  const text = r.advice.find((a) => a.kind === 'order')!.text;
  assert.is(text.split('t0-scope →').length - 1, 1, text);
});

// --- trend -------------------------------------------------------------------------------------

test('weekStart: the Monday of the ISO week', () => {
  for (const [day, monday] of [
    ['2025-03-03', '2025-03-03'],
    ['2025-03-09', '2025-03-03'],
    ['2025-03-10', '2025-03-10'],
    ['2025-01-01', '2024-12-30'],
  ]) {
    assert.is(weekStart(day!), monday);
  }
  assert.equal(periods('month', '2024-11-20', '2025-02-02'), ['2024-11-01', '2024-12-01', '2025-01-01', '2025-02-01']);
});

test('trend: per week for a short span (gaps as zeros), per month for a long one', () => {
  const at = (day: string, verdict: Verdict, tier = 't1') => row(tier, verdict, 2, { ts: `${day}T08:00:00.000Z` });
  const short = report([at('2025-03-03', 'caught'), at('2025-03-04', 'pass'), at('2025-03-19', 'pass'), at('2025-03-19', 'caught', 't2')], {
    tiers: ['t1', 't2'],
  });
  assert.is(short.trend.unit, 'week');
  assert.equal(short.trend.periods, ['2025-03-03', '2025-03-10', '2025-03-17']);
  assert.equal(short.trend.tiers[0], {
    tier: 't1',
    runs: [2, 0, 1],
    caught: [1, 0, 0],
    total_s: [4, 0, 2],
    yield: [0.25, null, 0],
    catch_rate: [0.5, null, 0],
  });
  const long = report([at('2025-01-15', 'caught'), at('2025-09-01', 'pass')]);
  assert.is(long.trend.unit, 'month');
  assert.is(long.trend.periods.length, 9);
  assert.equal(long.trend.tiers[0]!.runs, [1, 0, 0, 0, 0, 0, 0, 0, 1]);
});

// --- edges the mutation tests found unpinned (docs/testing.md) ------------------------------------

test('a row marked applicable: false is not applicable whatever its verdict; applicable: true needs the reason prefix', () => {
  assert.ok(isNotApplicable({ verdict: 'pass', applicable: false }));
  assert.not.ok(isNotApplicable({ verdict: 'error', applicable: true, reason: 'exit 2' }));
  assert.ok(isNotApplicable({ verdict: 'error', applicable: true, reason: `${NOT_APPLICABLE_PREFIX} x` }));
});

test('rows without a run id count their patch as the attempt', () => {
  const r = report([
    row('t1', 'pass', 1, { run: undefined, patch: 'a' }),
    row('t1', 'pass', 1, { run: 3, patch: 'b' }),
    row('t1', 'caught', 1, { run: undefined, patch: 'a' }),
  ]);
  assert.is(r.attempts, 2);
});

test('an unapplied patch of a tier never seen makes no tier line; of a known tier it is counted on that line', () => {
  const r = report([row('new', 'error', 1, { applied: false }), row('t1', 'pass', 1), row('t1', 'error', 1, { applied: false })]);
  assert.equal(
    r.tiers.map((t) => [t.tier, t.runs, t.not_applied]),
    [['t1', 1, 1]],
  );
  assert.is(r.excluded.not_applied, 2);
});

test('routed-past lists: only strings name tiers', () => {
  const r = report([row('t2', 'pass', 1, { run: 'a', skipped: ['t1', 3, null] }), row('t2', 'pass', 1, { run: 'b', skipped: 't1' })]);
  assert.equal(
    r.tiers.map((t) => t.tier),
    ['t2', 't1'],
  );
  assert.equal(
    r.scope.past.map((p) => [p.tier, p.patches]),
    [['t1', 1]],
  );
  assert.is(r.scope.patches, 1);
});

test('the trend leaves out configured tiers without runs; an empty ledger is one month with no rate', () => {
  const r = report([row('t1', 'pass', 1)], { tiers: ['t1', 't2'] });
  assert.equal(
    r.trend.tiers.map((t) => t.tier),
    ['t1'],
  );
  assert.equal(report([]).rate, { attempts: 0, first: null, last: null, months: 1, per_month: 0 });
});

test('a tier that never catches has no ratio in the priced list', () => {
  const r = report([row('t1', 'pass', 2), row('t2', 'caught', 4), row('t2', 'pass', 4)]);
  assert.equal(
    r.order.priced.map((p) => [p.tier, p.ratio]),
    [
      ['t1', null],
      ['t2', 8],
    ],
  );
});

test('exact order: a calibration run that routed past a tier replays it as a free pass; tiers with neither runs nor calibration stay unranked', () => {
  const rows = [
    ...cal('c1', [['t2', 'caught', 10]], { skipped: ['t1'] }),
    ...cal('c2', [
      ['t1', 'caught', 1],
      ['t2', 'pass', 10],
    ]),
  ];
  const r = report(rows, { tiers: ['t1', 't2', 'unused'] });
  assert.is(r.order.method, 'calibration');
  assert.is(r.order.calibration_runs, 2);
  assert.equal(r.order.current, ['t1', 't2']);
  assert.equal(r.order.unranked, ['unused']);
  // c1: t1 routed past (0 s), t2 10 s; c2: t1 catches after 1 s. (10 + 1) / 2.
  assert.is(r.order.current_s, 5.5);
});

test('exact order: up to MAX_EXACT_TIERS tiers from calibration runs; more are estimated', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
  const runOf = (n: number, run: string) =>
    cal(
      run,
      names(n).map((t, i) => [t, i === n - 1 ? 'caught' : 'pass', 1] as [string, Verdict, number]),
    );
  assert.is(report([...runOf(12, 'a'), ...runOf(12, 'b')]).order.method, 'calibration');
  assert.is(report([...runOf(13, 'a'), ...runOf(13, 'b')]).order.method, 'independence');
});

test('seeded bugs: a run counts as caught when any of its rows caught it; tiers seen only in seed rows come after the ladder', () => {
  const seed = (run: string, tier: string, v: Verdict) => row(tier, v, 1, { run, hook: 'seed', source: 'seed' });
  const r = report(
    [seed('s1', 'extra', 'pass'), seed('s1', 't2', 'caught'), seed('s1', 't1', 'pass'), seed('s2', 't1', 'pass'), seed('s3', 't1', 'pass')],
    { tiers: ['t1', 't2', 't3'] },
  );
  assert.equal(r.seeds.runs, 3);
  assert.equal(r.seeds.caught, 1);
  assert.equal(
    r.seeds.tiers.map((t) => t.tier),
    ['t1', 't2', 'extra'],
  );
});

test('replayRuns: a tier routed past is a free pass; a run missing a tier is left out', () => {
  const run = (verdicts: [string, Verdict, number][], skipped: string[] = []) => ({
    verdicts: new Map(verdicts.map(([t, verdict, seconds]) => [t, { verdict, seconds }])),
    skipped,
    stopped: false,
  });
  assert.equal(
    replayRuns(
      ['t1', 't2'],
      [
        run([['t2', 'pass', 10]], ['t1']),
        run([
          ['t1', 'caught', 1],
          ['t2', 'pass', 10],
        ]),
        run([['t1', 'pass', 1]]),
      ],
    ),
    [
      { pass: 0b11, seconds: [0, 10] },
      { pass: 0b10, seconds: [1, 10] },
    ],
  );
});

test('calibration runs of retired tiers only: the order is estimated from the current tiers', () => {
  const r = report([...cal('c1', [['old', 'caught', 1]]), row('t1', 'pass', 2)], { tiers: ['t1'] });
  assert.is(r.order.method, 'independence');
  assert.is(report(cal('c1', [['old', 'caught', 1]]), { tiers: ['t1'] }).order.method, 'independence');
});

test.run();
