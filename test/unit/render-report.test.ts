import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cell, renderByOrigin, renderReport, TIER_COLUMNS } from '../../src/report/render.js';
import { report } from '../../src/report/figures.js';

const rows = [
  { run: 'a', patch: 'p', tier: 't1', verdict: 'caught' as const, seconds: 1.5 },
  { run: 'b', patch: 'p', tier: 't1', verdict: 'pass' as const, seconds: 2.5 },
  { run: 'c', patch: 'p', tier: 'odd|name', verdict: 'error' as const, seconds: 0, skipped: ['t1'] },
];
const r = report(rows, { tiers: ['t1', 'never', 'odd|name'] });

test('cell: numbers as the JSON has them, null as -', () => {
  assert.is(cell(0.0003333), '0.0003333');
  assert.is(cell(12), '12');
  assert.is(cell(null), '-');
});

test('the table has one line per tier with every column, in ladder order', () => {
  const out = renderReport(r, 'table', '/x/ledger.jsonl');
  const lines = out.split('\n');
  const head = lines.findIndex((l) => l.trim().startsWith('tier '));
  assert.equal(lines[head]!.trim().split(/\s+/), [...TIER_COLUMNS]);
  assert.equal(lines[head + 1]!.trim().split(/\s+/), ['t1', '2', '1', '0', '1', '2', '4', '0.25', '0']);
  assert.equal(lines[head + 2]!.trim().split(/\s+/), ['never', '0', '0', '0', '0', '-', '0', '-', '-']);
  assert.equal(lines[head + 3]!.trim().split(/\s+/), ['odd|name', '1', '0', '1', '0', '0', '0', '-', '1']);
  assert.match(out, /3 rows from \/x\/ledger\.jsonl; 3 patch attempts counted; 0 lines skipped/);
  assert.match(out, /routed 1 patch past t1: saved 2 s \(median 2 s × 1\)/);
  assert.match(out, /no calibration runs yet: `gate-ladder run --calibrate` records one/);
  for (const a of r.advice) assert.ok(out.includes(`${a.kind}: ${a.text}`));
});

test('every section is there, in text and markdown, with the figures of the report', () => {
  const withRetired = report([...rows, { run: 'd', patch: 'p', tier: 'gone', verdict: 'pass' as const, seconds: 1 }], { tiers: ['t1'] });
  for (const format of ['table', 'markdown'] as const) {
    const out = renderReport(withRetired, format);
    const md = format === 'markdown';
    for (const h of [
      'tiers (ladder order',
      'retired tiers',
      'over time (per week',
      'seconds against catches',
      't0-scope',
      'calibration overlap',
      'order',
      'seeded bugs per tier',
      'advice',
    ]) {
      assert.ok(out.includes(md ? `## ${h}` : `\n${h}`), `${format}: ${h}`);
    }
    assert.match(out, /odd\|name, gone: not in the config any more/);
    assert.match(out, /current: t0-scope → t1: 2 s per patch/);
    assert.match(out, /estimated: each tier's mean seconds and catch rate, assuming tiers fail independently/);
    assert.match(out, /no seeded bugs yet/);
  }
});

test('control characters in a tier name are made visible', () => {
  const out = renderReport(report([{ run: 'a', patch: 'p', tier: 'evil\u001b[2Jname', verdict: 'pass' as const, seconds: 1 }]), 'table');
  assert.not.ok(out.includes('\u001b'));
  assert.ok(out.includes('evil\\u001b[2Jname'));
});

test('markdown: the same cells, pipes escaped', () => {
  const out = renderReport(r, 'markdown');
  assert.ok(out.includes('| tier | runs | caught | errors | passes | median_s | total_s | yield | error_rate |'));
  assert.ok(out.includes('| t1 | 2 | 1 | 0 | 1 | 2 | 4 | 0.25 | 0 |'));
  assert.ok(out.includes('| odd\\|name | 1 | 0 | 1 | 0 | 0 | 0 | - | 1 |'));
  assert.match(out, /^# gate-ladder report$/m);
  assert.match(out, /^## advice$/m);
});

test('an empty report says so in each section', () => {
  const out = renderReport(report([]), 'table');
  assert.match(out, /routed no patch past any tier/);
  assert.match(out, /advice:\n {2}none/);
});

test('markdown: HTML in outside text (a tier name, a reason) reaches the page as text, never as markup, in items and table cells alike', () => {
  const evil = [
    { run: 'a', patch: 'p', tier: '<script>alert(1)</script>', verdict: 'caught' as const, seconds: 1 },
    { run: 'b', patch: 'p', tier: '<svg onload=alert(1)>|x', verdict: 'pass' as const, seconds: 1 },
  ];
  const out = renderReport(report(evil), 'markdown');
  assert.not.match(out, /<script|<svg/i);
  assert.ok(out.includes('| &lt;script&gt;alert(1)&lt;/script&gt; | 1 | 1 |'), out);
  assert.ok(out.includes('&lt;svg onload=alert(1)&gt;\\|x'), out);
  assert.ok(out.includes('- &lt;script&gt;alert(1)&lt;/script&gt;: 1 s for 1 caught'), out);
  // the terminal's table is text: nothing to escape there but control characters
  assert.ok(renderReport(report(evil), 'table').includes('<script>alert(1)</script>'));
});

test('--by-origin: each origin with its rows and tiers, escaped in markdown', () => {
  const list = [
    { origin: 'this-clone', rows: 2, refused: 0, tiers: report(rows).tiers.filter((t) => t.runs > 0) },
    { origin: 'mallory<b>', rows: 0, refused: 3, tiers: [] },
  ];
  const text = renderByOrigin(list, 'table');
  assert.match(text, /by origin:\n {2}this-clone: 2 rows\n {2}mallory<b>: 0 rows, 3 refused by the last sync\n/);
  assert.match(text, /this-clone +t1 +2 +1/);
  const md = renderByOrigin(list, 'markdown');
  assert.not.match(md, '<b>');
  assert.match(md, '| mallory&lt;b&gt; | - | 0 |');
});

test.run();
