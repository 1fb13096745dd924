import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { row } from '../helpers/rows.js';
import { ONE_RECOMMENDATION, advise } from '../../src/report/advice.js';
import { report } from '../../src/report/figures.js';
import type { Advice, OrderFigures, PairOverlap, RateFigures, TierFigures } from '../../src/report/model.js';

// One recommendation for the ladder's shape and order: the report once said "consider one gate that runs
// everything" and "reorder to ..." side by side.

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
const rate = (attempts: number): RateFigures => ({ attempts, first: '2025-01-01', last: '2025-01-31', months: 1, per_month: attempts });
const reorder: OrderFigures = {
  current: ['t1', 't2'],
  recommended: ['t2', 't1'],
  current_s: 12,
  recommended_s: 9,
  unranked: [],
  priced: [],
  method: 'independence',
  calibration_runs: 0,
};
const decorative: PairOverlap = { earlier: 't1', later: 't2', patches: 43, both: 10, only_earlier: 0, only_later: 3, neither: 30 };
const base = {
  tiers: [tier('t1', { median_s: 60 }), tier('t2', { median_s: 90 })],
  overlap: { pairs: [] as PairOverlap[] },
  order: reorder,
  attempts: 30,
  rate: rate(30),
};
const shortTiers = [tier('t1', { median_s: 8 }), tier('t2', { median_s: 4 })];
const kinds = (a: Advice[]) => a.map((x) => x.kind);
const family = (a: Advice[]) => kinds(a).filter((k) => ONE_RECOMMENDATION.includes(k));

const cases: [string, Partial<typeof base>, Advice['kind'], string | undefined][] = [
  ['a short suite and a cheaper order: one gate, not the reorder', { tiers: shortTiers }, 'short-feedback', 'order'],
  [
    'a short suite, too few attempts and a cheaper order: one gate',
    { tiers: shortTiers, rate: rate(3) },
    'short-feedback',
    'too-few-attempts, order',
  ],
  ['a decorative tier and a cheaper order: delete it rather than reorder', { overlap: { pairs: [decorative] } }, 'decorative', 'order'],
  ['too few attempts and a cheaper order: judgment, not the noisy ratios', { rate: rate(3) }, 'too-few-attempts', 'order'],
  ['only a cheaper order: the reorder, chosen over nothing', {}, 'order', undefined],
];
for (const [title, over, chosen, chosenOver] of cases) {
  test(`one recommendation: ${title}`, () => {
    const advice = advise({ ...base, ...over });
    assert.equal(family(advice), [chosen], kinds(advice).join(', '));
    assert.is(advice.find((a) => a.kind === chosen)!.figures.chosen_over, chosenOver);
  });
}

test('advice on other questions stays beside the recommendation: errors, contract checks', () => {
  const advice = advise({
    ...base,
    tiers: [tier('t1', { median_s: 8, errors: 2, error_rate: 0.05 }), tier('t2', { median_s: 4, caught: 1 })],
  });
  assert.equal(kinds(advice), ['short-feedback', 'errors', 'contract-check']);
});

test('from ledger rows: a short suite whose order could be cheaper gets one piece of advice for it, the order section keeps its figures', () => {
  // b catches more per second than a, so the independence estimate says reorder; both are quick, so one gate.
  const rows = [
    ...Array.from({ length: 40 }, (_, i) => row('a', i < 4 ? 'caught' : 'pass', 4)),
    ...Array.from({ length: 36 }, (_, i) => row('b', i < 18 ? 'caught' : 'pass', 6)),
  ];
  const r = report(rows, { tiers: ['a', 'b'] });
  assert.equal(r.order.recommended, ['b', 'a']);
  assert.equal(family(r.advice), ['short-feedback'], kinds(r.advice).join(', '));
  assert.match(r.advice.find((a) => a.kind === 'short-feedback')!.text, 'consider one gate that runs everything');
  assert.not.ok(r.advice.some((a) => a.text.startsWith('reorder to')));
});

test.run();
