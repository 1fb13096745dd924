// `node scripts/report-shot.mjs [out.png] [--dark] [--html out.html]`: the HTML report of a ledger shaped like the
// demo's (its two tiers, twelve weeks of pushes, calibration runs, seeded bugs, a retired tier, per-test history
// with a flaky test and a freeze), rendered by `gate-ladder report --html` and photographed in headless chromium
// (Debian's /usr/bin/chromium, driven by playwright-core). Writes docs/report.png by default.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { seeded } from './lib/bench-utils.mjs';

const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dark = args.includes('--dark');
const htmlAt = args.includes('--html') ? resolve(args[args.indexOf('--html') + 1]) : undefined;
const out = resolve(
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--html') ?? join(project, 'docs', dark ? 'report-dark.png' : 'report.png'),
);

/** Rows like the demo's pushes: t1-properties (cheap), t2-fixtures (dearer), fixture edits routed past t1. */
function ledger() {
  const rnd = seeded(19);
  const rows = [];
  const tests = [];
  const start = Date.parse('2026-09-07T08:00:00Z');
  let n = 0;
  const push = (day, kind) => {
    const run = `run${String(n++).padStart(5, '0')}`;
    const ts = new Date(start + day * 86_400_000 + rnd() * 36_000_000).toISOString();
    const routed = rnd() < 0.22;
    const calibration = kind === 'calibration';
    const seed = kind === 'seed';
    const improving = day / 84; // t1 gets sharper over the weeks: properties were added
    const base = {
      ts,
      run,
      hook: seed ? 'seed' : calibration ? 'manual' : 'pre-push',
      patch: run.padEnd(40, '0'),
      base: null,
      files: ['src/discount.js'],
      files_count: 1,
      isolation: 'none',
    };
    const extra = {
      ...(calibration && { calibration: true }),
      ...(seed && { source: 'seed' }),
      ...(routed && !seed && { routed: true, skipped: ['t1-properties'] }),
    };
    const bug = seed || rnd() < 0.3;
    const t1Catches = bug && rnd() < 0.45 + 0.35 * improving;
    const t2Catches = bug && (t1Catches ? rnd() < 0.55 : rnd() < 0.75);
    const tiers = [];
    if (!routed || seed) tiers.push(['t1-properties', t1Catches ? 'caught' : rnd() < 0.02 ? 'error' : 'pass', 1.2 + rnd() * 1.5]);
    tiers.push(['t2-fixtures', t2Catches ? 'caught' : 'pass', 38 + rnd() * 30]);
    if (day < 9) tiers.splice(1, 0, ['t1-lint', rnd() < 0.05 ? 'caught' : 'pass', 4 + rnd() * 3]);
    for (const [tier, verdict, seconds] of tiers) {
      const reason = verdict === 'error' ? { reason: 'timed out after 3 s' } : {};
      rows.push({
        ...base,
        tier,
        verdict,
        seconds: Math.round(seconds * 1000) / 1000,
        exit: verdict === 'pass' ? 0 : verdict === 'caught' ? 1 : null,
        routed: routed && !seed,
        ...extra,
        ...reason,
      });
      if (tier === 't2-fixtures') {
        const flaky = seed || rnd() < 0.12;
        const fail = verdict === 'caught' ? ['tests/discount.test.mjs::discount(100, 10)'] : [];
        tests.push({
          ts,
          run,
          tier,
          hook: base.hook,
          patch: base.patch,
          ...(seed && { source: 'seed' }),
          pass: ['tests/discount.test.mjs::discount(80, 25)', ...(flaky ? [] : ['tests/discount.test.mjs::rounds half cents'])],
          fail: [...fail, ...(flaky ? ['tests/discount.test.mjs::rounds half cents'] : [])],
          skip: [],
        });
      }
      if (verdict !== 'pass' && !calibration && !seed) break;
    }
  };
  for (let day = 0; day < 84; day++) {
    const pushes = (day % 7 < 5 ? 4 : 1) + Math.floor(rnd() * 3);
    for (let i = 0; i < pushes; i++) push(day, rnd() < 0.2 ? 'calibration' : 'push');
    if (day % 10 === 3) push(day, 'seed');
  }
  return { rows, tests };
}

const dir = mkdtempSync(join(tmpdir(), 'gate-ladder-shot-'));
try {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GATE_LADDER_NOW: '2026-12-01' };
  spawnSync('git', ['init', '-q', '-b', 'main', dir], { env });
  writeFileSync(
    join(dir, 'gate-ladder.config.ts'),
    `export default {\n  tiers: [\n    { name: 't1-properties', run: 'node checks/properties.mjs', timeout: 3, skipWhenTestAdjacent: true },\n    { name: 't2-fixtures', run: 'node --test tests/', timeout: 60, runner: 'node' },\n  ],\n};\n`,
  );
  const { rows, tests } = ledger();
  mkdirSync(join(dir, '.git', 'gate-ladder'), { recursive: true });
  writeFileSync(join(dir, '.git', 'gate-ladder', 'ledger.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(join(dir, '.git', 'gate-ladder', 'tests.jsonl'), `${tests.map((r) => JSON.stringify(r)).join('\n')}\n`);
  mkdirSync(join(dir, '.gate-ladder'));
  const freeze = {
    test: 'tests/discount.test.mjs::rounds half cents',
    flip_rate: 0.21,
    runs: 120,
    flips: 25,
    evidence: 3,
    by: 'Demo <demo@example.invalid>',
    at: '2026-11-20T10:00:00.000Z',
    expires: '2026-12-18',
    reentry: 'passes 50 runs in a row after the rounding fix',
  };
  writeFileSync(join(dir, '.gate-ladder', 'freezes.json'), `${JSON.stringify({ version: 1, freezes: [freeze] }, null, 2)}\n`);
  const html = join(dir, 'report.html');
  const r = spawnSync(process.execPath, [join(project, 'dist', 'cli.mjs'), 'report', '--html', html], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`report --html exited ${r.status}: ${r.stderr}`);
  if (htmlAt) copyFileSync(html, htmlAt);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({
      viewport: { width: 1020, height: 1500 },
      colorScheme: dark ? 'dark' : 'light',
      deviceScaleFactor: 1,
    });
    await page.goto(pathToFileURL(html).href);
    await page.screenshot({ path: out, fullPage: args.includes('--full') });
  } finally {
    await browser.close();
  }
  console.log(`report-shot: ${rows.length} rows → ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
