import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bestOrder, costRatio, expectedSeconds, replaySeconds, type PricedTier } from '../../src/report/order.js';

const t = (tier: string, cost: number, p: number): PricedTier => ({ tier, cost, p });

const cases: [string, PricedTier[], string[], number][] = [
  ['already best', [t('a', 1, 0.5), t('b', 10, 0.5)], ['a', 'b'], 6],
  ['cheap and sharp goes first', [t('slow', 10, 0.1), t('cheap', 2, 0.5)], ['cheap', 'slow'], 7],
  ['a tier that never catches goes last', [t('never', 1, 0), t('b', 100, 0.5)], ['b', 'never'], 100.5],
  ['a free tier that catches goes first', [t('b', 5, 0.5), t('free', 0, 0.1)], ['free', 'b'], 4.5],
  ['equal ratios keep their order', [t('a', 4, 0.25), t('b', 8, 0.5)], ['a', 'b'], 10],
  ['a tier that always catches stops the rest', [t('x', 50, 0.5), t('all', 1, 1)], ['all', 'x'], 1],
];
for (const [title, tiers, order, seconds] of cases) {
  test(`order: ${title}`, () => {
    const best = bestOrder(tiers);
    assert.equal(
      best.map((x) => x.tier),
      order,
    );
    assert.is(expectedSeconds(best), seconds);
    for (const perm of [tiers, [...tiers].reverse()]) assert.ok(expectedSeconds(best) <= expectedSeconds(perm));
  });
}

test('costRatio: never-catching tiers are Infinity, free catching tiers 0', () => {
  assert.is(costRatio(t('a', 3, 0)), Infinity);
  assert.is(costRatio(t('a', 0, 0)), Infinity);
  assert.is(costRatio(t('a', 0, 0.2)), 0);
  assert.is(costRatio(t('a', 3, 0.5)), 6);
});

test('expectedSeconds of no tiers is 0', () => {
  assert.is(expectedSeconds([]), 0);
});

test('ties keep their given order, however many and wherever they sit', () => {
  const tied = [t('c', 4, 0.25), t('a', 8, 0.5), t('b', 2, 0.125), t('d', 16, 1)];
  assert.equal(
    bestOrder(tied).map((x) => x.tier),
    ['c', 'a', 'b', 'd'],
  );
  assert.equal(
    bestOrder([...tied].reverse()).map((x) => x.tier),
    ['d', 'b', 'a', 'c'],
  );
  const mixed = [t('z', 30, 0.5), t('y', 4, 0.25), t('first', 1, 0.5), t('x', 16, 1), t('never', 1, 0), t('w', 2, 0.125)];
  assert.equal(
    bestOrder(mixed).map((x) => x.tier),
    ['first', 'y', 'x', 'w', 'z', 'never'],
  );
});

test('replaySeconds of no runs is 0, not NaN', () => {
  assert.is(replaySeconds([0, 1], []), 0);
  assert.is(replaySeconds([0, 1], [{ pass: 0b01, seconds: [2, 3] }]), 5);
  assert.is(replaySeconds([1, 0], [{ pass: 0b01, seconds: [2, 3] }]), 3);
});

test.run();
