import { chmodSync, existsSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { CHECK_SH, LADDER_CONFIG, LADDER_FILES, type Repo, sh, withRepo } from '../helpers/repo.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: LADDER_FILES }, fn);
const gatesRan = (out: string) => /gate-ladder: t\d-\w+ running/.test(out);
const treeEntries = (repo: Repo) => {
  const dir = join(repo.dir, '.git', 'gate-ladder', 'cache');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('tree-')) : [];
};

test('a retried push reuses the pass: a cached row per tier, naming the run it reuses, and no gate runs', () =>
  ladder((repo) => {
    // The remote turns the first push away after the hook has passed (a flaky network, a busy server).
    const hook = join(repo.remote, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nif [ ! -f refused-once ]; then touch refused-once; echo "remote busy"; exit 1; fi\n');
    chmodSync(hook, 0o755);
    repo.write('src/other.txt', 'fine\n');
    const head = repo.commit('clean change');
    const first = repo.push();
    assert.is.not(first.code, 0, 'the remote refused it');
    const ran = repo.ledger();
    assert.equal(
      ran.map((r) => [r.tier, r.verdict, r.cached]),
      [
        ['t1-properties', 'pass', undefined],
        ['t2-fixtures', 'pass', undefined],
      ],
    );

    const retry = repo.push();
    assert.is(retry.code, 0, retry.out);
    assert.not.ok(gatesRan(retry.out), retry.out);
    assert.match(retry.out, 'already passed t1-properties, t2-fixtures under this config');
    const rows = repo.ledger().slice(2);
    assert.equal(
      rows.map((r) => [r.tier, r.verdict, r.cached, r.cache_run]),
      [
        ['t1-properties', 'pass', true, ran[0]!.run],
        ['t2-fixtures', 'pass', true, ran[0]!.run],
      ],
    );
    for (const r of rows) {
      assert.is(r.patch, head);
      assert.is(r.hook, 'pre-push');
      assert.equal(r.files, ['src/other.txt']);
      assert.is.not(r.run, ran[0]!.run, 'the cached rows are a run of their own');
    }
    assert.is(repo.gitOk('--git-dir', repo.remote, 'rev-parse', 'main'), head);
  }));

test('the same commit pushed to a second remote reuses the passes its plan needs', () =>
  ladder((repo) => {
    const second = join(repo.dir, '..', 'second.git');
    repo.gitOk('init', '-q', '--bare', '-b', 'main', second);
    repo.gitOk('remote', 'add', 'second', second);
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean change');
    const r1 = repo.push();
    assert.is(r1.code, 0, r1.out);
    const first = repo.ledger();
    // The second remote is empty: its range is the whole history, tests/ included, so t0 routes past t1.
    const r2 = repo.push(['second', 'main']);
    assert.is(r2.code, 0, r2.out);
    assert.not.ok(gatesRan(r2.out), r2.out);
    const rows = repo.ledger().slice(first.length);
    assert.equal(
      rows.map((r) => [r.tier, r.verdict, r.cached, r.cache_run, r.routed]),
      [['t2-fixtures', 'pass', true, first[1]!.run, true]],
    );
  }));

test('a rebase that yields an identical tree (two commits squashed into one) is not tested again', () =>
  ladder((repo) => {
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('src/one.txt', '1\n');
    repo.commit('one');
    repo.write('src/two.txt', '2\n');
    repo.commit('two');
    const r1 = repo.push(['-u', 'origin', 'feature']);
    assert.is(r1.code, 0, r1.out);
    const first = repo.ledger();
    repo.gitOk('reset', '-q', '--soft', 'main');
    const squashed = repo.commit('one and two');
    const r2 = repo.push(['--force', 'origin', 'feature']);
    assert.is(r2.code, 0, r2.out);
    assert.not.ok(gatesRan(r2.out), r2.out);
    const rows = repo.ledger().slice(first.length);
    assert.equal(
      rows.map((r) => [r.tier, r.cached, r.cache_run, r.patch]),
      [
        ['t1-properties', true, first[0]!.run, squashed],
        ['t2-fixtures', true, first[0]!.run, squashed],
      ],
    );
  }));

test('a caught is never cached: the retried push runs the gates again and is caught again', () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    for (let i = 0; i < 2; i++) {
      const r = repo.push();
      assert.is.not(r.code, 0);
      assert.match(r.out, 't1-properties caught a problem');
    }
    assert.equal(
      repo.ledger().map((r) => [r.tier, r.verdict, r.cached]),
      [
        ['t1-properties', 'caught', undefined],
        ['t1-properties', 'caught', undefined],
      ],
    );
    assert.equal(treeEntries(repo), []);
  }));

test('a harness error is never cached either', () =>
  ladder((repo) => {
    repo.write('harness.txt', '4\n');
    repo.commit('break the harness');
    repo.push();
    const r = repo.push();
    assert.match(r.out, 'could not give a verdict');
    assert.equal(
      repo.ledger().map((x) => [x.verdict, x.cached]),
      [
        ['error', undefined],
        ['error', undefined],
      ],
    );
  }));

test('a cached pass never hides a new catch: a bug after a cached tree is caught', () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    assert.is(repo.push().code, 0);
    assert.is(treeEntries(repo).length, 1);
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    const r = repo.push();
    assert.is.not(r.code, 0);
    assert.match(r.out, 't1-properties caught a problem');
  }));

test('with isolation none, a pass in a work tree with uncommitted changes is not recorded (the gates did not see the pushed tree)', () =>
  ladder((repo) => {
    repo.write('gate-ladder.config.ts', repo.read('gate-ladder.config.ts').replace('tiers: [', "isolation: 'none',\n  tiers: ["));
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    repo.write('src/value.txt', 'good, edited\n');
    const r = repo.push(['--dry-run', 'origin', 'HEAD']);
    assert.is(r.code, 0, r.out);
    assert.equal(treeEntries(repo), []);
    const again = repo.push();
    assert.ok(gatesRan(again.out), 'the gates ran again');
  }));

test('with isolation auto, a dirty work tree sends the gates to a worktree at the pushed commit, so the pass is recorded', () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    repo.write('src/value.txt', 'bug, uncommitted\n');
    const r = repo.push(['--dry-run', 'origin', 'HEAD']);
    assert.is(r.code, 0, r.out);
    assert.equal(
      repo.ledger().map((x) => x.isolation),
      ['worktree', 'worktree'],
    );
    assert.is(treeEntries(repo).length, 1);
  }));

/** A ladder whose config lives outside the tree (excluded from git), so it can change while the tree stays. */
const outside = <T>(fn: (repo: Repo, setConfig: (text: string) => void) => Promise<T> | T) =>
  withRepo({ install: false, files: { 'check.sh': CHECK_SH, 'src/value.txt': 'good\n', 'tests/fixture.txt': 'fixture v1\n' } }, (repo) => {
    writeFileSync(join(repo.dir, '.git', 'info', 'exclude'), 'gate-ladder.config.ts\n');
    const setConfig = (text: string) => repo.write('gate-ladder.config.ts', text);
    setConfig(LADDER_CONFIG);
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean change');
    return fn(repo, setConfig);
  });
const manual = (repo: Repo, ...extra: string[]) => repo.cli(['run', '--base', 'HEAD~1', ...extra]);

test('the same tree misses after a config change and after a command change, and hits again after each run', () =>
  outside((repo, setConfig) => {
    assert.ok(gatesRan(manual(repo).out), 'first run');
    assert.not.ok(gatesRan(manual(repo).out), 'cached');
    setConfig(LADDER_CONFIG.replace('tiers: [', 'freeze: { minRuns: 30 },\n  tiers: ['));
    assert.ok(gatesRan(manual(repo).out), 'any config change is a miss');
    assert.not.ok(gatesRan(manual(repo).out));
    setConfig(LADDER_CONFIG.replace("'sh check.sh fixtures'", "'sh check.sh fixtures --again'"));
    const changed = manual(repo);
    assert.ok(gatesRan(changed.out), 'a changed command is a miss');
    assert.is(changed.code, 0, changed.out);
    assert.not.ok(gatesRan(manual(repo).out));
    const cached = repo.ledger().filter((r) => r.cached === true);
    assert.is(cached.length, 6);
  }));

test('--no-cache runs every planned gate and leaves the cache as it was', () =>
  outside((repo) => {
    manual(repo);
    const entries = treeEntries(repo);
    const forced = manual(repo, '--no-cache');
    assert.is(forced.code, 0, forced.out);
    assert.ok(gatesRan(forced.out), forced.out);
    assert.equal(
      repo.ledger().map((r) => r.cached ?? false),
      [false, false, false, false],
    );
    assert.equal(treeEntries(repo), entries);
    assert.not.ok(gatesRan(manual(repo).out), 'still cached');
  }));

test('a command that now fails on a cached tree is caught, not hidden', () =>
  outside((repo, setConfig) => {
    manual(repo);
    setConfig(LADDER_CONFIG.replace("'sh check.sh properties'", "'sh check.sh properties; exit 1'"));
    const r = manual(repo);
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 't1-properties caught a problem');
  }));

test('config `cache: false` turns the tree cache off', () =>
  outside((repo, setConfig) => {
    setConfig(LADDER_CONFIG.replace('tiers: [', 'cache: false,\n  tiers: ['));
    manual(repo);
    assert.ok(gatesRan(manual(repo).out));
    assert.equal(treeEntries(repo), []);
  }));

test('--dry-run says when a push would reuse a pass, and runs nothing', () =>
  outside((repo) => {
    manual(repo);
    const r = manual(repo, '--dry-run');
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'cached: this tree already passed every planned tier');
    assert.is(repo.ledger().length, 2);
  }));

// Node-sensitive: the files a config imports, as jiti loads them on this Node, are the config cache's key.
nodeTest('the config cache notices edits: to the config (new verdicts) and to a file it imports', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': "import { tiers } from './ladder/tiers.js';\nexport default { tiers };\n",
        'ladder/tiers.ts': "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit', timeout: 30 }];\n",
        'check.sh': CHECK_SH,
        'src/value.txt': 'good\n',
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a\n');
      repo.commit('a');
      assert.is(repo.push().code, 0);
      // Only the imported file changes: a stale config would still run `sh check.sh unit` and pass.
      repo.write('ladder/tiers.ts', "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit && exit 1', timeout: 30 }];\n");
      repo.commit('make t1 fail');
      const r = repo.push();
      assert.is.not(r.code, 0, r.out);
      assert.match(r.out, 't1-unit caught a problem');
      repo.write('ladder/tiers.ts', "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit', timeout: 30 }];\n");
      repo.write(
        'gate-ladder.config.ts',
        "import { tiers } from './ladder/tiers.js';\nexport default { tiers: [...tiers, { name: 't2-more', run: 'exit 1' }] };\n",
      );
      repo.commit('add a failing t2');
      const r2 = repo.push();
      assert.match(r2.out, 't2-more caught a problem');
    },
  ),
);

nodeTest(
  'the config cache notices an edit to an ES module the config imports that node loads itself (.mjs, .js in a "type": "module" package)',
  () =>
    withRepo(
      {
        files: {
          'gate-ladder.config.ts':
            "import { tiers } from './ladder/tiers.mjs';\nimport { more } from './ladder/more.js';\nexport default { tiers: [...tiers, ...more] };\n",
          'ladder/tiers.mjs': "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit', timeout: 30 }];\n",
          'ladder/more.js': "export { more } from './more-tiers.mjs';\n",
          'ladder/more-tiers.mjs': 'export const more = [];\n',
          'ladder/package.json': '{ "type": "module" }\n',
          'check.sh': CHECK_SH,
          'src/value.txt': 'good\n',
        },
      },
      (repo) => {
        repo.write('src/a.txt', 'a\n');
        repo.commit('a');
        assert.is(repo.push().code, 0);
        // Only the imported .mjs changes: a stale config would still run `sh check.sh unit` and pass.
        repo.write('ladder/tiers.mjs', "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit && exit 1', timeout: 30 }];\n");
        repo.commit('make t1 fail');
        const r = repo.push();
        assert.is.not(r.code, 0, r.out);
        assert.match(r.out, 't1-unit caught a problem');
        // A module two imports down, through a .js of a "type": "module" folder.
        repo.write('ladder/tiers.mjs', "export const tiers = [{ name: 't1-unit', run: 'sh check.sh unit', timeout: 30 }];\n");
        repo.write('ladder/more-tiers.mjs', "export const more = [{ name: 't2-more', run: 'exit 1' }];\n");
        repo.commit('add a failing t2');
        const r2 = repo.push();
        assert.is.not(r2.code, 0, r2.out);
        assert.match(r2.out, 't2-more caught a problem');
      },
    ),
);

test('routing a large diff prints a bounded plan, not every path', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    const blob = sh('git', ['hash-object', '-w', '--stdin'], repo.dir, { input: 'x\n' }).stdout.trim();
    const lines = Array.from({ length: 3000 }, (_, i) => `100644 ${blob} 0\tsrc/many/f${i}.txt`).join('\n');
    assert.is(sh('git', ['update-index', '--add', '--index-info'], repo.dir, { input: `${lines}\n` }).code, 0);
    repo.gitOk('commit', '-q', '-m', 'many files');
    sh('git', ['checkout', '--', '.'], repo.dir);
    const r = repo.cli(['run', '--dry-run', '--base', 'HEAD~1']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, '3000 changed paths');
    assert.ok(r.out.split('\n').length < 20, r.out.slice(0, 500));
  }));

// Node-sensitive: the hook's quickest path (the compile cache, what it loads, the one git process).
nodeTest('a push whose tree already passed, as the hook runs it, starts no gate and one git process (rev-parse); the listing is kept', () =>
  outside((repo, setConfig) => {
    setConfig(LADDER_CONFIG.replace('tiers: [', "isolation: 'none',\n  tiers: ["));
    // Every git process started with GIT_TRACE set to a file appends to it.
    const trace = join(repo.dir, '.git', 'trace.txt');
    const env = { GIT_TRACE: trace };
    const gitRan = () =>
      (existsSync(trace) ? (readFileSync(trace, 'utf8').match(/trace: (?:built-in|exec|run_command): git [a-z-]+/g) ?? []) : []).map((c) =>
        c.replace(/^.*: /, ''),
      );
    // The hook's own command line and git's stdin line: full shas.
    const stdin = `refs/heads/main ${repo.gitOk('rev-parse', 'HEAD')} refs/heads/main ${repo.gitOk('rev-parse', 'origin/main')}\n`;
    const push = () => repo.cli(['run', 'pre-push', 'origin', repo.remote], { env, input: stdin });
    const cacheDir = join(repo.dir, '.git', 'gate-ladder', 'cache');
    const first = push();
    assert.is(first.code, 0, first.out);
    assert.ok(gatesRan(first.out), first.out);
    assert.ok(gitRan().includes('git diff-tree'), gitRan().join('\n'));
    unlinkSync(trace);
    const again = push();
    assert.is(again.code, 0, again.out);
    assert.match(again.out, 'already passed');
    assert.not.ok(gatesRan(again.out), again.out);
    assert.equal(gitRan(), ['git rev-parse'], 'one git process: the listing came from the range cache');
    assert.equal(
      repo
        .ledger()
        .slice(-2)
        .map((r) => [r.hook, r.cached]),
      [
        ['pre-push', true],
        ['pre-push', true],
      ],
    );
    // A dry run, which ends as soon as the listing is routed, keeps it too, and leaves no temp file.
    for (const f of readdirSync(cacheDir)) if (f.startsWith('diff-')) unlinkSync(join(cacheDir, f));
    const dry = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD', '--dry-run']);
    assert.is(dry.code, 0, dry.out);
    assert.ok(
      readdirSync(cacheDir).some((f) => f.startsWith('diff-')),
      'the listing was kept',
    );
    assert.equal(
      readdirSync(cacheDir).filter((f) => f.startsWith('.tmp-')),
      [],
      'no temp file left after a dry run',
    );
    assert.equal(
      repo
        .ledger()
        .slice(-2)
        .map((r) => r.verdict),
      ['pass', 'pass'],
    );
  }),
);

test.run();
