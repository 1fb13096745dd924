/** The HTML page and its charts as text (the browser test opens them: test/integration/report-html.test.ts). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { esc, printable } from '../../src/report/escape.js';
import { report } from '../../src/report/figures.js';
import { renderHtml } from '../../src/report/html.js';
import { barChart, lineChart, niceCeil, scatterChart, tick } from '../../src/report/svg.js';

const escapes: [string, string][] = [
  ['plain', 'plain'],
  ['<script>alert("x")</script>', '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'],
  ["a & b's", 'a &amp; b&#39;s'],
  ['bell\u0007 and escape\u001b[2J', 'bell\\u0007 and escape\\u001b[2J'],
];
for (const [input, output] of escapes) test(`esc: ${JSON.stringify(input)}`, () => assert.is(esc(input), output));

test('printable leaves text alone but makes control characters visible', () => {
  assert.is(printable('t1 → t2'), 't1 → t2');
  assert.is(printable('a\nb'), 'a\\u000ab');
});

const ceilings: [number, number][] = [
  [0, 1],
  [0.07, 0.08],
  [1, 1],
  [53, 60],
  [14809, 15000],
  [0.0027, 0.003],
  [101, 120],
];
for (const [x, want] of ceilings) test(`niceCeil(${x}) = ${want}`, () => assert.is(niceCeil(x), want));

test('tick: three significant digits', () => {
  assert.equal([tick(0), tick(0.125), tick(7500), tick(1 / 3)], ['0', '0.125', '7500', '0.333']);
});

test('charts: one series, point or bar per figure, names escaped, a gap for null', () => {
  const line = lineChart(['w1', 'w2', 'w3'], [{ name: '<t1>', values: [1, null, 2] }], 'yield');
  assert.is(line.match(/<circle/g)!.length, 2);
  assert.match(line, /d="M[\d.,]+M[\d.,]+"/);
  assert.ok(line.includes('data-series="&lt;t1&gt;"'));
  assert.not.ok(line.includes('<t1>'));
  const dots = scatterChart(
    [
      { name: 'a', x: 10, y: 2 },
      { name: 'b', x: 0, y: 0 },
    ],
    's',
    'caught',
  );
  assert.is(dots.match(/data-tier=/g)!.length, 2);
  assert.is(barChart([{ name: 'x', value: 3 }], 'saved').match(/<rect/g)!.length, 1);
});

test('the page: every section in order, no script, nothing to fetch, a policy that forbids fetching', () => {
  const r = report([{ run: 'a', patch: 'p', tier: 't1', verdict: 'caught', seconds: 1, ts: '2025-03-03T10:00:00Z' }], { tiers: ['t1'] });
  const page = renderHtml(r, { tiers: [], freezes: [], today: '2025-03-04' }, '/x/ledger.jsonl');
  assert.equal(
    [...page.matchAll(/<section id="([a-z]+)"/g)].map((m) => m[1]),
    ['tiers', 'trend', 'cost', 'scope', 'overlap', 'order', 'advice', 'seeds', 'tests'],
  );
  assert.not.match(page, /<script|<link|@import|url\(|src="http/);
  // The only address in the page is SVG's namespace name, which is never fetched.
  assert.equal([...new Set(page.match(/https?:\/\/[^\s"'<)]+/g))], ['http://www.w3.org/2000/svg']);
  assert.match(page, /content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"/);
  assert.match(page, /@media \(prefers-color-scheme:dark\)/);
  assert.match(page, /@media print/);
});

test('the order section: the predicted-against-fixed evaluation, or why there is none', () => {
  const r = report([{ run: 'a', patch: 'p', tier: 't1', verdict: 'caught', seconds: 1, ts: '2025-03-03T10:00:00Z' }], { tiers: ['t1'] });
  const orderOf = (page: string) => /<section id="order">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
  assert.not.match(orderOf(renderHtml(r)), 'data-order-eval');
  const none = orderOf(renderHtml(r, undefined, undefined, undefined, { patches: 0, catching_patches: 0, reason: 'no <calibration> run' }));
  assert.match(none, '<div data-order-eval="none">');
  assert.match(none, 'not evaluated: no &lt;calibration&gt; run');
  const side = (median: number | null, missed: number) => ({ median_seconds_to_first_catch: median, mean_apfdc: 0.5, missed });
  const done = orderOf(
    renderHtml(r, undefined, undefined, undefined, {
      patches: 6,
      catching_patches: 3,
      fixed: side(12, 0),
      predicted: side(6, 0),
      ratio: 0.5,
      select: null,
    }),
  );
  assert.match(done, 'data-order-eval="evaluated" data-ratio="0.5"');
  assert.match(done, /<tr data-order-eval="fixed"><th>fixed<\/th><td data-k="median_seconds_to_first_catch">12<\/td>/);
  assert.match(done, /<tr data-order-eval="predicted"><th>predicted<\/th><td data-k="median_seconds_to_first_catch">6<\/td>/);
  assert.match(done, '6 patches evaluated, 3 caught');
  assert.match(done, 'ratio (predicted ÷ fixed median): 0.5');
  assert.is(done.match(/median to first catch/g), null, 'the two orders are in the table, not said twice');
});

test.run();
