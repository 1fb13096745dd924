// Runs every scripts/bench-*.mjs in name order (add yours there); exits non-zero if any did.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const benches = readdirSync('scripts').filter((f) => /^bench-.+\.mjs$/.test(f)).sort();
let status = 0;
for (const file of benches) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, [join('scripts', file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.log(`== ${file} failed (exit ${r.status ?? r.signal})`);
    status = 1;
  }
}
if (benches.length === 0) console.log('no scripts/bench-*.mjs to run');
process.exit(status);
