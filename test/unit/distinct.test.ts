import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DistinctCounter } from '../../src/report/distinct.js';

test('counts each string once, across growth', () => {
  const d = new DistinctCounter();
  for (let round = 0; round < 3; round++) for (let i = 0; i < 5000; i++) d.add(`run-${i}`);
  assert.is(d.size, 5000);
});

test('add says whether the string was new', () => {
  const d = new DistinctCounter();
  assert.is(d.add('a'), true);
  assert.is(d.add('a'), false);
  assert.is(d.add(''), true);
  assert.is(d.add(''), false);
});

test('200,000 draws of 150,000 possible 12-hex run ids: the same count as a Set', () => {
  const d = new DistinctCounter();
  const set = new Set<string>();
  let x = 12345;
  for (let i = 0; i < 200_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const id = (x % 150_000).toString(16).padStart(12, '0');
    d.add(id);
    set.add(id);
  }
  assert.is(d.size, set.size);
});

test.run();
