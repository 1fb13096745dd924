import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type Cell,
  HALF_LIFE_RUNS,
  MapKeys,
  MIN_CALIBRATION_RUNS,
  type OrderRow,
  SECONDS_KEPT,
  countsForOrder,
  emptyStats,
  foldRow,
  kindOf,
  median,
  pathKeys,
  predictOrder,
  predictTiers,
  selectSkips,
  statsData,
} from '../../src/ledger/predict.js';
import { loadOrderStats, orderIndexPath } from '../../src/ledger/order-index.js';
import { evaluateOrder, replayOrder } from '../../src/report/order-eval.js';
import { orderPlan } from '../../src/route/order-plan.js';
import type { Plan } from '../../src/route/route.js';
import type { ResolvedTier } from '../../src/config/resolved.js';

const NOW = { write: 'now' } as const;
/** A value with every number to 5 significant digits. */
const digits = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isInteger(x) ? Number(x.toPrecision(5)) : x)));
let n = 0;
/** One calibration run: every tier's verdict and seconds on a patch touching `files`. */
function calRun(files: string[], verdicts: Record<string, ['pass' | 'caught' | 'error', number]>, calibration = true): OrderRow[] {
  const run = `c${n++}`;
  return Object.entries(verdicts).map(([tier, [verdict, seconds]]) => ({
    run,
    tier,
    verdict,
    seconds,
    files,
    hook: 'manual',
    ...(calibration && { calibration: true }),
  }));
}

/** `props` catches every patch under src/parse/ and none under src/cli/; `unit` catches half the src/cli/ ones. */
function parseHistory(runs: number): OrderRow[] {
  const rows: OrderRow[] = [];
  for (let i = 0; i < runs; i++) {
    const parse = i % 2 === 0;
    rows.push(
      ...calRun([parse ? `src/parse/p${i % 5}.ts` : `src/cli/c${i % 5}.ts`], {
        unit: [i % 4 === 1 ? 'caught' : 'pass', 1],
        props: [parse ? 'caught' : 'pass', 4],
      }),
    );
  }
  return rows;
}

test('pathKeys: each path, each parent folder, each kind; kindOf', () => {
  assert.equal(pathKeys(['src/parse/a.ts', 'src/parse/b.ts', 'Makefile']).sort(), [
    'd:src',
    'd:src/parse',
    'k:.ts',
    'k:Makefile',
    'p:Makefile',
    'p:src/parse/a.ts',
    'p:src/parse/b.ts',
  ]);
  assert.is(kindOf('a/b/.eslintrc'), '.eslintrc');
  assert.is(kindOf('x/Y.TSX'), '.tsx');
});

test('predict: a tier that catches everything under src/parse/ and nothing under src/cli/ runs first for a parse patch, last for a cli patch', () => {
  const stats = emptyStats();
  for (const r of parseHistory(40)) foldRow(stats, r);
  const parse = predictOrder(stats, ['unit', 'props'], ['src/parse/new.ts']);
  assert.is(parse.order, 'predicted');
  assert.equal(parse.tiers, ['props', 'unit']);
  const cli = predictOrder(stats, ['unit', 'props'], ['src/cli/new.ts']);
  assert.equal(cli.tiers, ['unit', 'props']);
  const props = parse.predictions!.find((x) => x.tier === 'props')!;
  assert.ok(props.p > 0.8, `p ${props.p}`);
  assert.ok(cli.predictions!.find((x) => x.tier === 'props')!.p < 0.2);
  assert.is(props.seconds, 4);
  assert.equal(props.evidence.folders.keys, ['src/parse', 'src']);
  assert.equal(props.evidence.kinds.keys, ['.ts']);
  // 40 trials, decayed by their age in runs.
  assert.ok(props.evidence.rows > 38 && props.evidence.rows < 40, `rows ${props.evidence.rows}`);
});

test('predict: thin history shrinks toward the tier overall rate', () => {
  const stats = emptyStats();
  // 30 patches elsewhere: props catches 1 in 3 of them.
  for (let i = 0; i < 30; i++) for (const r of calRun([`lib/x${i}.py`], { props: [i % 3 === 0 ? 'caught' : 'pass', 2] })) foldRow(stats, r);
  // One patch under src/parse/, caught: one trial says little.
  for (const r of calRun(['src/parse/a.rs'], { props: ['caught', 2] })) foldRow(stats, r);
  const [thin] = predictTiers(stats, ['props'], ['src/parse/b.rs']);
  const overall = predictTiers(stats, ['props'], ['nowhere/else.c'])[0]!;
  assert.ok(Math.abs(overall.p - 11 / 31) < 0.05, `overall ${overall.p}`);
  assert.ok(thin!.p > overall.p && thin!.p < 0.85, `thin ${thin!.p}`);
  // Many trials under src/parse/ all caught: the estimate follows them.
  for (let i = 0; i < 30; i++) for (const r of calRun([`src/parse/m${i}.rs`], { props: ['caught', 2] })) foldRow(stats, r);
  assert.ok(predictTiers(stats, ['props'], ['src/parse/b.rs'])[0]!.p > 0.9);
});

test('predict: recent rows weigh more (half-life in runs)', () => {
  // The same 50 catches and 50 passes of src/a patches, in either order: the recent half decides.
  const history = (first: 'caught' | 'pass', then: 'caught' | 'pass') => {
    const stats = emptyStats();
    for (let i = 0; i < 50; i++) for (const r of calRun(['src/a/x.ts'], { props: [first, 1] })) foldRow(stats, r);
    for (let i = 0; i < 50; i++) for (const r of calRun(['src/a/x.ts'], { props: [then, 1] })) foldRow(stats, r);
    return predictTiers(stats, ['props'], ['src/a/x.ts'])[0]!.p;
  };
  const lately = history('pass', 'caught');
  const long = history('caught', 'pass');
  assert.ok(lately - long > 0.02, `caught lately ${lately}, caught long ago ${long}`);
  // With the half-life the weights follow: 50 runs apart, 2^(-50/HALF_LIFE_RUNS) of the weight.
  const ratio = (1 - lately) / lately;
  assert.ok(Math.abs(ratio - 2 ** (-50 / HALF_LIFE_RUNS)) < 0.05, `ratio ${ratio}`);
});

test('predict: below the calibration threshold the fixed order runs, and says why', () => {
  const stats = emptyStats();
  for (const r of parseHistory(MIN_CALIBRATION_RUNS - 1)) foldRow(stats, r);
  const d = predictOrder(stats, ['unit', 'props'], ['src/parse/a.ts']);
  assert.is(d.order, 'fixed');
  assert.equal(d.tiers, ['unit', 'props']);
  assert.match(d.why, `${MIN_CALIBRATION_RUNS - 1} calibration runs; the predicted order needs ${MIN_CALIBRATION_RUNS}`);
  // Ladder rows do not count as calibration runs.
  for (const r of calRun(['src/parse/a.ts'], { unit: ['pass', 1], props: ['caught', 4] }, false)) foldRow(stats, r);
  assert.is(predictOrder(stats, ['unit', 'props'], ['src/parse/a.ts']).order, 'fixed');
});

test('predict: errors, cached passes and seeded bugs are not trials', () => {
  const stats = emptyStats();
  foldRow(stats, { run: 'a', tier: 't', verdict: 'error', seconds: 1, files: ['x.ts'] });
  foldRow(stats, { run: 'b', tier: 't', verdict: 'pass', seconds: 0, files: ['x.ts'], cached: true });
  foldRow(stats, { run: 'c', tier: 't', verdict: 'caught', seconds: 1, files: ['x.ts'], hook: 'seed' });
  assert.is(stats.rows, 0);
  assert.is(stats.tiers.t, undefined);
  assert.equal([...stats.keys.entries()], []);
});

test('selectSkips: tiers under the risk are skipped, their chances summed, the likeliest tier always kept', () => {
  const p = (tier: string, x: number) => ({
    tier,
    p: x,
    seconds: 1,
    evidence: { rows: 0, paths: { trials: 0, keys: [] }, folders: { trials: 0, keys: [] }, kinds: { trials: 0, keys: [] } },
  });
  const s = selectSkips([p('a', 0.0004), p('b', 0.3), p('c', 0.0002)], 0.001);
  assert.equal(s.skip, ['a', 'c']);
  assert.ok(Math.abs(s.residual - 0.0006) < 1e-12);
  assert.equal(selectSkips([p('a', 0.0001), p('b', 0.0002)], 0.001).skip, ['a']);
});

test('selectSkips: a tier at the risk exactly, or above it, runs; of two equally likely tiers the first is the one kept', () => {
  const p = (tier: string, x: number) => ({
    tier,
    p: x,
    seconds: 1,
    evidence: { rows: 0, paths: { trials: 0, keys: [] }, folders: { trials: 0, keys: [] }, kinds: { trials: 0, keys: [] } },
  });
  assert.equal(selectSkips([p('a', 0.001), p('b', 0.3)], 0.001).skip, []);
  assert.equal(selectSkips([p('a', 0.2), p('b', 0.3)], 0.001).skip, []);
  assert.equal(selectSkips([p('a', 0.0001), p('b', 0.0001)], 0.001).skip, ['b']);
});

test('predictOrder: catch per expected second, highest first; a tier that never passed priced as the dearest that did; a free tier that catches first', () => {
  const stats = emptyStats();
  const files = ['src/a.ts'];
  for (let r = 0; r < MIN_CALIBRATION_RUNS; r++) {
    const row = { run: `r${r}`, calibration: true, files };
    foldRow(stats, { ...row, tier: 'quick', verdict: r % 4 === 0 ? 'caught' : 'pass', seconds: 1 });
    foldRow(stats, { ...row, tier: 'slow', verdict: r % 2 === 0 ? 'caught' : 'pass', seconds: 10 });
    foldRow(stats, { ...row, tier: 'never', verdict: 'caught', seconds: 5 });
    foldRow(stats, { ...row, tier: 'free', verdict: r % 5 === 0 ? 'caught' : 'pass', seconds: 0 });
  }
  const tiers = ['slow', 'never', 'quick', 'free'];
  const d = predictOrder(stats, tiers, files);
  const by = Object.fromEntries(d.predictions!.map((x) => [x.tier, x]));
  assert.equal(
    tiers.map((t) => by[t]!.seconds),
    [10, null, 1, 0],
  );
  // By hand from the predictions: p per second, `never` at the dearest tier's 10 s, `free` first.
  const rate = (t: string) => (by[t]!.seconds === 0 ? Number.POSITIVE_INFINITY : by[t]!.p / (by[t]!.seconds ?? 10));
  assert.equal(d.tiers, ['free', 'quick', 'never', 'slow']);
  assert.equal(
    d.tiers,
    [...tiers].sort((a, b) => rate(b) - rate(a)),
  );
});

test('predictTiers: decayed counts, the all-tiers rate, then kinds, folders shallowest first, paths; at most 3 keys named a level, none whose history decayed away', () => {
  // Hand-made stats at run S: a cell last bumped at S - 2 half-lives counts a quarter; one 1,200 half-lives back, nothing.
  const S = 600_000;
  const old = S - 2 * HALF_LIFE_RUNS;
  const keys = new MapKeys();
  const put = (key: string, cells: Record<string, Cell>) => keys.map.set(key, cells);
  put('k:.ts', { A: [2, 2, S - HALF_LIFE_RUNS], B: [0, 1, S] });
  put('k:.md', { A: [1, 1, S] });
  put('k:.json', { A: [0, 1, S] });
  put('k:.css', { A: [1, 2, S] });
  put('d:lib/deep', { A: [1, 1, S] }); // depth 2, found before any depth-1 folder ('d:lib' has no history)
  put('d:src', { A: [1, 1, S] });
  put('d:tests', { A: [0, 1, S] });
  put('d:docs', { A: [1, 2, S] });
  put('p:src/x.ts', { A: [1, 2, S] });
  put('p:q.css', { A: [1, 1, 0] });
  const stats = {
    ...emptyStats(keys),
    seq: S,
    calRuns: MIN_CALIBRATION_RUNS,
    tiers: { A: { cell: [4, 8, old] as Cell, secs: [5, 1, 3] }, B: { cell: [1, 4, S] as Cell, secs: [] } },
  };
  const files = ['lib/deep/x.ts', 'src/x.ts', 'tests/t.md', 'docs/d.json', 'q.css'];
  const [a, b, c] = predictTiers(stats, ['A', 'B', 'C'], files);
  const m = (caught: number, trials: number, prior: number) => (caught + 2 * prior) / (trials + 2);
  const all = (1 + 1 + 0.5) / (2 + 4 + 1); // A's 4 of 8 at a quarter, B's 1 of 4, and the half-trial prior
  // A: its own 1 of 2, then kinds 3 of 5, folders at depth 1 (2 of 4), at depth 2 (1 of 1), paths 1 of 2 (q.css decayed to 0 of 0).
  assert.equal(a, {
    tier: 'A',
    p: m(1, 2, m(1, 1, m(2, 4, m(3, 5, m(1, 2, all))))),
    seconds: 3,
    evidence: {
      rows: 2,
      paths: { trials: 2, keys: ['src/x.ts'] },
      folders: { trials: 4, keys: ['lib/deep', 'src', 'tests'] },
      kinds: { trials: 5, keys: ['.ts', '.md', '.json'] },
    },
  });
  // B: only the .ts kind has its history; the other keys have none of B's and are passed over.
  assert.equal(b, {
    tier: 'B',
    p: m(0, 1, m(1, 4, all)),
    seconds: null,
    evidence: { rows: 4, paths: { trials: 0, keys: [] }, folders: { trials: 0, keys: [] }, kinds: { trials: 1, keys: ['.ts'] } },
  });
  // C: no history at all: the all-tiers rate, no seconds.
  assert.equal(c, {
    tier: 'C',
    p: all,
    seconds: null,
    evidence: { rows: 0, paths: { trials: 0, keys: [] }, folders: { trials: 0, keys: [] }, kinds: { trials: 0, keys: [] } },
  });
});

test('predictOrder: when no tier ever passed, all are priced alike and the likelier catch runs first', () => {
  const stats = emptyStats();
  foldRow(stats, { run: 'r0', tier: 'A', verdict: 'caught', seconds: 1, calibration: true });
  for (let r = 0; r < 5; r++) foldRow(stats, { run: `r${r}`, tier: 'B', verdict: 'caught', seconds: 1, calibration: true });
  for (let r = 5; r < MIN_CALIBRATION_RUNS; r++)
    foldRow(stats, { run: `r${r}`, tier: 'B', verdict: 'error', seconds: 1, calibration: true });
  const d = predictOrder(stats, ['A', 'B'], []);
  assert.equal(
    d.predictions!.map((x) => x.seconds),
    [null, null],
  );
  assert.ok(d.predictions![1]!.p > d.predictions![0]!.p);
  assert.equal(d.tiers, ['B', 'A']);
});

test('emptyStats: the fold of an empty ledger', () => {
  assert.equal(statsData(emptyStats()), { seq: 0, lastRun: '', calRuns: 0, lastCal: '', rows: 0, tiers: {}, keys: {} });
});

test('median: none, odd and even counts, in numeric order, the list left as it was', () => {
  assert.is(median([]), null);
  const xs = [10, 9, 1];
  assert.is(median(xs), 9);
  assert.equal(xs, [10, 9, 1]);
  assert.is(median([4, 1, 3, 2]), 2.5);
  assert.is(median([7]), 7);
});

test('kindOf: the extension of the name (not of a folder), lower-cased; a name starting with a dot is its own kind', () => {
  assert.is(kindOf('dir.d/Makefile'), 'Makefile');
  assert.is(kindOf('src/A.TS'), '.ts');
  assert.is(kindOf('conf/.Env'), '.Env');
});

test('countsForOrder: only pass and caught rows of a real, applied, applicable, uncached run', () => {
  const row: OrderRow = { run: 'r', tier: 't', verdict: 'pass', seconds: 1 };
  assert.ok(countsForOrder(row));
  assert.ok(countsForOrder({ ...row, verdict: 'caught', hook: 'pre-push', applied: true, applicable: true, cached: false }));
  assert.not.ok(countsForOrder({ ...row, verdict: 'error' }));
  assert.not.ok(countsForOrder({ ...row, cached: true }));
  assert.not.ok(countsForOrder({ ...row, hook: 'seed' }));
  assert.not.ok(countsForOrder({ ...row, applied: false }));
  assert.not.ok(countsForOrder({ ...row, applicable: false }));
});

test("foldRow: a ladder row weighs a quarter, a calibration row one; passing seconds kept (the last SECONDS_KEPT), a catch's not", () => {
  const stats = emptyStats();
  foldRow(stats, { run: 'r1', tier: 't', verdict: 'caught', seconds: 9 });
  assert.equal(stats.tiers.t, { cell: [0.25, 0.25, 1], secs: [] });
  assert.is(stats.rows, 1);
  assert.equal(statsData(stats).keys, {}, 'a row without files adds no key');
  foldRow(stats, { run: 'r1', tier: 'u', verdict: 'caught', seconds: 9, calibration: true });
  assert.equal(stats.tiers.u!.cell, [1, 1, 1]);
  foldRow(stats, { run: 'r1', tier: 'v', verdict: 'pass', seconds: Number.NaN });
  assert.equal(stats.tiers.v!.secs, []);
  for (let i = 1; i <= SECONDS_KEPT + 1; i++) foldRow(stats, { run: 'r1', tier: 'w', verdict: 'pass', seconds: i });
  assert.is(stats.tiers.w!.secs.length, SECONDS_KEPT);
  assert.is(stats.tiers.w!.secs[0], 2);
  assert.is(stats.rows, 3 + SECONDS_KEPT + 1);
});

test('statsData: the keys sorted, each with its cells', () => {
  const stats = emptyStats();
  foldRow(stats, { run: 'r1', tier: 't', verdict: 'pass', seconds: 1, files: ['z/b.ts', 'a.md'], calibration: true });
  const data = statsData(stats);
  assert.equal(Object.keys(data.keys), ['d:z', 'k:.md', 'k:.ts', 'p:a.md', 'p:z/b.ts']);
  assert.equal(data.keys['p:a.md'], { t: [0, 1, 1] });
  assert.is(data.rows, 1);
});

test('replayOrder: seconds to the first catch and APFDc, by hand', () => {
  const got = new Map([
    ['a', { verdict: 'pass', seconds: 2 }],
    ['b', { verdict: 'pass', seconds: 6 }],
    ['c', { verdict: 'caught', seconds: 2 }],
  ]);
  // a, b, c: caught after 10 s; APFDc = (2 − 1) ÷ 10.
  assert.equal(replayOrder(['a', 'b', 'c'], got), { toCatch: 10, apfdc: 0.1, spent: 10 });
  // c first: 2 s; APFDc = (10 − 1) ÷ 10.
  assert.equal(replayOrder(['c', 'a', 'b'], got), { toCatch: 2, apfdc: 0.9, spent: 2 });
  // Without c: no catch.
  assert.equal(replayOrder(['a', 'b'], got), { spent: 8 });
});

test('evaluateOrder: on calibration runs in time order, predicted against fixed, hand-computed', () => {
  const rows = parseHistory(MIN_CALIBRATION_RUNS);
  // Four patches after the warm-up: two under src/parse/ (props catches, 4 s; unit passes, 1 s), two under src/cli/ (none catches).
  rows.push(...calRun(['src/parse/q.ts'], { unit: ['pass', 1], props: ['caught', 4] }));
  rows.push(...calRun(['src/cli/q.ts'], { unit: ['pass', 1], props: ['pass', 4] }));
  rows.push(...calRun(['src/parse/r.ts'], { unit: ['pass', 1], props: ['caught', 4] }));
  rows.push(...calRun(['src/cli/r.ts'], { unit: ['pass', 1], props: ['pass', 4] }));
  // A run with an error is left out.
  rows.push(...calRun(['src/parse/s.ts'], { unit: ['error', 1], props: ['caught', 4] }));
  const e = evaluateOrder(rows, { tiers: ['unit', 'props'], select: { risk: 0.2 } });
  assert.is(e.patches, 4);
  assert.is(e.catching_patches, 2);
  assert.is(e.left_out_errors, 1);
  // Fixed: unit (1 s) then props (4 s): caught at 5 s, APFDc (4 − 2) ÷ 5 = 0.4.
  assert.equal(e.fixed, { median_seconds_to_first_catch: 5, mean_apfdc: 0.4, missed: 0 });
  // Predicted: props first: 4 s, APFDc (5 − 2) ÷ 5 = 0.6.
  assert.equal(e.predicted, { median_seconds_to_first_catch: 4, mean_apfdc: 0.6, missed: 0 });
  assert.is(e.ratio, 0.8);
  // Select at 0.2 skips props on the cli patches (p near 0) and unit on the parse patches: no catch missed; 4 s saved twice.
  assert.equal(e.select, { risk: 0.2, missed: 0, seconds_saved: 8, tiers_skipped: 4 });
});

test('evaluateOrder: too little history says so, with patches 0', () => {
  const e = evaluateOrder(parseHistory(5), { tiers: ['unit', 'props'] });
  assert.is(e.patches, 0);
  assert.match(e.reason!, '5 calibration runs');
});

test('order index: an incremental update equals a rebuild; a shrunk or rewritten ledger rebuilds; a torn last line waits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-order-index-'));
  try {
    const ledger = join(dir, 'ledger.jsonl');
    const lines = parseHistory(30).map((r) => JSON.stringify({ ts: '2026-01-01T00:00:00Z', patch: 'p', ...r }));
    writeFileSync(ledger, `${lines.slice(0, 20).join('\n')}\n`);
    const first = loadOrderStats(ledger, NOW);
    assert.is(first.rebuilt, 'no index');
    // The rest arrives, the last line torn (being written).
    const rest = `${lines.slice(20).join('\n')}\n`;
    appendFileSync(ledger, rest.slice(0, -10));
    const partial = loadOrderStats(ledger, NOW);
    assert.is(partial.rebuilt, undefined);
    appendFileSync(ledger, rest.slice(-10));
    const inc = loadOrderStats(ledger, NOW);
    assert.is(inc.rebuilt, undefined);
    assert.ok(inc.folded > 0);
    const full = emptyStats();
    for (const r of parseHistory(30).map((r, i) => ({ ...r, run: JSON.parse(lines[i]!).run }))) foldRow(full, r);
    rmSync(orderIndexPath(ledger));
    const rebuilt = loadOrderStats(ledger, NOW);
    assert.is(rebuilt.rebuilt, 'no index');
    // Equal, to the 6 digits the index file keeps of each count.
    assert.equal(digits(statsData(inc.stats)), digits(statsData(rebuilt.stats)));
    assert.equal(digits(statsData(rebuilt.stats)), digits(statsData(full)));
    // Nothing new: nothing folded, nothing rebuilt; read back from the file, the same.
    const again = loadOrderStats(ledger, NOW);
    assert.is(again.folded, 0);
    assert.is(again.rebuilt, undefined);
    assert.equal(digits(statsData(again.stats)), digits(statsData(full)));
    // Shrunk (gc): rebuilt.
    truncateSync(ledger, Buffer.byteLength(`${lines.slice(0, 10).join('\n')}\n`));
    assert.is(loadOrderStats(ledger, NOW).rebuilt, 'the ledger shrank');
    // Rewritten, longer, with other rows: rebuilt.
    writeFileSync(ledger, `${lines.slice(5).join('\n')}\n`);
    const re = loadOrderStats(ledger, NOW);
    assert.is(re.rebuilt, 'the ledger was rewritten');
    // A torn index file: rebuilt.
    writeFileSync(orderIndexPath(ledger), readFileSync(orderIndexPath(ledger), 'utf8').slice(0, 50));
    assert.is(loadOrderStats(ledger, NOW).rebuilt, 'no index');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A plan of two running tiers and one t0-scope skipped, for order-plan. */
function plan(files: string[]): Plan {
  const tier = (name: string) => ({ name }) as ResolvedTier;
  return {
    files,
    fileCount: files.length,
    hits: [],
    tiers: [
      { tier: tier('unit'), run: true },
      { tier: tier('props'), run: true },
      { tier: tier('slow'), run: false, skip: 'scope', reason: 'test-adjacent' },
    ],
  };
}

test('orderPlan: predicted reorders the running tiers only; a calibration run keeps the listed order; select never skips on ci or calibration runs', () => {
  const stats = emptyStats();
  for (const r of parseHistory(40)) foldRow(stats, r);
  const names = (p: Plan) => p.tiers.map((t) => [t.tier.name, t.run, t.skip ?? null]);
  const push = orderPlan(plan(['src/parse/a.ts']), { order: 'predicted' }, stats, { ci: false, calibration: false });
  assert.equal(names(push), [
    ['props', true, null],
    ['unit', true, null],
    ['slow', false, 'scope'],
  ]);
  assert.is(push.order!.order, 'predicted');
  assert.ok(push.tiers[0]!.p! > push.tiers[1]!.p!);
  const cal = orderPlan(plan(['src/parse/a.ts']), { order: 'predicted', select: { risk: 0.2 } }, stats, { ci: false, calibration: true });
  assert.equal(names(cal).slice(0, 2), [
    ['unit', true, null],
    ['props', true, null],
  ]);
  assert.is(cal.order!.why, 'a calibration run runs every tier in the listed order');
  assert.is(cal.order!.because, 'calibration');
  assert.is(push.order!.because, undefined);
  assert.is(cal.order!.selectOff, 'a calibration run runs every tier');
  const selected = orderPlan(plan(['src/parse/a.ts']), { order: 'predicted', select: { risk: 0.2 } }, stats, {
    ci: false,
    calibration: false,
  });
  assert.equal(names(selected).slice(0, 2), [
    ['props', true, null],
    ['unit', false, 'select'],
  ]);
  assert.equal(selected.order!.selected!.skipped, ['unit']);
  const ci = orderPlan(plan(['src/parse/a.ts']), { order: 'predicted', select: { risk: 0.2 } }, stats, { ci: true, calibration: false });
  assert.ok(ci.tiers.filter((t) => t.tier.name !== 'slow').every((t) => t.run));
  assert.is(ci.order!.selectOff, '`gate-ladder ci` runs every tier');
  // select with the listed order: the order stays, the unlikely tier is skipped.
  const fixed = orderPlan(plan(['src/parse/a.ts']), { select: { risk: 0.2 } }, stats, { ci: false, calibration: false });
  assert.equal(names(fixed).slice(0, 2), [
    ['unit', false, 'select'],
    ['props', true, null],
  ]);
  assert.is(fixed.order!.order, 'fixed');
  assert.is(fixed.order!.because, 'config');
  // Too little history: the listed order, said, and select off.
  const thin = emptyStats();
  for (const r of parseHistory(3)) foldRow(thin, r);
  const early = orderPlan(plan(['src/parse/a.ts']), { order: 'predicted', select: { risk: 0.2 } }, thin, { ci: false, calibration: false });
  assert.is(early.order!.because, 'history');
  assert.match(early.order!.selectOff!, '3 calibration runs; the predicted order needs 20');
  assert.ok(early.tiers.slice(0, 2).every((t) => t.run));
});

test.run();
