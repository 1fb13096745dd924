// Shared by scripts/bench-*.mjs: temp repos, interleaved timing, medians. No network, no global state.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(PROJECT, 'dist', 'cli.cjs');
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/** An environment free of the caller's git and hook variables, as a fresh terminal would have. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k === 'GATE_LADDER' || k === 'HUSKY' || k === 'LEFTHOOK' || k.startsWith('npm_')) continue;
    env[k] = v;
  }
  // `npm run` puts node_modules/.bin directories first on PATH; a terminal (and git) would not have them.
  const path = (env.PATH ?? '')
    .split(':')
    .filter((p) => !p.endsWith('node_modules/.bin') && !p.includes('/node-gyp-bin'))
    .join(':');
  return { ...env, PATH: path, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1', ...extra };
}

export function run(file, args, cwd, opts = {}) {
  const r = spawnSync(file, args, { cwd, env: cleanEnv(opts.env), input: opts.input ?? '', encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${file} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r;
}

export const git = (cwd, ...args) => run('git', args, cwd).stdout.trim();

/** The temp folders made so far, removed on exit (one listener for all of them). */
const temps = [];
process.once('exit', () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A temp folder removed on exit, also when the benchmark fails. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

// The worktree pools of the benchmarks' repositories: in a temp folder of their own, removed at exit
// with the repositories (by default a pool is kept in /var/tmp, which would outlive them). Same
// filesystem as the repositories here, as /var/tmp is beside a user's checkout.
process.env.GATE_LADDER_WORKTREES ??= tempDir('gl-bench-pools-');

/** `git init` with a fixed identity and no background work. */
export function initRepo(dir) {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [k, v] of [
    ['user.name', 'Bench'],
    ['user.email', 'bench@example.invalid'],
    ['commit.gpgSign', 'false'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
  ]) {
    git(dir, 'config', k, v);
  }
}

export function write(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export function commitAll(dir, message) {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/**
 * Leaves the repo as one whose files were edited a while before their commit: tracked files' mtimes
 * moved 10 s back and the index refreshed. Right after a script writes and commits in the same second,
 * git's index marks those entries "racily clean" (it cannot trust their stat data), and gate-ladder's
 * in-process work-tree check then defers to `git status`; a push seconds after the last edit does not.
 */
export function settle(dir) {
  const then = new Date(Date.now() - 10_000);
  for (const f of git(dir, 'ls-files', '-z').split('\0').filter(Boolean)) utimesSync(join(dir, f), then, then);
  git(dir, 'update-index', '-q', '--refresh');
}

/**
 * Makes this checkout of gate-ladder the repo's installed one, as `npm i -D gate-ladder` would:
 * node_modules/gate-ladder and its bin link. Its own dependencies resolve from the checkout.
 */
export function linkGateLadder(repo) {
  mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PROJECT, join(repo, 'node_modules', 'gate-ladder'), 'dir');
  symlinkSync('../gate-ladder/dist/cli.cjs', join(repo, 'node_modules', '.bin', 'gate-ladder'));
}

/**
 * The runner as the installed hook starts it: node's arguments on the line `gate-ladder install` wrote
 * (`if [ -f ... ]; then node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"; elif ...`), so the
 * figures are a push's, not those of another way to start it.
 */
export function hookRunner(dir) {
  // The line starts with a shell test for node_modules (a builtin); node's part follows it.
  const found = readFileSync(join(dir, '.husky', 'pre-push'), 'utf8')
    .split('\n')
    .find((l) => l.includes('node --preserve-symlinks-main '));
  const line = found?.slice(found.indexOf('node --preserve-symlinks-main '));
  const words = line?.split(' ') ?? [];
  const at = words.indexOf('run');
  if (at < 2) throw new Error(`.husky/pre-push in ${dir}: no \`node ... run pre-push\` line`);
  return words.slice(1, at);
}

/** lefthook's native binary from its platform package (its npm bin is a Node shim), or null. */
export function lefthookBinary() {
  try {
    const req = createRequire(join(PROJECT, 'package.json'));
    const exe = req(join(dirname(req.resolve('lefthook/package.json')), 'get-exe.js')).getExePath();
    return existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

/**
 * Runs every case `reps` times, interleaved (A, B, C, A, B, C, ...) after `warmup` untimed rounds,
 * so a change in machine load hits every case alike. Each sample is the wall time of one spawn.
 * A case: { name, file, args, cwd, input?, env?, status?, keepStdout?, before?() } (before: untimed setup).
 */
export function measure(cases, { reps, warmup = 2 }) {
  const samples = cases.map(() => []);
  for (let round = -warmup; round < reps; round++) {
    cases.forEach((c, i) => {
      c.before?.();
      const t = process.hrtime.bigint();
      const r = spawnSync(c.file, c.args, {
        cwd: c.cwd,
        env: cleanEnv(c.env),
        input: c.input ?? '',
        stdio: ['pipe', c.keepStdout ? 'pipe' : 'ignore', 'ignore'],
        maxBuffer: 1 << 30,
      });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (r.status !== (c.status ?? 0)) throw new Error(`${c.name}: exit ${r.status} (expected ${c.status ?? 0})`);
      if (round >= 0) samples[i].push(ms);
    });
  }
  return Object.fromEntries(cases.map((c, i) => [c.name, stats(samples[i])]));
}

export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
  // samples: in the order taken (round by round), for ratios of cases timed side by side
  return { median: q(0.5), p25: q(0.25), p75: q(0.75), n: s.length, samples: xs };
}

export function header(title) {
  const [l1, l5] = loadavg();
  const line = `== ${title} · ${new Date().toISOString()} · ${availableParallelism()} cores · node ${process.version} · ${git(PROJECT, '--version')} · load ${l1.toFixed(2)} ${l5.toFixed(2)}`;
  console.log(line);
}

/** Prints each figure's median (and quartiles) and, when given, its ratio to a reference figure. */
export function report(results, ratios = []) {
  const width = Math.max(...Object.keys(results).map((k) => k.length));
  for (const [name, s] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(width)}  median ${s.median.toFixed(1).padStart(7)} ms   (p25 ${s.p25.toFixed(1)}, p75 ${s.p75.toFixed(1)}, n ${s.n})`,
    );
  }
  for (const r of ratios) {
    const value = r.value ?? r.num / r.den;
    const verdict = r.target === undefined ? '' : value <= r.target ? `  ≤ ${r.target} ok` : `  > ${r.target} OVER TARGET`;
    console.log(`  ratio ${r.label.padEnd(width + 10)} ${value.toFixed(2)}${verdict}`);
  }
}

/**
 * When NODE_EXTRA_CA_CERTS is set (some sandboxes and corporate machines set it), every Node process
 * reads that certificate file at start-up: `node -e 0` itself then takes about 40 ms longer here, and
 * every ratio to it looks better than on a machine without it. Benches measure their main figures a
 * second time with it unset (an empty value: Node ignores it), printed beside the first.
 */
export const WITHOUT_EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: '' } : undefined;

export function loadNote() {
  const [l1] = loadavg();
  const cores = availableParallelism();
  return l1 > cores * 0.5 ? `  note: load average ${l1.toFixed(2)} on ${cores} cores: the machine is busy, figures are noisy` : '';
}

export { readFileSync, writeFileSync, join };

/** Removes gate-ladder's commit-pair caches (range-*, diff-*), so the next run asks git as a first run would. */
export function forgetRanges(repo) {
  const dir = join(repo, '.git', 'gate-ladder', 'cache');
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith('range-') || n.startsWith('diff-')) rmSync(join(dir, n), { force: true });
}

/** mulberry32: a small seeded generator, so a bench (or a screenshot) makes the same data every run. */
export function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
