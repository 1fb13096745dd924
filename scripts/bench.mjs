// Runs every scripts/bench-*.mjs in turn (after `npm run build`, see package.json), passing its
// arguments on (`npm run bench -- --quick` for fewer repetitions). Each prints its own figures.
// bench-order.mjs (calibrated replays of five libraries, about 15 minutes) runs on its own:
// `npm run bench:order`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const benches = readdirSync('scripts')
  .filter((f) => /^bench-.+\.mjs$/.test(f) && f !== 'bench-order.mjs')
  .sort();
console.log(`gate-ladder benchmarks · ${new Date().toISOString()} · ${availableParallelism()} cores · ${benches.join(', ')}`);
let failed = 0;
for (const file of benches) {
  const r = spawnSync(process.execPath, [`scripts/${file}`, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`${file} failed (exit ${r.status})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
