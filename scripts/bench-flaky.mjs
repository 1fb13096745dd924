// A 150,000-test suite with 50 runs (issue 21). Its history is recorded through the hook's own recording
// function (build/, so `npm run build` first; it compacts as it goes), one real `gate-ladder run` of a gate
// writing a 150,000-case JUnit report shows that a tier's seconds include reading the report, and then
// `gate-ladder flaky --json` is timed a few times, with its peak RSS (the child's own getrusage, via a preload).
// Budget: `flaky --json` at most 5 s and 500 MB. Usage: node scripts/bench-flaky.mjs [tests] [runs] [repeats]
// (`--quick`: 20,000 tests, 10 runs).
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { CLI, PROJECT, QUICK, git, run, tempDir } from './lib/bench-utils.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const TESTS = Number(args[0] ?? (QUICK ? 20_000 : 150_000));
const RUNS = Number(args[1] ?? (QUICK ? 10 : 50));
const REPEATS = Number(args[2] ?? 5);
const LIMIT_S = 5;
const LIMIT_MB = 500;

const dir = tempDir('gate-ladder-bench-flaky-');
const repo = join(dir, 'repo');
run('git', ['init', '-q', '-b', 'main', repo], dir);
for (const [k, v] of [
  ['user.name', 'Bench'],
  ['user.email', 'bench@example.invalid'],
  ['commit.gpgSign', 'false'],
  ['gc.auto', '0'],
])
  git(repo, 'config', k, v);

// The gate: a report of TESTS cases in 500 files, each run failing about one in 5,000 at random; it times itself.
writeFileSync(
  join(repo, 'gen.mjs'),
  `import { writeFileSync } from 'node:fs';
const t0 = process.hrtime.bigint();
const n = ${TESTS};
const parts = ['<?xml version="1.0" encoding="utf-8"?>\\n<testsuites>\\n'];
let failed = 0;
for (let i = 0; i < n; i++) {
  const file = 'test/area' + (i % 500) + '/unit.test.mjs';
  const fail = Math.random() < 0.0002;
  if (fail) failed++;
  parts.push('\\t<testcase name="case ' + i + ' computes the expected value" time="0.001" classname="test" file="' + file + '"' + (fail ? '><failure message="x">x</failure></testcase>\\n' : '/>\\n'));
}
parts.push('</testsuites>\\n');
writeFileSync('junit.xml', parts.join(''));
writeFileSync(process.env.GATE_SECONDS_FILE, String(Number(process.hrtime.bigint() - t0) / 1e9));
process.exit(failed > 0 ? 1 : 0);
`,
);
writeFileSync(
  join(repo, '.gate-ladderrc.json'),
  JSON.stringify({
    tiers: [{ name: 't1', run: 'node gen.mjs', runner: 'node', junit: 'junit.xml', timeout: 600 }],
    cache: false,
    isolation: 'none',
  }),
);
writeFileSync(join(repo, '.gitignore'), 'junit.xml\n');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'base');
writeFileSync(join(repo, 'src.txt'), 'a change\n');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'a change to judge');

const common = join(repo, '.git', 'gate-ladder');
const testsFile = join(common, 'tests.jsonl');
mkdirSync(common, { recursive: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const size = (f) => {
  try {
    return statSync(join(common, f)).size / 1e6;
  } catch {
    return 0;
  }
};

// History: RUNS records of TESTS outcomes, appended through the hook's own recording (and compaction), every
// fifth run on a new tree, the others on a tree judged before (as retries and re-pushes give).
const { recordTests } = await import(join(PROJECT, 'build', 'src', 'evidence', 'history-store.js'));
const ids = Array.from({ length: TESTS }, (_, i) => `test/area${i % 500}/unit.test.mjs::case ${i} computes the expected value`);
const recordMs = [];
for (let i = 0; i < RUNS; i++) {
  const failed = new Set(ids.filter(() => Math.random() < 0.0002));
  const rec = {
    ts: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    run: `r${i}`,
    tier: 't1',
    hook: 'pre-push',
    patch: `c${Math.floor(i / 5)}`,
    tree: `t${Math.floor(i / 5)}`,
    cmd: 'k',
    pass: ids.filter((id) => !failed.has(id)),
    fail: [...failed],
    skip: [],
  };
  const r0 = performance.now();
  recordTests(testsFile, rec);
  recordMs.push(performance.now() - r0);
}
console.log(
  `bench-flaky: recorded ${RUNS} runs of ${TESTS} tests; recording one run (append, and compaction when due) median ${median(recordMs).toFixed(0)} ms, max ${Math.max(...recordMs).toFixed(0)} ms`,
);
console.log(
  `bench-flaky: history on disk: tests-history.json ${size('tests-history.json').toFixed(1)} MB, tests.jsonl ${size('tests.jsonl').toFixed(1)} MB (the raw records would be ${((JSON.stringify(ids).length * RUNS) / 1e6).toFixed(0)} MB)`,
);

// One real run of the gate: its row's seconds include reading its ${TESTS}-case report.
const secondsFile = join(dir, 'gate-seconds');
const r0 = performance.now();
const real = run(process.execPath, [CLI, 'run', '--base', 'HEAD~1'], repo, { env: { GATE_SECONDS_FILE: secondsFile }, allowFail: true });
if (real.status !== 0 && real.status !== 1) throw new Error(`the real run failed (${real.status}): ${real.stderr}`);
const runWall = (performance.now() - r0) / 1000;
const ledger = readFileSync(join(common, 'ledger.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
console.log(
  `bench-flaky: one real run: the tier's seconds ${ledger.at(-1).seconds.toFixed(2)} s include reading its report; the gate alone took ${Number(readFileSync(secondsFile, 'utf8')).toFixed(2)} s, the whole run ${runWall.toFixed(2)} s`,
);

const usage = join(dir, 'usage.json');
const preload = join(dir, 'rusage.cjs');
writeFileSync(
  preload,
  `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(usage)}, JSON.stringify(process.resourceUsage())));\n`,
);
let t = 0;
const walls = [];
const cpu = [];
const rss = [];
const load = [];
for (let i = 0; i < REPEATS; i++) {
  load.push(loadavg()[0]);
  t = performance.now();
  const r = run(process.execPath, ['--require', preload, CLI, 'flaky', '--json'], repo);
  walls.push((performance.now() - t) / 1000);
  if (i === 0) {
    const json = JSON.parse(r.stdout);
    const flips = json.tests.filter((x) => x.flips > 0).length;
    console.log(
      `bench-flaky: ${json.tests.length} tests listed, ${json.tests[0].runs} runs each, ${json.tests[0].same_code_runs} on a tree judged before; ${flips} with a same-code flip`,
    );
  }
  const u = JSON.parse(readFileSync(usage, 'utf8'));
  rss.push(u.maxRSS / 1024);
  cpu.push((u.userCPUTime + u.systemCPUTime) / 1e6);
}
const wall = median(walls);
const peak = Math.max(...rss);
const ok = wall <= LIMIT_S && peak <= LIMIT_MB;
console.log(
  `bench-flaky: flaky --json wall ${walls.map((w) => w.toFixed(2)).join(' ')} s; median ${wall.toFixed(2)} s (limit ${LIMIT_S} s); CPU (user + sys) median ${median(cpu).toFixed(2)} s`,
);
console.log(
  `bench-flaky: peak RSS ${peak.toFixed(0)} MB (limit ${LIMIT_MB} MB); load before each ${load.map((l) => l.toFixed(1)).join(' ')}; ${cpus().length} cores, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log(`bench-flaky: ${ok ? 'within budget' : 'OVER BUDGET'}`);
process.exitCode = ok ? 0 : 1;
