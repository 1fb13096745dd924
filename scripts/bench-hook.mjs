// The hook's overhead, side by side with `node -e 0` and lefthook, in throwaway repositories.
//
//   node scripts/bench-hook.mjs [--quick]      (npm run bench builds first, then runs every bench-*.mjs)
//
// Figures (each the median of interleaved runs; p25/p75 beside):
//   node -e 0                   Node's own start-up: the yardstick of every ratio
//   ..., NODE_EXTRA_CA_CERTS unset   when the variable is set: node -e 0, run (gate runs), run (tree cached) and
//                               lefthook native again, without it (reading the certificates costs every Node
//                               process about 31 ms here), in a block of their own with 100 runs each
//   run, gate runs              `gate-ladder run --base A --head B`, .ts config with `cache: false`, one tier
//                               `true`, gate runs (--no-cache would also re-load the config every time);
//                               every run is started as the installed hook line starts it (hookRunner)
//   ..., range not seen before  the same with the commit-pair cache emptied first: git rev-parse and git diff run
//   run, tree cached            the same command when the tree already passed (no gate runs)
//   run pre-push, tree cached   what the hook line runs: stdin ref line, tree cache hit
//   husky hook as git runs it   .husky/_/pre-push (husky's wrapper, then our hook line), tree cache hit
//   husky hook, gate runs       the same with `cache: false` in the config
//   lefthook run pre-push       lefthook's native binary running the same `true` on pre-push
//   lefthook hook as git runs   the .git/hooks/pre-push lefthook installs (finds its binary, then runs)
//   git push --dry-run ...      whole pushes to a local bare remote, hook vs --no-verify (pre-push runs on --dry-run)
// The work repos are left clean at B with files edited 10 s before their commit (bench-utils `settle`),
// as a push usually finds them; a push made in the same second as the last edit and commit pays one
// `git status` more (git's index cannot vouch for files that new).
// Then, with fewer runs: a tree seen for the first time (gate runs and the pass is recorded), and a
// config-cache miss (the config changed: cosmiconfig, jiti and zod load, in the config's worker thread;
// these runs pass --no-cache, which also re-loads the config, so every one of them is a miss).
import { appendFileSync } from 'node:fs';
import {
  CLI,
  QUICK,
  commitAll,
  forgetRanges,
  git,
  header,
  hookRunner,
  initRepo,
  join,
  lefthookBinary,
  linkGateLadder,
  loadNote,
  measure,
  report,
  run,
  settle,
  stats,
  WITHOUT_EXTRA_CA,
  tempDir,
  write,
} from './lib/bench-utils.mjs';

const REPS = QUICK ? 7 : 25;
const FOCUS_REPS = QUICK ? 15 : 100;
const NODE = process.execPath;

const CONFIG = (extra = '') => `import { defineConfig } from 'gate-ladder';

export default defineConfig({
  tiers: [{ name: 't1-true', run: 'true', timeout: 60 }],${extra}
});
`;

/** A work repo at B with a bare remote at A; gate-ladder installed through its own `install`. */
function ladderRepo(base, name, config) {
  const dir = join(base, name);
  const remote = join(base, `${name}-remote.git`);
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  initRepo(dir);
  git(dir, 'remote', 'add', 'origin', remote);
  linkGateLadder(dir);
  write(dir, { '.gitignore': 'node_modules\n', 'package.json': '{ "name": "bench", "private": true }\n', 'src/a.txt': 'a\n' });
  run(NODE, [CLI, 'install'], dir);
  write(dir, { 'gate-ladder.config.ts': config });
  const a = commitAll(dir, 'A');
  run('git', ['push', '-q', 'origin', 'main'], dir, { env: { GATE_LADDER: '0' } });
  write(dir, { 'src/a.txt': 'b\n' });
  const b = commitAll(dir, 'B');
  settle(dir);
  return { dir, remote, a, b, stdin: `refs/heads/main ${b} refs/heads/main ${a}\n` };
}

function lefthookRepo(base) {
  const exe = lefthookBinary();
  if (exe === null) return null;
  const dir = join(base, 'lefthook');
  const remote = join(base, 'lefthook-remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  initRepo(dir);
  git(dir, 'remote', 'add', 'origin', remote);
  write(dir, { 'lefthook.yml': 'pre-push:\n  commands:\n    t1-true:\n      run: "true"\n', 'src/a.txt': 'a\n' });
  run(exe, ['install'], dir);
  const la = commitAll(dir, 'A');
  run('git', ['push', '-q', 'origin', 'main'], dir, { env: { LEFTHOOK: '0' } });
  write(dir, { 'src/a.txt': 'b\n' });
  const lb = commitAll(dir, 'B');
  return { dir, exe, stdin: `refs/heads/main ${lb} refs/heads/main ${la}\n` };
}

header('bench-hook: runner overhead, tree cache, hook path');
const base = tempDir('gl-bench-hook-');
const gl = ladderRepo(base, 'ladder', CONFIG());
const off = ladderRepo(base, 'nocache', CONFIG('\n  cache: false,'));
const lh = lefthookRepo(base);

const RUNNER = hookRunner(gl.dir);

// Warm both caches once: the config cache, and a recorded pass of B's tree.
run(NODE, [...RUNNER, 'run', '--base', gl.a, '--head', gl.b], gl.dir);
run(NODE, [...RUNNER, 'run', '--base', off.a, '--head', off.b], off.dir);
const url = (r) => r.remote;
const cases = [
  { name: 'node -e 0', file: NODE, args: ['-e', '0'], cwd: gl.dir },
  { name: 'run, gate runs (cache: false)', file: NODE, args: [...RUNNER, 'run', '--base', off.a, '--head', off.b], cwd: off.dir },
  {
    name: 'run, gate runs, range not seen before',
    file: NODE,
    args: [...RUNNER, 'run', '--base', off.a, '--head', off.b],
    cwd: off.dir,
    before: () => forgetRanges(off.dir),
  },
  { name: 'run, tree cached', file: NODE, args: [...RUNNER, 'run', '--base', gl.a, '--head', gl.b], cwd: gl.dir },
  { name: 'run pre-push, tree cached', file: NODE, args: [...RUNNER, 'run', 'pre-push', 'origin', url(gl)], cwd: gl.dir, input: gl.stdin },
  {
    name: 'husky hook as git runs it, cached',
    file: join(gl.dir, '.husky/_/pre-push'),
    args: ['origin', url(gl)],
    cwd: gl.dir,
    input: gl.stdin,
  },
  {
    name: 'husky hook as git runs it, gate runs',
    file: join(off.dir, '.husky/_/pre-push'),
    args: ['origin', url(off)],
    cwd: off.dir,
    input: off.stdin,
  },
  ...(lh
    ? [
        { name: 'lefthook run pre-push (native)', file: lh.exe, args: ['run', 'pre-push'], cwd: lh.dir, input: lh.stdin },
        {
          name: 'lefthook hook as git runs it',
          file: join(lh.dir, '.git/hooks/pre-push'),
          args: ['origin', 'x'],
          cwd: lh.dir,
          input: lh.stdin,
        },
      ]
    : []),
];
const r = measure(cases, { reps: REPS });
const node = r['node -e 0'].median;
const ratios = [
  { label: 'run, gate runs / node -e 0', num: r['run, gate runs (cache: false)'].median, den: node, target: 1.3 },
  { label: 'run, gate runs, new range / node -e 0', num: r['run, gate runs, range not seen before'].median, den: node },
  { label: 'run, tree cached / node -e 0', num: r['run, tree cached'].median, den: node, target: 1.3 },
  { label: 'run pre-push, cached / node -e 0', num: r['run pre-push, tree cached'].median, den: node, target: 1.3 },
  { label: 'husky hook, cached / node -e 0', num: r['husky hook as git runs it, cached'].median, den: node },
];
if (lh) {
  const native = r['lefthook run pre-push (native)'].median;
  const hook = r['lefthook hook as git runs it'].median;
  ratios.push(
    { label: 'run, gate runs / lefthook native', num: r['run, gate runs (cache: false)'].median, den: native },
    { label: 'husky hook, gate runs / lefthook hook', num: r['husky hook as git runs it, gate runs'].median, den: hook },
    { label: 'husky hook, cached / lefthook hook', num: r['husky hook as git runs it, cached'].median, den: hook },
  );
} else {
  console.log('  lefthook: not installed (npm ci installs the pinned dev dependency); its figures are skipped');
}
report(r, ratios);

// Without NODE_EXTRA_CA_CERTS, `node -e 0` takes about a third of the time, and the first target is
// decided by a few tenths of a millisecond: these figures get a block of their own, more runs
// (FOCUS_REPS), interleaved among themselves only.
if (WITHOUT_EXTRA_CA) {
  const env = WITHOUT_EXTRA_CA;
  const f = measure(
    [
      { name: 'node -e 0, NODE_EXTRA_CA_CERTS unset', file: NODE, args: ['-e', '0'], cwd: gl.dir, env },
      {
        name: 'run, gate runs, NODE_EXTRA_CA_CERTS unset',
        file: NODE,
        args: [...RUNNER, 'run', '--base', off.a, '--head', off.b],
        cwd: off.dir,
        env,
      },
      {
        name: 'run, tree cached, NODE_EXTRA_CA_CERTS unset',
        file: NODE,
        args: [...RUNNER, 'run', '--base', gl.a, '--head', gl.b],
        cwd: gl.dir,
        env,
      },
      ...(lh
        ? [{ name: 'lefthook run pre-push (native), same block', file: lh.exe, args: ['run', 'pre-push'], cwd: lh.dir, input: lh.stdin }]
        : []),
    ],
    { reps: FOCUS_REPS },
  );
  const bare = f['node -e 0, NODE_EXTRA_CA_CERTS unset'].median;
  const gate = f['run, gate runs, NODE_EXTRA_CA_CERTS unset'].median;
  report(f, [
    { label: 'run, gate runs / node -e 0, both without NODE_EXTRA_CA_CERTS', num: gate, den: bare, target: 1.3 },
    {
      label: 'run, tree cached / node -e 0, both without NODE_EXTRA_CA_CERTS',
      num: f['run, tree cached, NODE_EXTRA_CA_CERTS unset'].median,
      den: bare,
      target: 1.3,
    },
    ...(lh
      ? [
          {
            label: 'run, gate runs, without NODE_EXTRA_CA_CERTS / lefthook native',
            num: gate,
            den: f['lefthook run pre-push (native), same block'].median,
          },
        ]
      : []),
  ]);
}

// Whole pushes (pre-push runs on --dry-run, so they repeat): what the hook adds to `git push`.
const push = (repo, extra) => ({ file: 'git', args: ['push', '--dry-run', '-q', ...extra, 'origin', 'main'], cwd: repo.dir });
const pushes = measure(
  [
    { name: 'git push --dry-run --no-verify', ...push(gl, ['--no-verify']) },
    { name: 'git push --dry-run, gate-ladder hook, cached', ...push(gl, []) },
    { name: 'git push --dry-run, gate-ladder hook, gate runs', ...push(off, []) },
    ...(lh ? [{ name: 'git push --dry-run, lefthook hook', ...push(lh, []) }] : []),
  ],
  { reps: QUICK ? 5 : 15 },
);
report(pushes);

// Cold paths, fewer runs: each needs a change made before it.
const cold = [];
for (let i = 0; i < (QUICK ? 3 : 7); i++) {
  write(gl.dir, { [`src/n${i}.txt`]: `${i}\n` });
  const head = commitAll(gl.dir, `tree ${i}`);
  cold.push(['first run of a new tree (gate runs, pass recorded)', [...RUNNER, 'run', '--base', gl.a, '--head', head]]);
  appendFileSync(join(gl.dir, 'gate-ladder.config.ts'), `// edit ${i}\n`);
  cold.push([
    'config changed (config-cache miss: cosmiconfig, jiti, zod)',
    [...RUNNER, 'run', '--base', gl.a, '--head', head, '--no-cache'],
  ]);
}
const coldSamples = {};
for (const [name, args] of cold) {
  const t = process.hrtime.bigint();
  run(NODE, args, gl.dir);
  (coldSamples[name] ??= []).push(Number(process.hrtime.bigint() - t) / 1e6);
}
report(Object.fromEntries(Object.entries(coldSamples).map(([k, v]) => [k, stats(v)])));
const note = loadNote();
if (note) console.log(note);
