// Runs the uvu suites (unit, integration, faults) and ends with one line: `N passed, N failed`.
//
// On this Node first, then again, whole, on each Node binary named in GATE_LADDER_TEST_NODES
// (space-separated paths; .ci/run sets it to Node 22, 24 and 26). Each run puts its Node's folder
// first on PATH, so the installed hook's `node ...` line and every script the tests start run on
// the Node under test too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';

const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['build/test/unit', 'build/test/integration', 'build/test/faults'];
const extra = (process.env.GATE_LADDER_TEST_NODES ?? '').split(/\s+/).filter(Boolean);
const nodes = [process.execPath, ...extra];
let passed = 0;
let failed = 0;
let skipped = 0;
let status = 0;
const perNode = [];

for (const node of nodes) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    process.stdout.write(`\n== ${node}: not a Node binary here (${(version.error?.message ?? version.stderr ?? '').trim()}); counted as one failure\n`);
    failed += 1;
    status = 1;
    perNode.push(`${node}: could not start`);
    continue;
  }
  const label = `node ${version.stdout.trim()}`;
  if (nodes.length > 1) process.stdout.write(`\n== ${label} (${node})\n`);
  const env = { ...process.env, NO_COLOR: '1', PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const p0 = passed;
  const f0 = failed;
  for (const dir of suites) {
    if (!existsSync(dir)) continue;
    const r = spawnSync(node, ['node_modules/uvu/bin.js', dir, '\\.test\\.js$', '--no-color'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 256 * 1024 * 1024,
      env,
    });
    process.stdout.write(r.stdout ?? '');
    const num = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(r.stdout ?? '')?.[1] ?? 0);
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
  perNode.push(`${label}: ${passed - p0} passed, ${failed - f0} failed`);
}
if (nodes.length > 1) process.stdout.write(`\n${perNode.join('\n')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(status || (failed > 0 ? 1 : 0));
