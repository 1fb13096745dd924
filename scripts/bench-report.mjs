// Generates a 1,000,000-row ledger in a temp dir, times `gate-ladder report --json` on it a few times,
// and prints the median wall time and the peak RSS (the child's own getrusage, via a preload).
// Budget (issue 5): at most 5 s and 300 MB. Then `report --html` on the same ledger, interleaved with --json:
// budget (issue 19) at most 2x the --json time, and a file under 2 MB. Usage: node scripts/bench-report.mjs [rows] [repeats]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seeded } from './lib/bench-utils.mjs';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const REPEATS = Number(process.argv[3] ?? 5);
const LIMIT_S = 5;
const LIMIT_MB = 300;
const HTML_RATIO = 2;
const HTML_MAX_BYTES = 2 * 1024 * 1024;
const cli = resolve('dist/cli.mjs');

/** Rows shaped like the ladder's: 20 % routed past t1, 10 % calibration, 2 % cached, a few errors and bad lines. */
function generate(path, rows) {
  const rnd = seeded(5);
  const word = () => ((rnd() * 0x100000000) >>> 0).toString(16).padStart(8, '0');
  const hex = (n) => {
    let s = '';
    while (s.length < n) s += word();
    return s.slice(0, n);
  };
  const fd = openSync(path, 'w');
  let lines = [];
  let written = 0;
  let ts = Date.parse('2025-01-01T00:00:00Z');
  while (written < rows) {
    const run = hex(12);
    const patch = hex(40);
    const routed = rnd() < 0.2;
    const calibration = rnd() < 0.1;
    const tiers = routed ? ['t2-fixtures'] : ['t1-properties', 't2-fixtures'];
    for (const tier of tiers) {
      const r = rnd();
      const verdict = r < (tier === 't1-properties' ? 0.15 : 0.05) ? 'caught' : r > 0.98 ? 'error' : 'pass';
      const seconds = Math.round((tier === 't1-properties' ? 2 + rnd() * 6 : 60 + rnd() * 240) * 1000) / 1000;
      const files = routed ? ['src/app.py', 'tests/test_app.py'] : ['src/app.py', 'src/lib/util.py', 'README.md'];
      lines.push(
        JSON.stringify({
          ts: new Date((ts += 60_000)).toISOString(),
          run,
          hook: 'pre-push',
          patch,
          base: hex(40),
          ref: 'refs/heads/feature',
          tier,
          verdict,
          seconds,
          exit: verdict === 'pass' ? 0 : verdict === 'caught' ? 1 : 2,
          files,
          files_count: files.length,
          routed,
          ...(routed && { skipped: ['t1-properties'] }),
          isolation: 'none',
          ...(calibration && { calibration: true }),
          ...(rnd() < 0.02 && { cached: true }),
        }),
      );
      if (++written % 100_000 === 0) lines.push('{"ts":"2025-01-01T00:00:00.000Z","run":"cut-off mid-wri');
      if (written >= rows || (verdict !== 'pass' && !calibration)) break;
    }
    if (lines.length >= 10_000) {
      writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
  closeSync(fd);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const dir = mkdtempSync(join(tmpdir(), 'gate-ladder-bench-'));
try {
  const ledger = join(dir, 'ledger.jsonl');
  const usage = join(dir, 'usage.json');
  const preload = join(dir, 'rusage.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(usage)}, JSON.stringify(process.resourceUsage())));\n`,
  );
  const t = performance.now();
  generate(ledger, ROWS);
  console.log(`bench-report: generated ${ROWS} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const walls = [];
  const htmlWalls = [];
  const cpu = [];
  const rss = [];
  const load = [];
  const html = join(dir, 'report.html');
  const timed = (args) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--require', preload, cli, 'report', '--ledger', ledger, ...args], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`report ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { r, wall, usage: JSON.parse(readFileSync(usage, 'utf8')) };
  };
  for (let i = 0; i < REPEATS; i++) {
    load.push(loadavg()[0]);
    // Interleaved, and in alternating order, so a change in the machine's load weighs on both alike.
    const pair = i % 2 === 0 ? ['json', 'html'] : ['html', 'json'];
    for (const kind of pair) {
      if (kind === 'html') {
        htmlWalls.push(timed(['--html', html]).wall);
        continue;
      }
      const { r, wall, usage: u } = timed(['--json']);
      walls.push(wall);
      if (walls.length === 1) {
        const json = JSON.parse(r.stdout);
        console.log(`bench-report: ${json.rows} rows, ${json.skipped_lines} skipped lines, ${json.attempts} attempts counted`);
      }
      rss.push(u.maxRSS / 1024);
      cpu.push((u.userCPUTime + u.systemCPUTime) / 1e6);
    }
  }
  const wall = median(walls);
  const peak = Math.max(...rss);
  const htmlWall = median(htmlWalls);
  const ratio = htmlWall / wall;
  const bytes = statSync(html).size;
  const ok = wall <= LIMIT_S && peak <= LIMIT_MB;
  const htmlOk = ratio <= HTML_RATIO && bytes < HTML_MAX_BYTES;
  console.log(`bench-report: wall ${walls.map((w) => w.toFixed(2)).join(' ')} s; median ${wall.toFixed(2)} s (limit ${LIMIT_S} s)`);
  console.log(
    `bench-report: CPU (user + sys) median ${median(cpu).toFixed(2)} s; 1-minute load average before each run ${load.map((l) => l.toFixed(1)).join(' ')}`,
  );
  console.log(
    `bench-report: peak RSS ${peak.toFixed(0)} MB (limit ${LIMIT_MB} MB); ${cpus().length} cores, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
  );
  console.log(`bench-report: --json ${ok ? 'within budget' : 'OVER BUDGET'}`);
  console.log(
    `bench-report: --html wall ${htmlWalls.map((w) => w.toFixed(2)).join(' ')} s; median ${htmlWall.toFixed(2)} s, ${ratio.toFixed(2)}x --json (limit ${HTML_RATIO}x); file ${(bytes / 1024).toFixed(0)} KB (limit ${HTML_MAX_BYTES / 1024} KB)`,
  );
  console.log(`bench-report: --html ${htmlOk ? 'within budget' : 'OVER BUDGET'}`);
  process.exitCode = ok && htmlOk ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
