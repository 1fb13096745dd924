// The order bench (issue 37): replays real repositories' histories with `gate-ladder replay --calibrate`
// (every tier runs on every patch) and prints `gate-ladder report --json`'s `order_evaluation` for each:
// median seconds to the first catch in the fixed order and in the predicted one, their ratio, APFDc,
// catches missed; then a summary table. docs/performance.md says how to read it.
//
// The repositories are real libraries this project's `npm ci` installs with their own test suites
// (tape, offline): each is copied into a temp git repository (the base commit) with a config whose
// tiers run different groups of its tests, and gets a seeded corpus of patches in time order
// (scripts/lib/order-corpus.mjs: planted bugs clustered in files, some clean patches). One repository's
// tiers all run the whole suite (they catch the same bugs): there the predicted order must not be worse.
//
//   node scripts/bench-order.mjs [--quick] [--repo NAME]... [--seed N] [--patches N] [--jobs N] [--risk R] [--cli PATH] [--keep]
//
// --quick: 32 patches per repository instead of 60 (the first 20 are history the prediction learns from,
// the rest are measured). --jobs: patches at once (default 2). --risk: `select`'s risk, when the build has
// selection (default 0.001). --cli: the gate-ladder bin to measure (default dist/cli.cjs). --keep: keep the temp repositories, patches and ledgers (the
// path is printed). Needs `npm run build` first (`npm run bench:order` does it).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, initRepo, run as runChecked } from './lib/bench-utils.mjs';
import { generateCorpus } from './lib/order-corpus.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliAt = process.argv.indexOf('--cli');
// --cli: another build's bin (a branch built elsewhere); default this checkout's.
const CLI = cliAt > 0 ? resolve(process.argv[cliAt + 1]) : join(PROJECT, 'dist', 'cli.cjs');
const MODULES = join(PROJECT, 'node_modules');
const TAPE = join(MODULES, 'tape', 'bin', 'tape');
const C8 = join(MODULES, 'c8', 'bin', 'c8.js');

/**
 * The repositories. `differ`: whether the tiers differ in what they catch (the 0.7x target) or not
 * (never worse than 1.1x). `sources`: the files a patch may touch. Each tier runs tape on a group of
 * the package's own test files, in one process; the last tier runs the whole suite.
 */
const REPOS = [
  {
    name: 'fast-uri',
    differ: true,
    sources: ['index.js', 'lib/schemes.js', 'lib/utils.js'],
    tiers: [
      ['schemes', ['scheme-validation', 'malformed-urn', 'urn-full-input', 'websocket-query-preservation']],
      ['hosts', ['ipv6-canonical', 'ipv6-validation', 'host-delimiter-security', 'util']],
      ['full', null],
    ],
    suffix: '.test.js',
  },
  {
    name: 'resolve',
    differ: true,
    sources: ['lib/async.js', 'lib/sync.js', 'lib/node-modules-paths.js', 'lib/homedir.js', 'lib/normalize-options.js', 'lib/caller.js'],
    tiers: [
      ['sync', ['filter_sync', 'mock_sync']],
      ['paths', ['node-modules-paths', 'homedir']],
      ['async', ['filter', 'mock', 'dotdot', 'faulty_basedir', 'module_dir', 'precedence', 'nonstring', 'default_paths', 'shadowed_core']],
      ['full', null],
    ],
    // The package as npm ships it lacks some fixtures and dev dependencies (mv, tap, array.prototype.map):
    // the test files that need them are left out of every tier.
    suite: [
      'filter_sync',
      'mock_sync',
      'node-modules-paths',
      'homedir',
      'filter',
      'mock',
      'dotdot',
      'faulty_basedir',
      'module_dir',
      'precedence',
      'nonstring',
      'default_paths',
      'shadowed_core',
    ],
  },
  {
    name: 'node-exports-info',
    differ: true,
    sources: [
      'getCategoriesForRange.js',
      'getCategory.js',
      'getCategoryFlags.js',
      'getCategoryInfo.js',
      'getConditionsForCategory.js',
      'getRange.js',
      'isCategory.js',
    ],
    tiers: [
      ['ranges', ['getRange', 'getRangePairs', 'getCategoriesForRange']],
      ['category', ['getCategory', 'versions']],
      ['conditions', ['getConditionsForCategory', 'getCategoryFlags', 'getCategoryInfo']],
      ['full', null],
    ],
    // isCategory's own test needs es-value-fixtures, which is not installed: left out.
    suite: [
      'getRange',
      'getRangePairs',
      'getCategoriesForRange',
      'getCategory',
      'versions',
      'getConditionsForCategory',
      'getCategoryFlags',
      'getCategoryInfo',
    ],
  },
  {
    name: 'jsonparse',
    differ: true,
    sources: ['jsonparse.js'],
    tiers: [
      ['values', ['primitives', 'offset', 'boundary']],
      ['text', ['utf8', 'surrogate', 'unvalid']],
      ['full', null],
    ],
  },
  {
    name: 'minimist',
    differ: false,
    sources: ['index.js'],
    // Both tiers run the whole suite, the second under c8 (coverage measured, no threshold): they catch
    // the same bugs at different costs.
    tiers: [
      ['suite', null],
      ['coverage', 'coverage'],
    ],
  },
];

const LEAVE_OUT = new Set(['node_modules', 'benchmark', 'dist', 'types', 'bin', 'example', 'examples', '.github']);

function parseArgs(argv) {
  const opts = {
    quick: false,
    keep: false,
    repos: [],
    seed: 37,
    patches: undefined,
    jobs: Math.min(2, availableParallelism()),
    risk: 0.001,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--keep') opts.keep = true;
    else if (a === '--repo') opts.repos.push(argv[++i]);
    else if (a === '--seed') opts.seed = Number(argv[++i]);
    else if (a === '--patches') opts.patches = Number(argv[++i]);
    else if (a === '--jobs') opts.jobs = Number(argv[++i]);
    else if (a === '--risk') opts.risk = Number(argv[++i]);
    else if (a === '--cli') i++;
    else if (a === '--help' || a === '-h') {
      console.log(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\nimport ')[0]
          .replace(/^\/\/ ?/gm, ''),
      );
      process.exit(0);
    } else {
      console.error(`bench-order: unknown argument ${a} (see --help)`);
      process.exit(2);
    }
  }
  // The report evaluates a calibration run only once 20 others came before it (the predictor's least
  // history): the first 20 patches of each corpus are history, the rest are measured.
  opts.patches ??= opts.quick ? 32 : 60;
  const known = new Set(REPOS.map((r) => r.name));
  for (const r of opts.repos) {
    if (!known.has(r)) {
      console.error(`bench-order: no repository ${r}; the bench knows ${[...known].join(', ')}`);
      process.exit(2);
    }
  }
  return opts;
}

/** A process's answer as data: the callers read its status (bench-utils' `run` throws unless told not to). */
const run = (file, args, cwd, env = {}) => runChecked(file, args, cwd, { env, allowFail: true });

/** A tier's argv: tape on its test files (all of them when null), or the whole suite under c8. */
function tierRun(repo, files, all) {
  const tests = (files === null || files === 'coverage' ? all : files).map((n) => testFile(repo, n));
  if (files === 'coverage') return [process.execPath, C8, '--reporter=text-summary', process.execPath, TAPE, ...tests];
  return [process.execPath, TAPE, ...tests];
}

/** The temp repository: the package's files as the base commit, and its config. Returns { dir, base, all }. */
function makeRepo(repo, root, opts) {
  const from = join(MODULES, repo.name);
  const dir = join(root, repo.name);
  mkdirSync(dir, { recursive: true });
  cpSync(from, dir, {
    recursive: true,
    filter: (src) => {
      const rel = src.slice(from.length + 1);
      return rel === '' || !(LEAVE_OUT.has(rel.split('/')[0]) || rel.startsWith('npm-debug.log'));
    },
  });
  // The whole suite: the repository's list, or every test file.
  const all = repo.suite ?? listTests(dir, repo);
  const tiers = repo.tiers.map(([name, files]) => ({
    name,
    run: tierRun(repo, files, all),
    runner: 'tape',
    // A mutant can loop forever: its tier times out (an error) well before the default 600 s.
    timeout: 40,
    env: { NODE_PATH: MODULES },
  }));
  const { problems, cost } = baseline(dir, tiers);
  if (problems.length > 0) return { dir, problems };
  // The fixed order is the one a config states: cheapest first, as measured here at the base; the
  // whole suite (a tier naming no group) last, as the backstop; where every tier runs the whole suite, by cost alone.
  const grouped = repo.tiers.some(([, files]) => Array.isArray(files));
  const whole = new Set(grouped ? repo.tiers.filter(([, files]) => files === null).map(([name]) => name) : []);
  const ordered = [...tiers].sort((a, b) => Number(whole.has(a.name)) - Number(whole.has(b.name)) || cost.get(a.name) - cost.get(b.name));
  // With a build that has selection (issue 37 point 5), its misses are measured too: `select` in the config.
  const config = { tiers: ordered, ...(opts.select !== null && { select: { risk: opts.select } }) };
  writeFileSync(
    join(dir, 'gate-ladder.config.ts'),
    `// Written by scripts/bench-order.mjs: each tier a group of ${repo.name}'s own tests, cheapest first as measured at the base.\nexport default ${JSON.stringify(config, null, 2)};\n`,
  );
  // c8 keeps its raw coverage under coverage/ in the work tree.
  writeFileSync(join(dir, '.gitignore'), 'coverage/\n');
  initRepo(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `${repo.name} as npm ships it, with its tests`);
  return { dir, base: git(dir, 'rev-parse', 'HEAD'), all, tiers: ordered, cost };
}

/** Every test file's name (without `test/` and the suffix). */
function listTests(dir, repo) {
  const suffix = repo.suffix ?? '.js';
  return readdirSync(join(dir, 'test'))
    .filter((f) => f.endsWith(suffix))
    .map((f) => f.slice(0, -suffix.length))
    .sort();
}

const testFile = (repo, name) => `test/${name}${repo.suffix ?? '.js'}`;

/**
 * Each tier at the base, a warm-up round and three timed ones, interleaved: every one must pass (otherwise the suite does not run
 * here and the figures would mean nothing), and its median seconds give the fixed order.
 */
function baseline(dir, tiers) {
  const problems = [];
  const times = new Map(tiers.map((t) => [t.name, []]));
  // Round 0 warms the file cache and is not timed.
  for (let round = 0; round < 4 && problems.length === 0; round++) {
    for (const t of tiers) {
      const started = performance.now();
      const r = run(t.run[0], t.run.slice(1), dir, t.env);
      if (round > 0) times.get(t.name).push((performance.now() - started) / 1000);
      if (r.status !== 0)
        problems.push(`${t.name} fails at the base (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ')}`);
    }
  }
  return { problems, cost: new Map([...times].map(([name, xs]) => [name, median(xs)])) };
}

const median = (xs) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, digits = 2) => (x === null || x === undefined || Number.isNaN(x) ? '-' : Number(x).toFixed(digits));

/** What the ledger's calibration rows say, per tier and per patch (the corpus's kinds from their names). */
function ledgerFacts(ledger, corpus) {
  const rows = readFileSync(ledger, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.hook === 'replay');
  const kindOf = new Map(corpus.map((p) => [p.name, p.kind]));
  const tiers = new Map();
  const patches = new Map();
  for (const r of rows) {
    if (r.tier !== '(apply)') {
      const t = tiers.get(r.tier) ?? { runs: 0, caught: 0, errors: 0, seconds: [] };
      t.runs++;
      if (r.verdict === 'caught') t.caught++;
      if (r.verdict === 'error') t.errors++;
      t.seconds.push(r.seconds);
      tiers.set(r.tier, t);
    }
    const p = patches.get(r.patch) ?? { verdicts: [], applied: r.applied !== false };
    p.verdicts.push(r.verdict);
    if (r.applied === false) p.applied = false;
    patches.set(r.patch, p);
  }
  const count = { mutants: 0, caught: 0, uncaught: 0, loadErrors: 0, clean: 0, cleanFailed: 0, notApplied: 0 };
  for (const [id, p] of patches) {
    const kind = kindOf.get(id.split('@')[0]);
    if (!p.applied) {
      count.notApplied++;
      continue;
    }
    const caught = p.verdicts.includes('caught');
    const error = p.verdicts.includes('error');
    if (kind === 'clean') {
      count.clean++;
      if (caught || error) count.cleanFailed++;
    } else {
      count.mutants++;
      // A patch with an error row (a mutant that does not load) counts as an error whatever else caught it:
      // the evaluation leaves such runs out, since the ladder stops at the error.
      if (error) count.loadErrors++;
      else if (caught) count.caught++;
      else count.uncaught++;
    }
  }
  return { tiers, count, rows: rows.length };
}

function benchRepo(repo, root, opts) {
  const started = performance.now();
  const made = makeRepo(repo, root, opts);
  if (made.problems) return { repo, problems: made.problems, seconds: (performance.now() - started) / 1000 };

  const files = Object.fromEntries(repo.sources.map((p) => [p, readFileSync(join(made.dir, p), 'utf8')]));
  const corpus = generateCorpus({ files, seed: opts.seed, count: opts.patches });
  const patchDir = join(root, `${repo.name}-patches`);
  mkdirSync(patchDir, { recursive: true });
  for (const p of corpus) writeFileSync(join(patchDir, p.name), p.diff);

  const replayStarted = performance.now();
  const replay = run(
    process.execPath,
    [CLI, 'replay', patchDir, '--calibrate', '--onto', made.base, '--jobs', String(opts.jobs)],
    made.dir,
  );
  const replaySeconds = (performance.now() - replayStarted) / 1000;
  if (replay.status !== 0) {
    return {
      repo,
      problems: [`replay exit ${replay.status}: ${replay.stderr.trim().split('\n').slice(-3).join(' / ')}`],
      seconds: replaySeconds,
    };
  }
  const ledger = join(made.dir, '.git', 'gate-ladder', 'ledger.jsonl');
  const facts = ledgerFacts(ledger, corpus);
  const report = run(process.execPath, [CLI, 'report', '--json'], made.dir);
  let evaluation;
  let reportProblem;
  try {
    evaluation = JSON.parse(report.stdout).order_evaluation;
  } catch {
    reportProblem = `report --json exit ${report.status}: ${report.stderr.trim().split('\n').slice(-2).join(' / ')}`;
  }
  return { repo, made, corpus, facts, evaluation, reportProblem, replaySeconds, seconds: (performance.now() - started) / 1000 };
}

function printRepo(r) {
  const { repo } = r;
  console.log(
    `\n-- ${repo.name} (${repo.differ ? 'tiers differ in what they catch' : 'tiers catch the same bugs'}; sources ${repo.sources.join(', ')})`,
  );
  if (r.problems) {
    for (const p of r.problems) console.log(`  not measured: ${p}`);
    return;
  }
  const c = r.facts.count;
  console.log(
    `  ${r.corpus.length} patches: ${c.mutants} planted bugs (${c.caught} caught, ${c.uncaught} caught by no tier, ${c.loadErrors} with an error row: broke loading), ${c.clean} clean (${c.cleanFailed} failed)${c.notApplied ? `, ${c.notApplied} did not apply` : ''}`,
  );
  console.log(`  fixed order (cheapest first at the base, the whole suite last): ${r.made.tiers.map((t) => t.name).join(', ')}`);
  console.log(
    `  replay --calibrate: ${fmt(r.replaySeconds, 1)} s, ${r.facts.rows} ledger rows; the repository in all ${fmt(r.seconds, 1)} s`,
  );
  for (const t of r.made.tiers) {
    const f = r.facts.tiers.get(t.name) ?? { runs: 0, caught: 0, errors: 0, seconds: [] };
    console.log(
      `  ${t.name.padEnd(14)} at the base ${fmt(r.made.cost.get(t.name))} s · runs ${String(f.runs).padStart(3)}  caught ${String(f.caught).padStart(3)}  errors ${String(f.errors).padStart(3)}  median ${fmt(median(f.seconds))} s`,
    );
  }
  if (r.reportProblem) {
    console.log(`  ${r.reportProblem}`);
    return;
  }
  const e = r.evaluation;
  if (e === undefined) {
    console.log("  order_evaluation missing: this build's `report --json` has none (the predictor is not in this build)");
    return;
  }
  if (!e.patches) {
    console.log(`  order_evaluation: 0 patches evaluated: ${e.reason ?? 'no reason given'}`);
    return;
  }
  console.log(
    `  order_evaluation: ${e.patches} patches evaluated, ${e.catching_patches} with a catch${e.left_out_errors ? `, ${e.left_out_errors} left out (an error row)` : ''}`,
  );
  for (const k of ['fixed', 'predicted']) {
    const o = e[k] ?? {};
    console.log(
      `    ${k.padEnd(9)} median ${fmt(o.median_seconds_to_first_catch)} s to the first catch, mean APFDc ${fmt(o.mean_apfdc, 3)}, missed ${o.missed ?? '-'}`,
    );
  }
  const target = repo.differ ? 0.7 : 1.1;
  const verdict =
    e.ratio === null || e.ratio === undefined ? '' : e.ratio <= target ? `  (target ≤ ${target}: met)` : `  (target ≤ ${target}: MISSED)`;
  console.log(`    ratio predicted/fixed ${fmt(e.ratio)}${verdict}`);
  if (e.select) {
    const s = e.select;
    console.log(`    select (risk ${s.risk}): ${s.missed} missed, ${fmt(s.seconds_saved, 1)} s saved, ${s.tiers_skipped} tiers skipped`);
  }
}

function summary(results) {
  console.log(
    '\n| repository | tiers | patches | caught | no tier | load errors | fixed s | predicted s | ratio | target | missed | select missed, tiers skipped |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const e = r.evaluation;
    const c = r.facts?.count;
    const has = e?.patches;
    const missed = has ? `${e.predicted?.missed ?? '-'}` : '-';
    const ratio = r.problems
      ? 'not measured'
      : e === undefined
        ? 'order_evaluation missing'
        : has
          ? fmt(e.ratio)
          : `0 patches: ${e.reason ?? ''}`;
    console.log(
      `| ${r.repo.name} | ${r.repo.differ ? 'differ' : 'same'} | ${r.corpus?.length ?? '-'} | ${c?.caught ?? '-'} | ${c?.uncaught ?? '-'} | ${c?.loadErrors ?? '-'} | ${has ? fmt(e.fixed?.median_seconds_to_first_catch) : '-'} | ${has ? fmt(e.predicted?.median_seconds_to_first_catch) : '-'} | ${ratio} | ${r.repo.differ ? '≤ 0.7' : '≤ 1.1'} | ${missed} | ${e?.select ? `${e.select.missed}, ${e.select.tiers_skipped}` : '-'} |`,
    );
  }
}

const opts = parseArgs(process.argv.slice(2));
if (!existsSync(CLI)) {
  console.error('bench-order: dist/cli.cjs is missing: run `npm run build` first (or `npm run bench:order`)');
  process.exit(2);
}
// `select` goes into the configs only when this build's config knows it (`help config` lists it).
opts.select = /^\s+select\b/m.test(run(process.execPath, [CLI, 'help', 'config'], PROJECT).stdout) ? opts.risk : null;
const chosen = opts.repos.length > 0 ? REPOS.filter((r) => opts.repos.includes(r.name)) : REPOS;
const root = mkdtempSync(join(tmpdir(), 'gl-bench-order-'));
// The worktree pool beside the repositories, removed with them (by default it lives in /var/tmp).
process.env.GATE_LADDER_WORKTREES = join(root, 'pools');
const cleanup = () => {
  if (!opts.keep) rmSync(root, { recursive: true, force: true });
};
process.once('exit', cleanup);
process.once('SIGINT', () => process.exit(130));

const [l1, l5] = loadavg();
const gitVersion = run('git', ['--version'], PROJECT).stdout.trim();
console.log(
  `== order bench · ${new Date().toISOString()} · ${availableParallelism()} cores · node ${process.version} · ${gitVersion} · load ${l1.toFixed(2)} ${l5.toFixed(2)}`,
);
console.log(
  `   seed ${opts.seed}, ${opts.patches} patches per repository, replay --jobs ${opts.jobs}, select ${opts.select === null ? 'not in this build' : `risk ${opts.select}`}, repositories ${chosen.map((r) => r.name).join(', ')}`,
);
const started = performance.now();
const results = [];
for (const repo of chosen) {
  const r = benchRepo(repo, root, opts);
  printRepo(r);
  results.push(r);
}
summary(results);
const [e1, e5] = loadavg();
console.log(
  `\ntotal ${fmt((performance.now() - started) / 1000, 1)} s · load at the end ${e1.toFixed(2)} ${e5.toFixed(2)}${opts.keep ? ` · kept in ${root}` : ''}`,
);
const missing = results.some((r) => r.evaluation === undefined && !r.problems);
if (missing) console.log('order_evaluation missing from `report --json`: the figures above are the calibrated replays only');
process.exit(results.some((r) => r.problems) ? 1 : 0);
