import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { foldHistory, type TestRecord } from '../../src/evidence/history.js';
import { renderTestsSection, testsFold } from '../../src/report/tests-section.js';
import type { Freeze } from '../../src/evidence/freeze.js';

const policy = { minRuns: 4, minFlipRate: 0.2 };
let n = 0;
/** One run of tier `tier` on tree `tree`: `fail` failed, `pass` passed. */
const rec = (tier: string, tree: string, pass: string[], fail: string[], extra: Partial<TestRecord> = {}): TestRecord => ({
  ts: `2025-03-01T10:${String(n).padStart(2, '0')}:00.000Z`,
  run: `r${n++}`,
  tier,
  hook: 'pre-push',
  patch: tree,
  tree,
  pass,
  fail,
  skip: [],
  ...extra,
});

/** t1 on one tree six times: `flip` alternates, `steady` passes, `broken` fails, `rare` flips once; `seeded` has evidence. */
function history() {
  const records: TestRecord[] = [];
  for (let i = 0; i < 6; i++) {
    const odd = i % 2 === 1;
    records.push(
      rec(
        't1',
        'T',
        ['steady', ...(odd ? [] : ['flip', 'seeded']), ...(i === 5 ? [] : ['rare'])],
        ['broken', ...(odd ? ['flip', 'seeded'] : []), ...(i === 5 ? ['rare'] : [])],
      ),
    );
  }
  records.push(rec('t1', 'S', ['x'], ['seeded'], { source: 'seed', change: 'P:S' }));
  // t2: one run per tree: no flip rate at all.
  records.push(rec('t2', 'A', [], ['flip']), rec('t2', 'B', ['flip'], []));
  return foldHistory(records);
}

test('one model: each flaky test judged by the freeze predicate, may-freeze first, broken apart, counts per tier', () => {
  const fold = testsFold();
  fold.add({ run: 'a', patch: 'p', tier: 't1', verdict: 'pass', seconds: 1 });
  fold.add({ run: 'b', patch: 'p', tier: 't1', verdict: 'pass', seconds: 1, frozen: ['flip'] });
  const s = fold.finish(['t1', 't2'], history(), [], '2025-03-02', policy);
  const t1 = s.tiers.find((t) => t.tier === 't1')!;
  assert.equal([t1.passes, t1.plain_passes, t1.frozen_passes, t1.tests], [2, 1, 1, 5]);
  assert.equal(
    t1.flaky.map((f) => [f.id, f.runs, f.fails, f.flips, f.same_code_runs, f.flip_rate, f.evidence, f.eligible]),
    [
      ['seeded', 6, 3, 5, 5, 1, 1, true],
      ['flip', 6, 3, 5, 5, 1, 0, false],
      ['rare', 6, 1, 1, 5, 0.2, 0, false],
    ],
  );
  assert.is(t1.flaky[0]!.reason, 'freeze with expiry, flip_rate=1.000');
  assert.is(t1.flaky[1]!.reason, 'no sensitivity evidence; rewrite or delete');
  assert.is(t1.flaky[2]!.reason, 'no sensitivity evidence; rewrite or delete');
  assert.equal([t1.flaky_count, t1.eligible_count], [3, 1]);
  assert.equal(t1.broken, [{ id: 'broken', runs: 6 }]);
  // t2's test changed outcome across trees, never on one: not flaky.
  const t2 = s.tiers.find((t) => t.tier === 't2')!;
  assert.equal([t2.tests, t2.flaky_count, t2.broken_count], [1, 0, 0]);
  // A stricter threshold: the rare flipper is judged "not actually flaky", still listed as flaky by its flips.
  const strict = testsFold().finish(['t1'], history(), [], '2025-03-02', { minRuns: 4, minFlipRate: 0.5 });
  assert.is(strict.tiers[0]!.flaky.find((f) => f.id === 'rare')!.reason, 'not actually flaky (0.200)');
  // Too few runs for the policy: nothing is broken yet, and nothing may be frozen.
  const young = testsFold().finish(['t1'], history(), [], '2025-03-02', { minRuns: 50, minFlipRate: 0.2 });
  assert.equal([young.tiers[0]!.broken_count, young.tiers[0]!.eligible_count], [0, 0]);
});

test('the text says what the JSON says: flip figures, the predicate reason, and freezes in expiry order', () => {
  const freezes: Freeze[] = [
    {
      test: 'b',
      tier: 't1',
      flip_rate: 0.5,
      runs: 20,
      flips: 10,
      evidence: 1,
      by: 'x',
      at: '2025-01-01T00:00:00Z',
      expires: '2025-04-01',
      reentry: 'fixed',
    },
    {
      test: 'a',
      flip_rate: 0.5,
      runs: 20,
      flips: 10,
      evidence: 1,
      by: 'x',
      at: '2025-01-01T00:00:00Z',
      expires: '2025-03-01',
      reentry: 'r\u001b[31m',
    },
  ];
  const s = testsFold().finish(['t1'], history(), freezes, '2025-03-02', policy, 2);
  assert.equal(
    s.freezes.map((f) => [f.test, f.active]),
    [
      ['a', false],
      ['b', true],
    ],
  );
  assert.is(s.today, '2025-03-02');
  const text = renderTestsSection(s, false);
  assert.match(text, '    flaky (outcome changed on the same code): 3, 1 of them may be frozen\n');
  assert.match(text, '      seeded: 5 flips in 5 same-code runs (1); freeze with expiry, flip_rate=1.000\n');
  assert.match(text, '      ... and 1 more (gate-ladder flaky)\n');
  assert.match(text, '  a: EXPIRED: counts again since 2025-03-01 UTC; re-entry: r\\x1b[31m\n');
  assert.not.match(text, '\u001b');
});

test('markdown: a test id or freeze note carrying HTML is text on the page', () => {
  const freezes: Freeze[] = [
    {
      test: '<svg onload=alert(1)>',
      tier: '<script>x</script>',
      flip_rate: 0.5,
      runs: 20,
      flips: 10,
      evidence: 1,
      by: 'x',
      at: '2025-01-01T00:00:00Z',
      expires: '2025-04-01',
      reentry: '<img src=x onerror=alert(1)>',
    },
  ];
  const md = renderTestsSection(testsFold().finish(['t1'], history(), freezes, '2025-03-02', policy, 2), true);
  assert.not.match(md, /<svg|<script|<img/i);
  assert.match(md, '&lt;svg onload=alert(1)&gt; [&lt;script&gt;x&lt;/script&gt;]');
});

test.run();
