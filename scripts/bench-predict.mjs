// The per-push cost of `order: 'predicted'` on a ledger of 100,000 rows (issue 37: under 5 ms): the
// order index beside the ledger read and caught up with the rows appended since (one run's four rows),
// and the prediction for a patch of five paths; then, apart, the index written back in the background
// (while a push's gates run). Also
// the one-off cost of building the index from the whole ledger (a missing or stale index), and its size.
//
//   node scripts/bench-predict.mjs [--quick]     (--quick: 20,000 rows, fewer runs)
//
// The ledger is made up: 25,000 runs of four tiers over 3,000 paths in 150 folders, one run in ten a
// calibration run, each tier catching more in some folders than others.
import { appendFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT, QUICK, header, report, seeded, stats, tempDir } from './lib/bench-utils.mjs';

const ROWS = QUICK ? 20_000 : 100_000;
const REPS = QUICK ? 30 : 200;
const TIERS = ['t1-lint', 't2-unit', 't3-props', 't4-e2e'];
const SECONDS = [2, 20, 45, 240];

const { loadOrderStats, orderIndexPath } = await import(pathToFileURL(join(PROJECT, 'build/src/ledger/order-index.js')).href);
const { predictOrder } = await import(pathToFileURL(join(PROJECT, 'build/src/ledger/predict.js')).href);
const { mayExitNow } = await import(pathToFileURL(join(PROJECT, 'build/src/util/early-exit.js')).href);

/** The index written in the background after a catch-up: done when no background work is left. */
async function written() {
  const t = performance.now();
  while (!mayExitNow()) await new Promise((r) => setImmediate(r));
  return performance.now() - t;
}

const random = seeded(37);
const folders = Array.from({ length: 150 }, (_, i) => `packages/p${i % 10}/src/m${i}`);
const paths = Array.from({ length: 3000 }, (_, i) => `${folders[i % 150]}/f${i}.${['ts', 'tsx', 'json', 'md'][i % 4]}`);
const sha = (n) => n.toString(16).padStart(40, '0');

let runNo = 0;
/** One run's rows: a ladder run stops at the first catch, a calibration run runs every tier. */
function runRows() {
  const n = runNo++;
  const calibration = n % 10 === 0;
  const files = Array.from({ length: 1 + Math.floor(random() * 8) }, () => paths[Math.floor(random() * paths.length)]);
  const folder = Number(files[0].split('/')[3].slice(1));
  const rows = [];
  for (let t = 0; t < TIERS.length; t++) {
    // Each tier catches 2 % of patches, 30 % in "its" folders (one in four).
    const caught = random() < (folder % 4 === t ? 0.3 : 0.02);
    rows.push(
      JSON.stringify({
        ts: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
        run: `r${n}`,
        hook: calibration ? 'manual' : 'pre-push',
        patch: sha(n + 1),
        base: sha(n),
        ref: 'refs/heads/main',
        tier: TIERS[t],
        verdict: caught ? 'caught' : 'pass',
        seconds: SECONDS[t] * (0.8 + random() * 0.4),
        exit: caught ? 1 : 0,
        files,
        files_count: files.length,
        routed: false,
        isolation: 'none',
        ...(calibration && { calibration: true }),
      }),
    );
    if (caught && !calibration) break;
  }
  return rows;
}

header(`predict: order index and prediction, ledger of ${ROWS.toLocaleString('en')} rows`);
const dir = tempDir('gl-bench-predict-');
const ledger = join(dir, 'ledger.jsonl');
const lines = [];
while (lines.length < ROWS) lines.push(...runRows());
writeFileSync(ledger, `${lines.join('\n')}\n`);
const patch = paths.slice(100, 105);

const t0 = performance.now();
const built = loadOrderStats(ledger);
await written();
const buildMs = performance.now() - t0;
if (built.rebuilt !== 'no index') throw new Error(`expected a build from scratch, got ${built.rebuilt}`);
console.log(
  `  index built from the whole ledger (${(statSync(ledger).size / 1e6).toFixed(1)} MB) in ${buildMs.toFixed(0)} ms; index ${(statSync(orderIndexPath(ledger)).size / 1e3).toFixed(0)} kB; ${built.stats.calRuns} calibration runs`,
);

const push = [];
const writes = [];
const still = [];
for (let i = 0; i < REPS; i++) {
  // A push: the previous push's rows are new since the index; read, catch up, write, predict.
  appendFileSync(ledger, `${runRows().join('\n')}\n`);
  let s = performance.now();
  const load = loadOrderStats(ledger);
  const decision = predictOrder(load.stats, TIERS, patch);
  push.push(performance.now() - s);
  // The index written back meanwhile (the gates would be running).
  writes.push(await written());
  if (load.rebuilt !== undefined || load.folded === 0 || decision.order !== 'predicted')
    throw new Error('expected a catch-up and a prediction');
  // Nothing new since: read and predict only.
  s = performance.now();
  predictOrder(loadOrderStats(ledger).stats, TIERS, patch);
  still.push(performance.now() - s);
}
report({
  'per push: index read, one run caught up, predicted': stats(push),
  'per push, nothing new since the index: read and predicted': stats(still),
  'the index written back after a catch-up (in the background)': stats(writes),
});
const median = stats(push).median;
console.log(`  target: under 5 ms per push: ${median < 5 ? 'met' : 'NOT met'} (${median.toFixed(2)} ms)`);
rmSync(dir, { recursive: true, force: true });
