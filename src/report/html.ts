/**
 * The report as one self-contained HTML page: inline CSS and SVG, no script, and a Content-Security-Policy
 * that lets the page fetch nothing. Every number is the JSON's (`cell`), marked `data-k` for tests. Pure.
 */
import { reportMsg } from './messages.js';
import { esc } from './escape.js';
import { SECTIONS, TIER_COLUMNS, cell } from './render.js';
import { barChart, lineChart, scatterChart } from './svg.js';
import type { Report, TierFigures } from './model.js';
import type { OrderEvaluation } from './order-eval.js';
import type { TestsSection } from './tests-section.js';

/** A figure in a tag the tests can find: `data-k` names the JSON key. */
const fig = (k: string, v: string | number | null, tag = 'span') => `<${tag} data-k="${esc(k)}">${esc(cell(v))}</${tag}>`;

const section = (id: keyof typeof SECTIONS, title: string, body: string) => `<section id="${id}"><h2>${esc(title)}</h2>${body}</section>`;

const p = (text: string) => `<p>${esc(text)}</p>`;

function tierTable(tiers: readonly TierFigures[]): string {
  const head = TIER_COLUMNS.map((c) => `<th${c === 'tier' ? '' : ' class="num"'}>${esc(c)}</th>`).join('');
  const rows = tiers.map(
    (t) => `<tr data-tier="${esc(t.tier)}">${TIER_COLUMNS.map((c) => fig(c, t[c], c === 'tier' ? 'th' : 'td')).join('')}</tr>`,
  );
  return `<table class="figures"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function summary(r: Report, ledger?: string): string {
  const items: [string, string, string | number | null][] = [
    ['rows read', 'rows', r.rows],
    ['patch attempts', 'attempts', r.attempts],
    ['attempts a month', 'per_month', r.rate.per_month],
    ['months', 'months', r.rate.months],
    ['calibration runs', 'calibration_runs', r.overlap.runs],
    ['lines skipped', 'skipped_lines', r.skipped_lines],
  ];
  const x = r.excluded;
  return (
    `<dl class="summary">${items.map(([label, k, v]) => `<div><dt>${esc(label)}</dt>${fig(k, v, 'dd')}</div>`).join('')}</dl>` +
    p(reportMsg.excluded(x, r.overlap.counted_rows)) +
    (ledger
      ? `<p class="muted">ledger: <code>${esc(ledger)}</code>${r.rate.first ? `, ${esc(r.rate.first)} to ${esc(r.rate.last)}` : ''}</p>`
      : '')
  );
}

function trend(r: Report): string {
  const t = r.trend;
  if (t.periods.length === 0 || t.tiers.length === 0) return p('no dated rows yet');
  const charts =
    `<div class="charts">` +
    lineChart(
      t.periods,
      t.tiers.map((s) => ({ name: s.tier, values: s.yield })),
      'yield (caught per second)',
    ) +
    lineChart(
      t.periods,
      t.tiers.map((s) => ({ name: s.tier, values: s.catch_rate })),
      'catch rate (caught ÷ runs)',
    ) +
    `</div>`;
  const head = `<tr><th>${esc(t.unit)}</th>${t.tiers.map((s) => `<th class="num">${esc(s.tier)}</th>`).join('')}</tr>`;
  const rows = t.periods.map(
    (period, i) =>
      `<tr data-period="${esc(period)}"><th>${esc(period)}</th>${t.tiers
        .map((s) =>
          s.runs[i] === 0
            ? `<td class="num" data-tier="${esc(s.tier)}">-</td>`
            : `<td class="num" data-tier="${esc(s.tier)}">${fig('caught', s.caught[i]!)}/${fig('runs', s.runs[i]!)} · ${fig('yield', s.yield[i]!)}</td>`,
        )
        .join('')}</tr>`,
  );
  return (
    charts +
    `<details><summary>per ${esc(t.unit)}: caught/runs · yield</summary><table class="figures trend">${head}${rows.join('')}</table></details>` +
    (t.dropped > 0 ? p(`${t.dropped} older ${t.unit}s left out`) : '')
  );
}

function cost(r: Report): string {
  const ran = r.tiers.filter((t) => t.runs > 0);
  if (ran.length === 0) return p('no runs yet');
  return scatterChart(
    ran.map((t) => ({ name: t.tier, x: t.total_s, y: t.caught })),
    'seconds (total)',
    'caught',
  );
}

function scope(r: Report): string {
  const s = r.scope;
  if (s.past.length === 0) return p(reportMsg.noRoutes());
  const bars = barChart(
    s.past.map((x) => ({ name: x.tier, value: x.saved_s ?? 0, text: `${cell(x.saved_s)} s (${x.patches} × ${cell(x.median_s)} s)` })),
    'seconds saved by routing past each tier',
  );
  const rows = s.past.map(
    (x) =>
      `<tr data-tier="${esc(x.tier)}"><th>${esc(x.tier)}</th>${fig('patches', x.patches, 'td')}${fig('median_s', x.median_s, 'td')}${fig('saved_s', x.saved_s, 'td')}</tr>`,
  );
  return (
    `<p>${fig('patches', s.patches)} patches routed; ${fig('saved_s', s.saved_s)} s saved in all.</p>` +
    bars +
    `<table class="figures"><tr><th>routed past</th><th class="num">patches</th><th class="num">median_s</th><th class="num">saved_s</th></tr>${rows.join('')}</table>`
  );
}

function overlap(r: Report): string {
  const pairs = r.overlap.pairs;
  if (pairs.length === 0) return p(reportMsg.noCalibration());
  const earlier = [...new Set(pairs.map((x) => x.earlier))];
  const later = [...new Set(pairs.map((x) => x.later))];
  const head = `<tr><th>earlier ↓ · later →</th>${later.map((l) => `<th>${esc(l)}</th>`).join('')}</tr>`;
  const rows = earlier.map((e) => {
    const cells = later.map((l) => {
      const x = pairs.find((q) => q.earlier === e && q.later === l);
      if (x === undefined) return '<td class="empty"></td>';
      const caught = x.both + x.only_earlier + x.only_later;
      const shade = caught === 0 ? 0 : Math.round((x.both / caught) * 100);
      return (
        `<td class="cell" style="--shade:${shade}%" data-earlier="${esc(e)}" data-later="${esc(l)}" title="${esc(reportMsg.pair(x))}">` +
        `<b>${fig('both', x.both)}</b> both<br>${fig('only_earlier', x.only_earlier)} only ${esc(e)}<br>${fig('only_later', x.only_later)} only ${esc(l)}<br>` +
        `${fig('neither', x.neither)} neither · ${fig('patches', x.patches)} runs</td>`
      );
    });
    return `<tr><th>${esc(e)}</th>${cells.join('')}</tr>`;
  });
  return `${p(
    `Over calibration runs (every tier ran on the same patch): how often both tiers of a pair caught it, only one, or neither. The darker a cell, the more of the pair's catches both made.`,
  )}<table class="matrix">${head}${rows.join('')}</table>`;
}

function order(r: Report): string {
  const o = r.order;
  if (o.current_s === null) return p('no tier has runs yet: nothing to order');
  const line = (k: string, label: string, tiers: readonly string[], s: number | null) =>
    `<tr data-order="${k}"><th>${esc(label)}</th><td>${esc(['t0-scope', ...tiers.filter((t) => t !== 't0-scope')].join(' → '))}</td>${fig(`${k}_s`, s, 'td')}</tr>`;
  const priced = o.priced.map(
    (t) =>
      `<tr data-tier="${esc(t.tier)}"><th>${esc(t.tier)}</th>${fig('mean_s', t.mean_s, 'td')}${fig('p', t.p, 'td')}${fig('ratio', t.ratio, 'td')}</tr>`,
  );
  return (
    `<table class="figures order"><tr><th></th><th>order</th><th class="num">expected s per patch</th></tr>${line('current', 'current', o.current, o.current_s)}${line('recommended', 'recommended', o.recommended, o.recommended_s)}</table>` +
    barChart(
      [
        { name: 'current', value: o.current_s },
        { name: 'recommended', value: o.recommended_s ?? 0 },
      ],
      'expected seconds per patch',
    ) +
    `<p data-k="method" data-method="${esc(o.method)}">${esc(reportMsg.orderMethod(o))}</p>` +
    (o.unranked.length > 0 ? p(`not priced (no runs): ${o.unranked.join(', ')}`) : '') +
    `<details><summary>per tier: mean seconds, catch probability, ratio</summary><table class="figures"><tr><th>tier</th><th class="num">mean_s</th><th class="num">p</th><th class="num">ratio</th></tr>${priced.join('')}</table></details>`
  );
}

/**
 * Predicted against fixed order on the calibration runs (`order_evaluation` of the JSON): the same
 * lines as the text report, the two orders side by side in a table.
 */
function orderEvaluation(e: OrderEvaluation): string {
  const [head, ...rest] = reportMsg.orderEvaluation(e);
  const title = `<h3>${esc(head!)}</h3>`;
  if (e.patches === 0 || e.fixed === undefined || e.predicted === undefined)
    return `<div data-order-eval="none">${title}${rest.map((l) => p(l.trim())).join('')}</div>`;
  const row = (k: 'fixed' | 'predicted', side: NonNullable<OrderEvaluation['fixed']>) =>
    `<tr data-order-eval="${k}"><th>${k}</th>${fig('median_seconds_to_first_catch', side.median_seconds_to_first_catch, 'td')}${fig('mean_apfdc', side.mean_apfdc, 'td')}${fig('missed', side.missed, 'td')}</tr>`;
  // The lines after the two orders' own (patches evaluated, ratio, select), as the text report says them.
  const words = rest.filter((l) => !/^\s+(fixed|predicted)\s/.test(l)).map((l) => p(l.trim()));
  return (
    `<div data-order-eval="evaluated" data-ratio="${esc(cell(e.ratio ?? null))}">${title}` +
    `<table class="figures"><tr><th>order</th><th class="num">median s to first catch</th><th class="num">mean APFDc</th><th class="num">catches missed</th></tr>${row('fixed', e.fixed)}${row('predicted', e.predicted)}</table>` +
    `${words.join('')}</div>`
  );
}

function seeds(r: Report): string {
  const s = r.seeds;
  if (s.runs === 0) return p(reportMsg.noSeeds());
  const rows = s.tiers.map(
    (t) =>
      `<tr data-tier="${esc(t.tier)}"><th>${esc(t.tier)}</th>${fig('runs', t.runs, 'td')}${fig('caught', t.caught, 'td')}${fig('errors', t.errors, 'td')}</tr>`,
  );
  return (
    `<p>${fig('runs', s.runs)} seeded bugs: ${fig('caught', s.caught)} caught by some tier, ${esc(s.runs - s.caught)} escaped every tier.</p>` +
    `<table class="figures"><tr><th>tier</th><th class="num">seeded bugs run</th><th class="num">caught</th><th class="num">errors</th></tr>${rows.join('')}</table>`
  );
}

function tests(s: TestsSection): string {
  const tiers = s.tiers.map((t) => {
    const flaky = t.flaky.map(
      (f) =>
        `<tr data-test="${esc(f.id)}"><th><code>${esc(f.id)}</code></th>${fig('runs', f.runs, 'td')}${fig('flips', f.flips, 'td')}${fig('same_code_runs', f.same_code_runs, 'td')}${fig('flip_rate', f.flip_rate, 'td')}${fig('evidence', f.evidence, 'td')}<td data-eligible="${f.eligible}">${esc(f.reason)}</td></tr>`,
    );
    const broken = t.broken.map(
      (b) =>
        `<tr data-test="${esc(b.id)}"><th><code>${esc(b.id)}</code></th>${fig('runs', b.runs, 'td')}<td>failed every run: fix it or delete it</td></tr>`,
    );
    const more = (n: number, of: number) => (of > n ? p(`... and ${of - n} more (gate-ladder flaky)`) : '');
    return (
      `<div class="tier-tests" data-tier="${esc(t.tier)}"><h3>${esc(t.tier)}</h3>` +
      `<p>${fig('passes', t.passes)} passes: ${fig('plain_passes', t.plain_passes)} plain, ${fig('frozen_passes', t.frozen_passes)} granted by a freeze, ${fig('retried_passes', t.retried_passes)} on a retry. ` +
      `${fig('tests', t.tests)} tests with history; ${fig('flaky_count', t.flaky_count)} flaky (outcome changed on the same code), ${fig('eligible_count', t.eligible_count)} of them may be frozen; ${fig('broken_count', t.broken_count)} broken.</p>` +
      (flaky.length > 0
        ? `<table class="figures" data-list="flaky"><tr><th>flaky test</th><th class="num">runs</th><th class="num">flips</th><th class="num">same-code runs</th><th class="num">flip rate</th><th class="num">evidence</th><th>freeze?</th></tr>${flaky.join('')}</table>${more(t.flaky.length, t.flaky_count)}`
        : '') +
      (broken.length > 0
        ? `<table class="figures" data-list="broken"><tr><th>broken test</th><th class="num">runs</th><th></th></tr>${broken.join('')}</table>${more(t.broken.length, t.broken_count)}`
        : '') +
      '</div>'
    );
  });
  const freezes = s.freezes.map(
    (z) =>
      `<tr data-freeze="${esc(z.test)}" class="${z.active ? '' : 'expired'}"><th><code>${esc(z.test)}</code>${z.tier ? ` <span class="muted">[${esc(z.tier)}]</span>` : ''}</th>${fig('frozen_through', z.frozen_through, 'td')}${fig('counts_again_from', z.counts_again_from, 'td')}<td>${z.active ? 'active' : 'expired: its failures count again'}</td><td>${esc(z.reentry)}</td></tr>`,
  );
  return (
    (tiers.length > 0 ? tiers.join('') : p('no per-test history: give a tier `runner` and `junit` (docs/flaky.md)')) +
    `<h3>freezes</h3><p class="muted">judged on ${fig('today', s.today)} (UTC)</p>` +
    (freezes.length > 0
      ? `<table class="figures"><tr><th>frozen test</th><th class="num">frozen through</th><th class="num">counts again from</th><th>state</th><th>re-entry</th></tr>${freezes.join('')}</table>`
      : p('no freezes'))
  );
}

function advice(r: Report): string {
  if (r.advice.length === 0) return p('none');
  const items = r.advice.map(
    (a) =>
      `<li class="advice ${esc(a.kind)}" data-kind="${esc(a.kind)}"><span class="kind">${esc(a.kind)}</span> <span data-k="text">${esc(a.text)}</span>` +
      `<dl class="numbers">${Object.entries(a.figures)
        .map(([k, v]) => `<div><dt>${esc(k)}</dt>${fig(k, v, 'dd')}</div>`)
        .join('')}</dl></li>`,
  );
  return `<ul class="advice">${items.join('')}</ul>`;
}

/** The whole page. `tests`: the tests section (absent: not shown); `ledger` is shown as given; `generated` is the time printed in the footer. */
export function renderHtml(
  r: Report,
  testsSection?: TestsSection,
  ledger?: string,
  generated?: string,
  evaluation?: OrderEvaluation,
): string {
  const parts = [
    section('tiers', SECTIONS.tiers, tierTable(r.tiers)),
    r.retired.length > 0
      ? section('retired', SECTIONS.retired, p(reportMsg.retired(r.retired.map((t) => t.tier))) + tierTable(r.retired))
      : '',
    section('trend', `${SECTIONS.trend} (per ${r.trend.unit})`, trend(r)),
    section('cost', SECTIONS.cost, cost(r)),
    section('scope', SECTIONS.scope, scope(r)),
    section('overlap', reportMsg.overlapHeading(r.overlap.runs), overlap(r)),
    section('order', SECTIONS.order, order(r) + (evaluation !== undefined ? orderEvaluation(evaluation) : '')),
    section('advice', SECTIONS.advice, advice(r)),
    section('seeds', SECTIONS.seeds, seeds(r)),
    testsSection !== undefined ? section('tests', SECTIONS.tests, tests(testsSection)) : '',
  ];
  const nav = [...parts.join('').matchAll(/<section id="([a-z]+)"><h2>([^<]*)<\/h2>/g)].map(
    (m) => `<a href="#${m[1]}">${m[2]!.replace(/ \(.*$/, '')}</a>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>gate-ladder report</title>
<style>${CSS}</style></head>
<body><header><h1>gate-ladder report</h1>${summary(r, ledger)}<nav>${nav.join('')}</nav></header>
<main>${parts.join('\n')}</main>
<footer>gate-ladder report${generated ? `, generated ${esc(generated)}` : ''}. The same figures as <code>gate-ladder report --json</code>; docs/report.md says how each is counted.</footer>
</body></html>
`;
}

const CSS = `
:root{--bg:#fff;--fg:#1d2330;--muted:#5b6475;--line:#d9dde5;--panel:#f5f7fa;--accent:#2563eb;
--c0:#2563eb;--c1:#d97706;--c2:#059669;--c3:#db2777;--c4:#7c3aed;--c5:#0891b2;--cell:37,99,235}
@media (prefers-color-scheme:dark){:root{--bg:#12151b;--fg:#e3e7ee;--muted:#9aa3b2;--line:#2c323d;--panel:#1a1f27;--accent:#7aa2ff;
--c0:#7aa2ff;--c1:#f5a524;--c2:#34d399;--c3:#f472b6;--c4:#a78bfa;--c5:#22d3ee;--cell:122,162,255}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:980px;padding:24px;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:0 0 10px}
section{border-top:1px solid var(--line);padding:18px 0}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
.muted,footer{color:var(--muted)}footer{margin-top:24px;font-size:12px}
nav{display:flex;flex-wrap:wrap;gap:4px 14px;margin:8px 0 4px}nav a{color:var(--accent);text-decoration:none}
dl.summary{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 8px}
dl.summary div{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:110px}
dl.summary dt{font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}dl.summary dd{margin:0;font-size:18px;font-weight:600}
table{border-collapse:collapse;margin:8px 0}th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-weight:600}.num,table.figures td{text-align:right;font-variant-numeric:tabular-nums}
table.figures td:not([data-k]){text-align:left}table.trend td{white-space:nowrap}
table.matrix td.cell{background:rgba(var(--cell),calc(var(--shade)*.45));min-width:150px;font-size:12px}
table.matrix td.empty{background:var(--panel)}
details summary{cursor:pointer;color:var(--accent);margin:6px 0}
.charts{display:grid;grid-template-columns:1fr;gap:8px}
svg.chart{width:100%;max-width:900px;height:auto;display:block;margin:6px 0}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .tick{fill:var(--muted)}svg .axis{font-weight:600}svg .label{font-weight:600}
svg .grid{stroke:var(--line)}svg .line{fill:none;stroke-width:2}
${[0, 1, 2, 3, 4, 5].map((i) => `svg .c${i} circle,svg .c${i} rect{fill:var(--c${i})}svg .c${i} .line{stroke:var(--c${i})}`).join('')}
ul.advice{list-style:none;padding:0;margin:0}li.advice{background:var(--panel);border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:6px;padding:8px 12px;margin:8px 0}
li.advice .kind{font-weight:700}li.advice.errors,li.advice.decorative{border-left-color:var(--c3)}li.advice.contract-check{border-left-color:var(--c1)}
dl.numbers{display:flex;flex-wrap:wrap;gap:2px 14px;margin:6px 0 0;font-size:12px;color:var(--muted)}dl.numbers div{display:flex;gap:4px}dl.numbers dd{margin:0;color:var(--fg)}
tr.expired{color:var(--muted)}
@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;--panel:#fff}nav,details summary{display:none}
details::details-content{content-visibility:visible;display:block}body{max-width:none;padding:0}section{break-inside:avoid}svg.chart{max-width:16cm}}
`;
