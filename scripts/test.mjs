// Runs the uvu suites (unit first, then integration) and ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['build/test/unit', 'build/test/integration'];
let passed = 0;
let failed = 0;
let skipped = 0;
let status = 0;
for (const dir of suites) {
  if (!existsSync(dir)) continue;
  const r = spawnSync(process.execPath, ['node_modules/uvu/bin.js', dir, '\\.test\\.js$', '--no-color'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  process.stdout.write(r.stdout ?? '');
  const num = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(r.stdout ?? '')?.[1] ?? 0);
  const total = num('Total');
  const p = num('Passed');
  const s = num('Skipped');
  passed += p;
  skipped += s;
  failed += total - p - s;
  if (r.status !== 0) {
    status = 1;
    if (total === 0) failed += 1; // the suite crashed before counting
  }
}
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(status || (failed > 0 ? 1 : 0));
