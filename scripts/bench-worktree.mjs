// The worktree pool (issue 17) in a repository of 50,000 small files: what isolation costs once a slot
// is kept, against the same work in place. One repository, built once (git fast-import, one checkout),
// used by every case.
//
//   node scripts/bench-worktree.mjs [--quick] [--only push|first|replay|jobs] [--reps N] [--floor]
//     --quick: fewer runs (the repository keeps its size); --only: that case alone (repeatable);
//     --reps N: N timed rounds of the push case (default 11, 5 with --quick);
//     --floor: the push case also times, in the same rounds, the git processes an isolated push cannot do
//              without (the checkout's `git status`, the slot's lstat pass alone, the slot's checkout alone)
//     --modules N: the checkout's node_modules also holds N files (N/10 packages of 10), real folders: each
//              isolated push then checks the slot's copy of them (issue 33), and the first one copies them
//
// Figures (medians of interleaved runs; each push is a new commit, made untimed before it):
//   push in place                 the hook line on a clean checkout of the pushed commit: gates run in place
//   push isolated, slot kept      the same with a tracked file edited and not committed (the same file each time, as a
//                                 developer's local edit stays): gates run in a slot of the pool, moved from the
//                                 previous push's commit; the path the last status listed shows the tree dirty
//   push isolated, a changed path no push saw   the same with another file edited each time: git status decides
//   first isolated push           the same with the pool removed first (`gate-ladder gc`, untimed): a slot is made
//   git worktree add              what the first push used to cost before any gate ran: a worktree of the whole tree
//   replay, per commit            `replay` of 20 consecutive commits (one tier `true`), its time divided by 20
//   run --base --head in place    one commit judged in place from the command line
//   replay --jobs 1 / --jobs 2    8 commits, a tier that sleeps 1 s: throughput with two slots against one
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLI,
  QUICK,
  git,
  header,
  hookRunner,
  initRepo,
  linkGateLadder,
  loadNote,
  measure,
  report,
  run,
  tempDir,
} from './lib/bench-utils.mjs';

const FILES = 50_000;
const NODE = process.execPath;
const argAfter = (flag) => process.argv.flatMap((a, i) => (a === flag ? [process.argv[i + 1]] : []));
const ONLY = argAfter('--only');
const wanted = (name) => ONLY.length === 0 || ONLY.includes(name);
const PUSH_REPS = Number(argAfter('--reps')[0]) || (QUICK ? 5 : 11);
const FLOOR = process.argv.includes('--floor');
const MODULES = Number(argAfter('--modules')[0]) || 0;
const FIRST_REPS = QUICK ? 1 : 3;
const REPLAY_REPS = QUICK ? 2 : 5;
const REPLAYED = 20;
const JOBS_REPS = QUICK ? 1 : 3;
const SLEPT = 8;

header(`bench-worktree: isolation in a ${FILES.toLocaleString('en')}-file repository`);
const base = tempDir('gl-bench-wt-');
const dir = join(base, 'big');
const remote = join(base, 'big-remote.git');
git(base, 'init', '-q', '--bare', '-b', 'main', remote);
initRepo(dir);
git(dir, 'remote', 'add', 'origin', remote);

// 50,000 files in 500 folders of 100, written into git by fast-import, then one checkout.
const built = performance.now();
const chunks = ['commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1700000000 +0000\ndata 5\nfiles\n'];
chunks.push('M 100644 inline .gitignore\ndata 13\nnode_modules\n\n');
for (let n = 0; n < FILES; n++) {
  const body = `file ${n}\n`;
  chunks.push(`M 100644 inline src/d${Math.floor(n / 100)}/f${n % 100}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`);
}
const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join(''), maxBuffer: 1 << 30 });
if (imported.status !== 0) throw new Error(`git fast-import: ${imported.stderr}`);
git(dir, 'reset', '-q', '--hard', 'main');
linkGateLadder(dir);
for (let n = 0; n < MODULES; n++) {
  const pkg = join(dir, 'node_modules', `pkg-${Math.floor(n / 10)}`);
  if (n % 10 === 0) mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, `f${n % 10}.js`), `module.exports = ${n};\n`);
}
run(NODE, [CLI, 'install'], dir);
rmSync(join(dir, 'gate-ladder.config.ts'), { force: true });
git(dir, 'add', '-A');
git(dir, 'commit', '-q', '-m', 'husky');
// The config stays out of git: each case writes its own without making the checkout dirty.
writeFileSync(join(dir, '.git', 'info', 'exclude'), 'gate-ladder.config.ts\n');
const config = (cmd) =>
  writeFileSync(
    join(dir, 'gate-ladder.config.ts'),
    `export default { cache: false, tiers: [{ name: 't1', run: '${cmd}', timeout: 120 }] };\n`,
  );
config('true');
// Files edited a while before the index was written, as a checkout made long ago: nothing racily clean.
const past = new Date(Date.now() - 10_000);
for (const f of git(dir, 'ls-files', '-z').split('\0').filter(Boolean)) utimesSync(join(dir, f), past, past);
git(dir, 'update-index', '-q', '--refresh');
git(dir, 'push', '-q', 'origin', 'main', '--no-verify');
console.log(
  `  repository: ${FILES.toLocaleString('en')} files${MODULES ? `, node_modules of ${MODULES.toLocaleString('en')} files` : ''}, built in ${((performance.now() - built) / 1000).toFixed(1)} s`,
);

const RUNNER = hookRunner(dir);

let counter = 0;
/** A time in the past, a second later on each call: edits the index can vouch for, never two alike. */
const EPOCH = Date.now() - 3_600_000;
const pastTime = () => new Date(EPOCH + ++counter * 1000);
/** A new commit changing one file; returns [parent, commit]. */
function commitChange() {
  const parent = git(dir, 'rev-parse', 'HEAD');
  const file = join(dir, 'src/d0/f0.txt');
  const then = pastTime();
  writeFileSync(file, `change ${counter}\n`);
  utimesSync(file, then, then);
  git(dir, 'commit', '-q', '--no-verify', '-m', `change ${counter}`, '--', 'src/d0/f0.txt');
  return [parent, git(dir, 'rev-parse', 'HEAD')];
}
/** A tracked file edited and not committed (or put back), dated in the past like the rest: gates run in a slot (or in place). */
const DIRTY = join(dir, 'src/d1/f1.txt');
const setDirty = (edited) => {
  writeFileSync(DIRTY, edited ? 'an edit, not committed\n' : 'file 101\n');
  const then = pastTime();
  utimesSync(DIRTY, then, then);
};
/**
 * A tracked file no earlier push saw changed, edited and not committed, the previous one put back: a push
 * that cannot be shown isolated by the paths the last `git status` listed (src/git/dirty-hint.ts), so it
 * pays that status, as every isolated push did before the hint.
 */
let fresh = 0;
let freshEdited = false;
const setFreshDirty = (edited) => {
  const at = (n) => join(dir, `src/d2/f${n % 100}.txt`);
  if (freshEdited) writeFileSync(at(fresh), `file ${200 + (fresh % 100)}\n`);
  freshEdited = edited;
  if (!edited) return;
  fresh++;
  writeFileSync(at(fresh), 'an edit no push has seen\n');
  const then = pastTime();
  utimesSync(at(fresh), then, then);
};
const pushCase = (name, isolated, extra = () => {}) => {
  const c = { name, file: NODE, args: [...RUNNER, 'run', 'pre-push', 'origin', remote], cwd: dir };
  c.before = () => {
    extra();
    setFreshDirty(isolated === 'fresh');
    setDirty(isolated === true);
    const [parent, head] = commitChange();
    c.input = `refs/heads/main ${head} refs/heads/main ${parent}\n`;
  };
  return c;
};

// ── pushes: in place against a kept slot ──────────────────────────────────────────────────────────
if (wanted('push')) {
  // The pool's slot 1 (under GATE_LADDER_WORKTREES, see bench-utils.mjs), found once the warm-up pushes made it.
  const slot = () => {
    const own = join(process.env.GATE_LADDER_WORKTREES, `gate-ladder-${process.getuid()}`);
    return join(
      own,
      readdirSync(own).find((n) => n.startsWith('big-')),
      'slot-1',
    );
  };
  const inSlot = (c) => Object.assign(c, { before: () => (c.cwd = slot()) });
  // What an isolated push cannot do without, each alone, in the same rounds (--floor): the checkout's `git status`
  // (an in-place push pays it too), the slot's lstat of every tracked file (`git diff-files`: the least any check of
  // the slot costs), and the slot's `git checkout -f` to the commit it is at (that pass plus the checkout's own work).
  const floor = FLOOR
    ? [
        {
          name: 'floor: git status in the checkout',
          file: 'git',
          args: ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=no', '--ignore-submodules=dirty'],
          cwd: dir,
        },
        inSlot({ name: 'floor: slot, git diff-files --quiet', file: 'git', args: ['diff-files', '--quiet'] }),
        inSlot({
          name: 'floor: slot, git checkout -f (no move)',
          file: 'git',
          args: ['-c', 'core.splitIndex=true', 'checkout', '-q', '-f', '--detach', 'HEAD'],
        }),
      ]
    : [];
  const pushes = measure(
    [
      pushCase('push in place', false),
      pushCase('push isolated, slot kept', true),
      pushCase('push isolated, a changed path no push saw', 'fresh'),
      ...floor,
    ],
    { reps: PUSH_REPS, warmup: 2 },
  );
  const inPlace = pushes['push in place'];
  const isolated = pushes['push isolated, slot kept'];
  // Per round: the two pushes of one round ran side by side, so their ratio is less exposed to the machine's load.
  const rounds = isolated.samples.map((ms, i) => ms / inPlace.samples[i]).sort((a, b) => a - b);
  const ratios = [
    { label: 'isolated push (slot kept) / push in place', num: isolated.median, den: inPlace.median, target: 1.5 },
    {
      label: 'isolated, a changed path no push saw / in place',
      num: pushes['push isolated, a changed path no push saw'].median,
      den: inPlace.median,
    },
  ];
  if (FLOOR) {
    ratios.push({
      label: 'floor: (push in place + slot lstat pass) / push in place',
      num: inPlace.median + pushes['floor: slot, git diff-files --quiet'].median,
      den: inPlace.median,
    });
    ratios.push({
      label: 'floor: (push in place + slot checkout) / push in place',
      num: inPlace.median + pushes['floor: slot, git checkout -f (no move)'].median,
      den: inPlace.median,
    });
  }
  report(pushes, ratios);
  console.log(
    `  per-round ratios isolated / in place: median ${rounds[rounds.length >> 1].toFixed(2)}, range ${rounds[0].toFixed(2)}–${rounds.at(-1).toFixed(2)} (${rounds.map((r) => r.toFixed(2)).join(' ')})`,
  );
}

// ── the first isolated push (empty pool) against `git worktree add` ─────────────────────────────────
if (wanted('first')) {
  const wtDir = join(base, 'wt-add');
  const first = measure(
    [
      // Each after a `sync`: writing 50,000 files is mostly the disk's work, and the removal before it (untimed)
      // must not be flushed during the timed part.
      pushCase('first isolated push (pool removed first)', true, () => {
        run(NODE, [CLI, 'gc'], dir);
        run('sync', [], dir);
      }),
      {
        name: 'git worktree add --detach (the whole tree)',
        file: 'git',
        args: ['worktree', 'add', '-q', '--detach', wtDir, 'HEAD'],
        cwd: dir,
        before: () => {
          run('git', ['worktree', 'remove', '--force', wtDir], dir, { allowFail: true });
          rmSync(wtDir, { recursive: true, force: true });
          run('sync', [], dir);
        },
      },
    ],
    { reps: FIRST_REPS, warmup: 0 },
  );
  run('git', ['worktree', 'remove', '--force', wtDir], dir, { allowFail: true });
  report(first, [
    {
      label: 'first isolated push / git worktree add',
      num: first['first isolated push (pool removed first)'].median,
      den: first['git worktree add --detach (the whole tree)'].median,
      target: 1,
    },
  ]);
}

// ── replay of 20 consecutive commits against one run in place ───────────────────────────────────────
setDirty(false);
const start = git(dir, 'rev-parse', 'HEAD');
for (let i = 0; i < REPLAYED; i++) commitChange();
if (wanted('replay')) {
  const replays = measure(
    [
      {
        name: `replay of ${REPLAYED} commits (whole run)`,
        file: NODE,
        args: [CLI, 'replay', `${start}..HEAD`, '--force', '--jobs', '1'],
        cwd: dir,
      },
      {
        name: 'run --base HEAD~1 --head HEAD in place',
        file: NODE,
        args: [...RUNNER, 'run', '--base', 'HEAD~1', '--head', 'HEAD'],
        cwd: dir,
      },
    ],
    { reps: REPLAY_REPS, warmup: 1 },
  );
  const perCommit = replays[`replay of ${REPLAYED} commits (whole run)`].median / REPLAYED;
  report(replays, [
    {
      label: `replay per commit (${perCommit.toFixed(1)} ms) / run in place`,
      num: perCommit,
      den: replays['run --base HEAD~1 --head HEAD in place'].median,
      target: 1.5,
    },
  ]);
}

// ── --jobs 2 against --jobs 1, a tier that sleeps 1 s ───────────────────────────────────────────────
if (wanted('jobs')) {
  config('sleep 1');
  const from = git(dir, 'rev-parse', `HEAD~${SLEPT}`);
  const jobs = measure(
    [1, 2].map((j) => ({
      name: `replay of ${SLEPT} commits, sleep 1, --jobs ${j}`,
      file: NODE,
      args: [CLI, 'replay', `${from}..HEAD`, '--force', '--jobs', String(j)],
      cwd: dir,
    })),
    { reps: JOBS_REPS, warmup: 1 },
  );
  report(jobs);
  const throughput =
    jobs[`replay of ${SLEPT} commits, sleep 1, --jobs 1`].median / jobs[`replay of ${SLEPT} commits, sleep 1, --jobs 2`].median;
  console.log(
    `  ratio throughput --jobs 2 / --jobs 1${' '.repeat(24)} ${throughput.toFixed(2)}${throughput >= 1.6 ? '  ≥ 1.6 ok' : '  < 1.6 UNDER TARGET'}`,
  );
  config('true');
}
const note = loadNote();
if (note) console.log(note);
