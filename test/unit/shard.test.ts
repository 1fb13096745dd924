import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assignShards, parseShard, patchDurations, selectShard } from '../../src/replay/shard.js';

const ids = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);

test('parseShard: i/n, and a sentence for anything else', () => {
  assert.equal(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '3', 'a/b', '1/0', '']) assert.type(parseShard(bad), 'string', bad);
});

for (const n of [1, 2, 3, 5, 12, 13]) {
  test(`every patch in exactly one of ${n} shards, without durations (round-robin) and with`, () => {
    const durations = new Map(ids.map((id, i) => [id, ((i * 7) % 5) + 0.5] as const));
    for (const d of [undefined, durations]) {
      const seen: string[] = [];
      for (let i = 1; i <= n; i++) seen.push(...selectShard(ids, (x) => x, { index: i, count: n }, d));
      assert.equal([...seen].sort(), ids);
    }
  });
}

test('round-robin: shard sizes differ by at most one, in list order', () => {
  assert.equal(
    selectShard(ids, (x) => x, { index: 1, count: 5 }),
    ['c00', 'c05', 'c10'],
  );
  assert.equal(
    selectShard(ids, (x) => x, { index: 5, count: 5 }),
    ['c04', 'c09'],
  );
});

test('with durations: longest first onto the least-loaded shard, so loads balance', () => {
  const d = new Map([
    ['a', 10],
    ['b', 1],
    ['c', 1],
    ['d', 1],
    ['e', 9],
    ['f', 2],
  ]);
  const a = assignShards(['a', 'b', 'c', 'd', 'e', 'f'], 2, d);
  const load = [0, 0];
  for (const [id, s] of a) load[s]! += d.get(id)!;
  assert.equal(load, [12, 12]);
  // the same input gives the same split
  assert.equal([...assignShards(['a', 'b', 'c', 'd', 'e', 'f'], 2, d)], [...a]);
});

test('unknown durations are priced at the mean of the known', () => {
  const a = assignShards(
    ['x', 'y', 'z', 'w'],
    2,
    new Map([
      ['x', 4],
      ['y', 4],
    ]),
  );
  assert.equal([...a.values()].filter((s) => s === 0).length, 2);
});

test('patchDurations: the first run of each patch, its tiers summed', () => {
  const d = patchDurations([
    { patch: 'p', run: 'r1', seconds: 1 },
    { patch: 'p', run: 'r1', seconds: 2 },
    { patch: 'p', run: 'r2', seconds: 50 },
    { patch: 'q', run: 'r3', seconds: 0.5 },
  ]);
  assert.equal(
    [...d],
    [
      ['p', 3],
      ['q', 0.5],
    ],
  );
});

test.run();
