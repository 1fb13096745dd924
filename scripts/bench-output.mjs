// A gate's output through gate-ladder: a real run (`gate-ladder run --base HEAD~1`, the tree cache
// off) whose one tier prints N MB of NUL bytes, or N MB of ordinary text lines, beside a tier that
// prints nothing (the run's own cost) and the same bytes piped straight to a reader (`| cat`). Every
// byte passes through the reading of the output and the escaping of control characters
// (src/gates/gate.ts, src/gates/gate-output.ts) under `output: 'all'`; one more case runs the text under the
// default `output: 'summary'` (the bytes written to a log under the git dir, up to its 64 MB cap, nothing
// shown for a passing tier); the figure is MB/s once the empty run is taken off.
//
//   node scripts/bench-output.mjs [--quick]     (--quick: 64 MB, fewer runs)
import { join } from 'node:path';
import { CLI, QUICK, commitAll, header, initRepo, linkGateLadder, loadNote, measure, report, tempDir, write } from './lib/bench-utils.mjs';

const MB = QUICK ? 64 : 512;
const BYTES = MB * 1024 * 1024;
const REPS = QUICK ? 3 : 7;
const TEXT = `yes 'ok 1 - a passing test, its name and the time it took (3 ms)' | head -c ${BYTES}`;
const NULS = `head -c ${BYTES} /dev/zero`;

header(`bench-output: ${MB} MB of a gate's output through gate-ladder`);
const root = tempDir('gl-bench-output-');

/** A repo whose one tier runs `command`; returns the case that runs it as a user's manual run does. */
function repoCase(name, command, output = 'all') {
  const dir = join(root, name.replace(/\W+/g, '-'));
  initRepo(dir);
  linkGateLadder(dir);
  write(dir, {
    '.gitignore': 'node_modules\n',
    'gate-ladder.config.ts': `export default { cache: false, output: '${output}', tiers: [{ name: 't1', run: ${JSON.stringify(command)}, timeout: 600 }] };\n`,
  });
  commitAll(dir, 'config');
  write(dir, { 'a.txt': 'a\n' });
  commitAll(dir, 'change');
  return { name, file: process.execPath, args: [CLI, 'run', '--base', 'HEAD~1'], cwd: dir };
}

const cases = [
  repoCase('gate-ladder, empty tier', 'true'),
  repoCase(`gate-ladder, ${MB} MB of NULs`, NULS),
  repoCase(`gate-ladder, ${MB} MB of text`, TEXT),
  repoCase(`gate-ladder, ${MB} MB of text, output: summary`, TEXT, 'summary'),
  { name: `raw: ${MB} MB of NULs | cat`, file: 'sh', args: ['-c', `${NULS} | cat > /dev/null`], cwd: root },
  { name: `raw: ${MB} MB of text | cat`, file: 'sh', args: ['-c', `${TEXT} | cat > /dev/null`], cwd: root },
];
const results = measure(cases, { reps: REPS, warmup: 1 });
report(results);
const floor = results[cases[0].name].median;
for (const c of cases.slice(1, 4)) {
  const ms = results[c.name].median - floor;
  console.log(`  ${c.name}: ${(MB / (ms / 1000)).toFixed(0)} MB/s through gate-ladder (median, the empty tier's run taken off)`);
}
for (const c of cases.slice(4)) console.log(`  ${c.name}: ${(MB / (results[c.name].median / 1000)).toFixed(0)} MB/s`);
loadNote();
