// Routing a diff of 100,000 changed files: `gate-ladder run --dry-run` beside its floor, git's own
// `git diff --name-status -z -M A...B` followed by `node -e 0`, measured interleaved. The dry run is
// measured as a first run of that commit pair (its cached diff removed before each run, untimed) and
// again with the pair seen before (the diff comes from gate-ladder's cache, no git diff runs).
//
//   node scripts/bench-route.mjs [--quick]     (--quick: 20,000 files, fewer runs)
//
// Then, in-process, what routing costs per path: parsing git's -z output and matching the default
// scope with src/glob.ts's string tests against matching with picomatch alone.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import picomatch from 'picomatch';
import {
  CLI,
  PROJECT,
  QUICK,
  WITHOUT_EXTRA_CA,
  cleanEnv,
  commitAll,
  forgetRanges,
  git,
  header,
  initRepo,
  linkGateLadder,
  loadNote,
  measure,
  report,
  stats,
  tempDir,
  write,
} from './lib/bench-utils.mjs';

const FILES = QUICK ? 20_000 : 100_000;
const REPS = QUICK ? 5 : 15;
const NODE = process.execPath;

/** Monorepo-like paths; one in 50 is test-adjacent (tests/ or *.test.ts). */
function path(n) {
  const pkg = n % 100;
  const mod = Math.floor(n / 100) % 50;
  const file = Math.floor(n / 5000);
  return n % 50 === 0 ? `packages/p${pkg}/tests/m${mod}/f${file}.test.ts` : `packages/p${pkg}/src/m${mod}/f${file}.ts`;
}

header(`bench-route: routing a diff of ${FILES.toLocaleString('en')} changed files`);
const dir = join(tempDir('gl-bench-route-'), 'repo');
initRepo(dir);
linkGateLadder(dir);
write(dir, {
  '.gitignore': 'node_modules\n',
  'gate-ladder.config.ts': `import { defineConfig } from 'gate-ladder';
export default defineConfig({
  tiers: [
    { name: 't1-unit', run: 'true', skipWhenTestAdjacent: true },
    { name: 't2-full', run: 'true' },
  ],
});
`,
});
commitAll(dir, 'config');

// Two trees built with plumbing (no checkout of 100k files): every path changes from A to B.
const index = join(dir, '.git', 'bench-index');
const env = { GIT_INDEX_FILE: index };
const plumb = (args, input) => {
  const r = spawnSync('git', args, { cwd: dir, env: cleanEnv(env), input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const commitWith = (content, parent, message) => {
  const blob = plumb(['hash-object', '-w', '--stdin'], content);
  plumb(['read-tree', 'HEAD']);
  const lines = [];
  for (let n = 0; n < FILES; n++) lines.push(`100644 ${blob} 0\t${path(n)}`);
  plumb(['update-index', '--add', '--index-info'], `${lines.join('\n')}\n`);
  const tree = plumb(['write-tree']);
  return plumb(['commit-tree', tree, '-p', parent, '-m', message]);
};
const a = commitWith('a\n', git(dir, 'rev-parse', 'HEAD'), 'A');
const b = commitWith('b\n', a, 'B');
git(dir, 'update-ref', 'refs/heads/bench-a', a);
git(dir, 'update-ref', 'refs/heads/bench-b', b);
// A real repository keeps its objects packed; 10,000 loose tree objects would make git the slow part.
git(dir, 'repack', '-adq');
git(dir, 'prune');

// The dry run must route every path; check once that it did.
const check = spawnSync(NODE, [CLI, 'run', '--dry-run', '--base', a, '--head', b], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
// The plan is the dry run's answer, on stdout.
if (check.status !== 0 || !check.stdout.includes(`${FILES} changed paths`))
  throw new Error(`dry run failed: ${check.stderr}${check.stdout}`);
console.log(`  dry run prints ${check.stdout.split('\n').length - 1} lines for ${FILES} paths`);

const r = measure(
  [
    { name: 'node -e 0', file: NODE, args: ['-e', '0'], cwd: dir },
    {
      name: 'git diff --name-status -z -M A...B',
      file: 'git',
      args: ['diff', '--name-status', '-z', '-M', `${a}...${b}`],
      cwd: dir,
      keepStdout: true,
    },
    {
      name: 'gate-ladder run --dry-run --base A --head B',
      file: NODE,
      args: [CLI, 'run', '--dry-run', '--base', a, '--head', b],
      cwd: dir,
      before: () => forgetRanges(dir),
    },
    { name: 'the same, commit pair seen before', file: NODE, args: [CLI, 'run', '--dry-run', '--base', a, '--head', b], cwd: dir },
    ...(WITHOUT_EXTRA_CA
      ? [
          { name: 'node -e 0, NODE_EXTRA_CA_CERTS unset', file: NODE, args: ['-e', '0'], cwd: dir, env: WITHOUT_EXTRA_CA },
          {
            name: 'dry run, first time, NODE_EXTRA_CA_CERTS unset',
            file: NODE,
            args: [CLI, 'run', '--dry-run', '--base', a, '--head', b],
            cwd: dir,
            env: WITHOUT_EXTRA_CA,
            before: () => forgetRanges(dir),
          },
        ]
      : []),
  ],
  { reps: REPS, warmup: 1 },
);
const floor = r['node -e 0'].median + r['git diff --name-status -z -M A...B'].median;
report(r, [
  { label: 'dry run / (git diff + node -e 0)', num: r['gate-ladder run --dry-run --base A --head B'].median, den: floor, target: 1.3 },
  { label: 'seen pair / (git diff + node -e 0)', num: r['the same, commit pair seen before'].median, den: floor },
  ...(WITHOUT_EXTRA_CA
    ? [
        {
          label: 'dry run / floor, both without NODE_EXTRA_CA_CERTS',
          num: r['dry run, first time, NODE_EXTRA_CA_CERTS unset'].median,
          den: r['node -e 0, NODE_EXTRA_CA_CERTS unset'].median + r['git diff --name-status -z -M A...B'].median,
        },
      ]
    : []),
]);

// In-process, on the real listing: the hook's routing (ChangeList: count, first 1,000 paths, one scan
// for the markers), then the listing split into objects and routed path by path, with our string
// tests and with picomatch.
const { ChangeList, parseNameStatusZ } = await import(pathToFileURL(join(PROJECT, 'build/src/git/change-list.js')).href);
const { scopeMatcher, route, touchedPaths } = await import(pathToFileURL(join(PROJECT, 'build/src/route/route.js')).href);
const { defaultScope } = await import(pathToFileURL(join(PROJECT, 'build/src/config/defaults.js')).href);
const { resolveConfig } = await import(pathToFileURL(join(PROJECT, 'build/src/config/load.js')).href);
const out = spawnSync('git', ['diff', '--name-status', '-z', '-M', `${a}...${b}`], {
  cwd: dir,
  encoding: 'utf8',
  maxBuffer: 1 << 30,
}).stdout;
const tiers = resolveConfig({
  tiers: [
    { name: 't1', run: 'true', skipWhenTestAdjacent: true },
    { name: 't2', run: 'true' },
  ],
}).tiers;
const pico = defaultScope.map((g) => ({ g, t: picomatch(g, { dot: true }) }));
const picoMatcher = (p) => pico.find((m) => m.t(p))?.g;
const time = (fn) => {
  const xs = [];
  for (let i = 0; i < (QUICK ? 5 : 11); i++) {
    const t = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return stats(xs);
};
const changes = parseNameStatusZ(out);
const paths = touchedPaths(changes);
const ours = scopeMatcher(defaultScope);
const inproc = {
  [`route the listing as it is (${(out.length / 1e6).toFixed(1)} MB, src/git/change-list.ts)`]: time(() =>
    route(new ChangeList(out), tiers, scopeMatcher(defaultScope), 'pre-push'),
  ),
  'split the listing into objects': time(() => parseNameStatusZ(out)),
  'route the objects, string-test matcher (src/util/glob.ts)': time(() => route(changes, tiers, ours, 'pre-push')),
  'route the objects, picomatch matcher': time(() => route(changes, tiers, picoMatcher, 'pre-push')),
};
report(inproc, [
  {
    label: 'ns per path, string tests',
    value: (inproc['route the objects, string-test matcher (src/util/glob.ts)'].median * 1e6) / paths.length,
  },
  { label: 'ns per path, picomatch', value: (inproc['route the objects, picomatch matcher'].median * 1e6) / paths.length },
]);
const note = loadNote();
if (note) console.log(note);
