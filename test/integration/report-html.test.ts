/**
 * `report --html` in a real browser: Debian's chromium (installed by .ci/run) driven by playwright-core, one launch
 * for every case. Each page is opened from disk; every section's numbers are read from the DOM and compared with
 * `report --json` on the same ledger; nothing may be requested but the file itself, and the console stays clean.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';
import { cell, TIER_COLUMNS } from '../../src/report/render.js';
import type { Report } from '../../src/report/model.js';
import type { TestsSection } from '../../src/report/tests-section.js';
import { toolPresent } from '../helpers/system-tool.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = join(ROOT, 'dist/cli.mjs');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = toolPresent(
  'the HTML report in a browser',
  existsSync(CHROMIUM),
  'apt-get install chromium, or set CHROMIUM to a chromium binary',
);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Browser;
/** The rich repository's reports, made once for the cases that read them. */
let rich: { dir: string; json: JsonReport; file: string };
/** `report --json`: the report's figures and the tests section. */
type JsonReport = Report & { tests: TestsSection };

test.before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-html-rich-'));
  richRepo(dir);
  rich = { dir, ...both(dir) };
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM to a chromium binary`);
  // One launch for every case; playwright gives it a fresh user-data-dir of its own and removes it on close.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

test.after(async () => {
  await browser?.close();
  if (rich) rmSync(rich.dir, { recursive: true, force: true });
});

function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Opened {
  page: Page;
  requests: string[];
  errors: string[];
  close: () => Promise<void>;
}

/** Opens a file from disk in a new page, recording every request and every console error. Non-file requests are refused. */
async function open(file: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Opened> {
  const context = await browser.newContext({ colorScheme, offline: true });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, requests, errors, close: () => context.close() };
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();
const text = async (page: Page, selector: string) => {
  const all = await texts(page, selector);
  assert.is(all.length, 1, `${selector}: ${all.length} matches`);
  return all[0]!;
};
const css = (s: string) => JSON.stringify(s);

/**
 * Every figure on the page in one round trip: each `data-k` element's text, keyed by its section, the `data-*`
 * attributes of the rows and cells around it (tier, period, pair, order, test, freeze, advice index) and its key.
 */
async function figuresOf(page: Page): Promise<(key: string) => string> {
  const all = await page.evaluate(() => {
    const out: Record<string, string[]> = {};
    for (const el of document.querySelectorAll('[data-k]')) {
      const parts: string[] = [];
      for (let e: Element | null = el.parentElement; e !== null; e = e.parentElement) {
        const mine: string[] = [];
        for (const a of ['data-tier', 'data-period', 'data-earlier', 'data-later', 'data-order', 'data-test', 'data-freeze']) {
          const v = e.getAttribute(a);
          if (v !== null) mine.push(`${a.slice(5)}=${v}`);
        }
        parts.unshift(...mine);
        if (e.matches('li[data-kind]')) parts.unshift(`advice=${[...e.parentElement!.children].indexOf(e)}`);
        if (e.tagName === 'SECTION' || e.tagName === 'HEADER') parts.unshift(e.id || e.tagName.toLowerCase());
      }
      const key = [...parts, el.getAttribute('data-k')].join(' ');
      (out[key] ??= []).push(el.textContent ?? '');
    }
    return out;
  });
  return (key) => {
    const found = all[key];
    assert.ok(found !== undefined && found.length === 1, `${key}: ${found?.length ?? 0} matches`);
    return found![0]!;
  };
}

let seq = 0;
const line = (tier: string, verdict: string, seconds: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ts: '2025-03-03T10:00:00.000Z',
    run: `r${seq++}`,
    hook: 'pre-push',
    patch: 'abc',
    base: null,
    tier,
    verdict,
    seconds,
    exit: 0,
    files: ['a.py'],
    files_count: 1,
    routed: false,
    ...extra,
  });

/** A repository whose config has t1, t2, t3; its ledger has every kind of row the report counts apart. */
function richRepo(dir: string): void {
  spawnSync('git', ['init', '-q', dir]);
  writeFileSync(
    join(dir, '.gate-ladderrc.json'),
    JSON.stringify({
      tiers: ['t1', 't2', 't3'].map((name) => ({ name, run: 'true' })),
      report: { minAttempts: 3 },
      freeze: { minRuns: 3 },
    }),
  );
  const cal = (run: string, ts: string, verdicts: [string, string, number][]) =>
    verdicts.map(([t, v, s]) => line(t, v, s, { run, ts, hook: 'manual', calibration: true }));
  const rows = [
    line('t1', 'caught', 1),
    line('t1', 'pass', 10, { ts: '2025-03-11T09:00:00.000Z' }),
    line('t1', 'error', 3, { reason: 'exit 4: usage error', ts: '2025-03-12T09:00:00.000Z' }),
    line('t1', 'error', 3, { reason: 'not applicable at this commit: no tests', ts: '2025-03-12T09:00:00.000Z' }),
    'not json at all',
    line('t2', 'pass', 60, { skipped: ['t1'], routed: true, ts: '2025-03-18T09:00:00.000Z' }),
    line('t2', 'caught', 120, { ts: '2025-03-25T09:00:00.000Z' }),
    line('old-tier', 'caught', 4),
    ...cal('c1', '2025-03-20T09:00:00.000Z', [
      ['t1', 'pass', 1],
      ['t2', 'caught', 90],
      ['t3', 'caught', 30],
    ]),
    ...cal('c2', '2025-03-21T09:00:00.000Z', [
      ['t1', 'caught', 2],
      ['t2', 'caught', 80],
      ['t3', 'pass', 20],
    ]),
    ...cal('c3', '2025-03-22T09:00:00.000Z', [
      ['t1', 'pass', 1],
      ['t2', 'pass', 70],
      ['t3', 'pass', 25],
    ]),
    line('t1', 'caught', 1, { run: 's1', hook: 'seed', source: 'seed' }),
    line('t2', 'caught', 50, { run: 's1', hook: 'seed', source: 'seed' }),
    line('t1', 'pass', 1, { run: 's2', hook: 'seed', source: 'seed' }),
    line('t2', 'pass', 50, { run: 's2', hook: 'seed', source: 'seed' }),
  ];
  mkdirSync(join(dir, '.git/gate-ladder'), { recursive: true });
  writeFileSync(join(dir, '.git/gate-ladder/ledger.jsonl'), `${rows.join('\n')}\n`);
  const outcome = (i: number, fail: boolean) =>
    JSON.stringify({
      ts: `2025-03-0${1 + (i % 9)}T10:00:00.000Z`,
      run: `t${i}`,
      tier: 't2',
      hook: 'pre-push',
      patch: 'abc',
      pass: fail ? [] : ['a.test::flips'],
      fail: fail ? ['a.test::flips', 'a.test::broken'] : ['a.test::broken'],
      skip: [],
    });
  writeFileSync(join(dir, '.git/gate-ladder/tests.jsonl'), `${Array.from({ length: 6 }, (_, i) => outcome(i, i % 2 === 0)).join('\n')}\n`);
  mkdirSync(join(dir, '.gate-ladder'));
  const freeze = {
    test: 'a.test::flips',
    flip_rate: 1,
    runs: 6,
    flips: 5,
    evidence: 1,
    by: 'T <t@example.invalid>',
    at: '2025-03-01T00:00:00.000Z',
    expires: '2025-03-20',
    reentry: 'passes <50> runs',
  };
  writeFileSync(join(dir, '.gate-ladder/freezes.json'), JSON.stringify({ version: 1, freezes: [freeze] }));
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gl-html-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `report --json` and `report --html` on the same ledger. */
function both(dir: string, extra: string[] = []): { json: JsonReport; file: string } {
  const env = { GATE_LADDER_NOW: '2025-04-01' };
  const j = cli(['report', '--json', ...extra], dir, env);
  assert.is(j.code, 0, j.stderr);
  const file = join(dir, 'out', 'report.html');
  mkdirSync(dirname(file), { recursive: true });
  const h = cli(['report', '--html', 'out/report.html', ...extra], dir, env);
  assert.is(h.code, 0, h.stderr);
  assert.match(h.stderr, /wrote .*report\.html \(\d+ KB, self-contained: it loads nothing from the network\)/);
  assert.is(h.stdout, '');
  return { json: JSON.parse(j.stdout) as JsonReport, file };
}

test('every section renders with the ledger numbers of report --json; nothing requested; no console errors', async () => {
  const { json, file } = rich;
  const { page, requests, errors, close } = await open(file);
  try {
    // Sanity of the fixture: every section has something to show.
    assert.ok(json.retired.length === 1 && json.overlap.pairs.length > 0 && json.seeds.runs === 2 && json.tests.freezes.length === 1);
    assert.ok(
      json.tests.tiers.some((t) => t.flaky.length === 1 && t.broken.length === 1),
      JSON.stringify(json.tests),
    );
    assert.is(json.order.method, 'calibration');

    const dom = await figuresOf(page);
    for (const [k, v] of [
      ['rows', json.rows],
      ['attempts', json.attempts],
      ['per_month', json.rate.per_month],
      ['months', json.rate.months],
      ['calibration_runs', json.overlap.runs],
      ['skipped_lines', json.skipped_lines],
    ] as const) {
      assert.is(dom(`header ${k}`), cell(v), k);
    }
    for (const [id, tiers] of [
      ['tiers', json.tiers],
      ['retired', json.retired],
    ] as const) {
      assert.equal(
        await texts(page, `#${id} tr[data-tier] th[data-k=tier]`),
        tiers.map((t) => t.tier),
        id,
      );
      for (const t of tiers) for (const c of TIER_COLUMNS) assert.is(dom(`${id} tier=${t.tier} ${c}`), cell(t[c]), `${id} ${t.tier} ${c}`);
    }

    assert.is(await text(page, '#trend h2'), `over time (per ${json.trend.unit})`);
    assert.is(await page.locator('#trend svg [data-series]').count(), 2 * json.trend.tiers.length);
    for (const [i, period] of json.trend.periods.entries()) {
      for (const t of json.trend.tiers) {
        if (t.runs[i] === 0) assert.is(await text(page, `#trend tr[data-period=${css(period)}] td[data-tier=${css(t.tier)}]`), '-');
        else
          for (const k of ['caught', 'runs', 'yield'] as const)
            assert.is(dom(`trend period=${period} tier=${t.tier} ${k}`), cell(t[k][i]!), `${period} ${t.tier} ${k}`);
      }
    }

    const dots = await page
      .locator('#cost svg [data-tier]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-tier'), e.getAttribute('data-x'), e.getAttribute('data-y')]));
    assert.equal(
      dots,
      json.tiers.filter((x) => x.runs > 0).map((t) => [t.tier, String(t.total_s), String(t.caught)]),
    );

    assert.is(dom('scope patches'), cell(json.scope.patches));
    assert.is(dom('scope saved_s'), cell(json.scope.saved_s));
    for (const x of json.scope.past)
      for (const k of ['patches', 'median_s', 'saved_s'] as const) assert.is(dom(`scope tier=${x.tier} ${k}`), cell(x[k]));

    assert.is(await text(page, '#overlap h2'), `calibration overlap (${json.overlap.runs} calibration runs)`);
    for (const x of json.overlap.pairs) {
      for (const k of ['both', 'only_earlier', 'only_later', 'neither', 'patches'] as const) {
        assert.is(dom(`overlap earlier=${x.earlier} later=${x.later} ${k}`), cell(x[k]), `${x.earlier}/${x.later} ${k}`);
      }
    }

    assert.is(dom('order order=current current_s'), cell(json.order.current_s));
    assert.is(dom('order order=recommended recommended_s'), cell(json.order.recommended_s));
    assert.is(await text(page, '#order [data-order=recommended] td:nth-child(2)'), ['t0-scope', ...json.order.recommended].join(' → '));
    assert.is(await page.locator('#order [data-k=method]').getAttribute('data-method'), json.order.method);

    assert.equal(
      await page.locator('#advice li[data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
      json.advice.map((a) => a.kind),
    );
    for (const [i, a] of json.advice.entries()) {
      assert.is(dom(`advice advice=${i} text`), a.text);
      for (const [k, v] of Object.entries(a.figures)) assert.is(dom(`advice advice=${i} ${k}`), cell(v), `${a.kind} ${k}`);
    }

    assert.is(dom('seeds runs'), cell(json.seeds.runs));
    assert.is(dom('seeds caught'), cell(json.seeds.caught));
    for (const t of json.seeds.tiers)
      for (const k of ['runs', 'caught', 'errors'] as const) assert.is(dom(`seeds tier=${t.tier} ${k}`), cell(t[k]));

    assert.is(dom('tests today'), json.tests.today);
    for (const t of json.tests.tiers) {
      for (const k of [
        'passes',
        'plain_passes',
        'frozen_passes',
        'retried_passes',
        'tests',
        'flaky_count',
        'eligible_count',
        'broken_count',
      ] as const)
        assert.is(dom(`tests tier=${t.tier} ${k}`), cell(t[k]), `${t.tier} ${k}`);
      for (const f of t.flaky) {
        for (const k of ['runs', 'flips', 'same_code_runs', 'flip_rate', 'evidence'] as const)
          assert.is(dom(`tests tier=${t.tier} test=${f.id} ${k}`), cell(f[k]));
        const row = await text(page, `#tests [data-tier=${css(t.tier)}] [data-list=flaky] tr[data-test=${css(f.id)}]`);
        assert.ok(row.endsWith(f.reason), row);
      }
      for (const b of t.broken) assert.is(dom(`tests tier=${t.tier} test=${b.id} runs`), cell(b.runs));
    }
    for (const z of json.tests.freezes) {
      assert.is(dom(`tests freeze=${z.test} frozen_through`), z.frozen_through);
      assert.is(dom(`tests freeze=${z.test} counts_again_from`), z.counts_again_from);
      const row = await text(page, `#tests tr[data-freeze=${css(z.test)}]`);
      assert.ok(row.includes(z.active ? 'active' : 'expired') && row.includes('passes <50> runs'), row);
    }

    assert.equal(requests, [pathToFileURL(file).href]);
    assert.equal(errors, []);
    assert.ok(statSync(file).size < 100_000);
  } finally {
    await close();
  }
});

test('dark mode and print: the page follows prefers-color-scheme, and prints without the navigation', async () => {
  const { file } = rich;
  const background = (p: Page) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await open(file, 'light');
  const dark = await open(file, 'dark');
  try {
    assert.is(await background(light.page), 'rgb(255, 255, 255)');
    assert.is(await background(dark.page), 'rgb(18, 21, 27)');
    await dark.page.emulateMedia({ media: 'print' });
    assert.is(await background(dark.page), 'rgb(255, 255, 255)');
    assert.is(await dark.page.locator('nav').evaluate((e) => getComputedStyle(e).display), 'none');
    assert.ok(
      (await dark.page.locator('#trend table').boundingBox()) !== null,
      'the per-week table prints even though it is folded on screen',
    );
    const pdf = await light.page.pdf();
    assert.ok(pdf.length > 10_000);
    assert.equal([...light.errors, ...dark.errors], []);
  } finally {
    await light.close();
    await dark.close();
  }
});

test('an empty ledger: every section says there is nothing yet; no errors', () =>
  withDir(async (dir) => {
    writeFileSync(join(dir, 'ledger.jsonl'), '');
    const { json, file } = both(dir, ['--ledger', 'ledger.jsonl']);
    const { page, errors, requests, close } = await open(file);
    try {
      assert.equal(json.tiers, []);
      assert.match(await text(page, '#trend p'), /no dated rows yet/);
      assert.match(await text(page, '#overlap p'), /no calibration runs yet/);
      assert.match(await text(page, '#seeds p'), /no seeded bugs yet/);
      assert.is(await text(page, '#advice p'), 'none');
      assert.equal(errors, []);
      assert.is(requests.length, 1);
    } finally {
      await close();
    }
  }));

test('names from the ledger are text, never markup: a tier named like a script runs nothing', () =>
  withDir(async (dir) => {
    const evil = '<img src=x onerror=alert(1)><script>alert(2)</script>\u001b[2J';
    writeFileSync(join(dir, 'ledger.jsonl'), `${[line(evil, 'caught', 1), line(evil, 'pass', 2)].join('\n')}\n`);
    const { json, file } = both(dir, ['--ledger', 'ledger.jsonl']);
    const { page, errors, requests, close } = await open(file);
    let dialogs = 0;
    page.on('dialog', () => dialogs++);
    try {
      assert.is(await page.locator('script').count(), 0);
      assert.is(await page.locator('#tiers img').count(), 0);
      assert.is(await text(page, '#tiers th[data-k=tier]'), json.tiers[0]!.tier.replace('\u001b', '\\x1b'));
      assert.is(dialogs, 0);
      assert.equal(errors, []);
      assert.is(requests.length, 1);
    } finally {
      await close();
    }
  }));

test('the checks can fail: a page that reaches for the network is seen by the request listener and blocked by the policy', () =>
  withDir(async (dir) => {
    const bare = join(dir, 'bare.html');
    writeFileSync(bare, '<!doctype html><img src="http://example.invalid/x.png">');
    const a = await open(bare);
    assert.ok(
      a.requests.some((u) => u.startsWith('http://example.invalid/')),
      a.requests.join(),
    );
    await a.close();
    // The report's own Content-Security-Policy refuses such a load, and says so on the console.
    const { file } = rich;
    const guarded = join(dir, 'guarded.html');
    writeFileSync(guarded, readFileSync(file, 'utf8').replace('<main>', '<main><img src="http://example.invalid/y.png">'));
    const b = await open(guarded);
    assert.ok(
      b.errors.some((e) => /Content Security Policy/i.test(e)),
      b.errors.join(),
    );
    await b.close();
  }));

if (hasChromium) test.run();
