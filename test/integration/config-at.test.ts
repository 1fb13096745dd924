/**
 * Which config judges a push, a commit and a manual run: the pushed commit's own (the staged one for a
 * commit), not whatever the working tree holds; a manual run uses today's, and each says which.
 * Real repos, the packed CLI, real `git push` and `git commit`.
 */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, LADDER_CONFIG, LADDER_FILES, type Repo, sh, withRepo } from '../helpers/repo.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: LADDER_FILES }, fn);
const verdicts = (rows: Record<string, unknown>[]) => rows.map((x) => [x.tier, x.verdict]);
/** A config whose only tier always passes: in the working tree, it would let any bug through. */
const LENIENT = `export default { tiers: [{ name: 't1-lenient', run: 'true' }] };\n`;

test("an uncommitted config edit does not change a push's verdict, and is mentioned", () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    const bug = repo.commit('a bug');
    repo.write('gate-ladder.config.ts', LENIENT);
    const r = repo.push();
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 't1-properties caught a problem');
    assert.match(r.out, `refs/heads/main is judged under gate-ladder.config.ts as committed at ${bug.slice(0, 12)}`);
    assert.match(r.out, "the working tree's config differs (uncommitted changes?) and is not used for this push");
    assert.equal(verdicts(repo.ledger()), [['t1-properties', 'caught']]);
    assert.is(repo.read('gate-ladder.config.ts'), LENIENT, 'the working tree is not touched');

    // The other way round: an uncommitted edit that would fail every push does not block a good one.
    // (A new value, not the first one back: a range whose changes cancel out is empty, with nothing to judge.)
    repo.write('src/value.txt', 'fine\n');
    repo.gitOk('add', 'src/value.txt');
    repo.gitOk('commit', '-q', '-m', 'fix');
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 't1-strict', run: 'exit 1' }] };\n`);
    const ok = repo.push();
    assert.is(ok.code, 0, ok.out);
    assert.equal(verdicts(repo.ledger().slice(1)), [
      ['t1-properties', 'pass'],
      ['t2-fixtures', 'pass'],
    ]);
    assert.match(ok.out, 'is not used for this push');
  }));

test('an uncommitted deletion of the config does not let a push through', () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    rmSync(join(repo.dir, 'gate-ladder.config.ts'));
    const r = repo.push();
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 't1-properties caught a problem');
    assert.match(r.out, "the working tree's config is missing (deleted, not committed?) and is not used");
    assert.not.match(r.out, 'no config found');
    assert.equal(verdicts(repo.ledger()), [['t1-properties', 'caught']]);
  }));

test("a pushed commit with no config is judged under the working tree's, and the push says so", () =>
  withRepo({ install: false, files: { 'check.sh': CHECK_SH, 'src/value.txt': 'good\n', 'tests/fixture.txt': 'fixture v1\n' } }, (repo) => {
    // The config exists only in the working tree (git never sees it), as when a repository adopts gate-ladder.
    writeFileSync(join(repo.dir, '.git', 'info', 'exclude'), 'gate-ladder.config.ts\n');
    repo.write('gate-ladder.config.ts', LADDER_CONFIG);
    const hook = repo.cli(['install']);
    assert.is(hook.code, 0, hook.out);
    repo.write('src/value.txt', 'bug\n');
    const bug = repo.commit('a bug, and the hook');
    const r = repo.push();
    assert.is(r.code, 1, r.out);
    assert.match(
      r.out,
      `refs/heads/main at ${bug.slice(0, 12)} has no committed config: judged under the working tree's gate-ladder.config.ts`,
    );
    assert.equal(verdicts(repo.ledger()), [['t1-properties', 'caught']]);
    const json = JSON.parse(
      repo.cli(['run', 'pre-push', 'origin', '--json', '--dry-run'], {
        input: `refs/heads/main ${bug} refs/heads/main ${repo.gitOk('rev-parse', 'origin/main')}\n`,
      }).stdout,
    );
    assert.equal(json.targets[0].config, { file: 'gate-ladder.config.ts', source: 'working-tree' });
  }));

test("two refs with different configs in one push: each is judged under its own commit's config", () =>
  ladder((repo) => {
    // Branch a: a config whose tier passes everything, and a bug. Branch b: a config that fails everything, and no bug.
    repo.gitOk('checkout', '-q', '-b', 'a');
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 'ta', run: 'true' }] };\n`);
    repo.write('src/value.txt', 'bug\n');
    const a = repo.commit('a');
    repo.gitOk('checkout', '-q', 'main');
    repo.gitOk('checkout', '-q', '-b', 'b');
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 'tb', run: 'echo judged-by-b; exit 1' }] };\n`);
    repo.write('src/b.txt', 'b\n');
    const b = repo.commit('b');
    // The working tree: main, with its own config (t1-properties, t2-fixtures).
    repo.gitOk('checkout', '-q', 'main');
    const r = repo.push(['origin', 'a', 'b']);
    assert.is(r.code, 1, r.out);
    assert.match(r.out, 'judged-by-b');
    assert.match(r.out, 'tb caught a problem in refs/heads/b');
    const byRef = Object.fromEntries(repo.ledger().map((x) => [x.ref, [x.tier, x.verdict, x.patch]]));
    assert.equal(byRef, { 'refs/heads/a': ['ta', 'pass', a], 'refs/heads/b': ['tb', 'caught', b] });
    assert.match(r.out, `refs/heads/a is judged under gate-ladder.config.ts as committed at ${a.slice(0, 12)}`);
  }));

test('a committed config that is a symlink (to conf/ladder.ts) is read through it: the file it points at judges the push, not its path as code', () =>
  ladder((repo) => {
    repo.write('conf/ladder.ts', LADDER_CONFIG);
    rmSync(join(repo.dir, 'gate-ladder.config.ts'));
    symlinkSync('conf/ladder.ts', join(repo.dir, 'gate-ladder.config.ts'));
    repo.write('src/value.txt', 'bug\n');
    const bug = repo.commit('the config as a link, and a bug');
    const r = repo.push(['origin', 'main']);
    assert.is(r.code, 1, r.out);
    assert.not.match(r.out, 'could not be loaded');
    assert.match(r.out, 't1-properties caught a problem');
    // a branch whose linked file differs from the working tree's: that commit's file judges it
    repo.gitOk('checkout', '-q', '-b', 'side');
    repo.write('conf/ladder.ts', LENIENT);
    repo.write('src/value.txt', 'still a bug\n');
    const side = repo.commit('a lenient config');
    repo.gitOk('checkout', '-q', 'main');
    const s = repo.push(['origin', 'side']);
    assert.is(s.code, 0, s.out);
    assert.match(s.out, 'refs/heads/side is judged under gate-ladder.config.ts as committed at');
    assert.equal(
      repo.ledger().map((x) => [x.patch, x.tier, x.verdict]),
      [
        [bug, 't1-properties', 'caught'],
        [side, 't1-lenient', 'pass'],
      ],
    );
  }));

test("a manual run uses the working tree's config (today's) and says so", () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('clean');
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 't1-today', run: 'exit 1' }] };\n`);
    const r = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(r.code, 1, r.out);
    assert.match(
      r.out,
      "judged under the working tree's gate-ladder.config.ts (today's config; a push is judged under the pushed commit's own",
    );
    assert.match(r.out, 't1-today caught a problem');
    const json = JSON.parse(repo.cli(['run', '--base', 'HEAD~1', '--json', '--dry-run']).stdout);
    assert.equal(json.targets[0].config, { file: 'gate-ladder.config.ts', source: 'working-tree' });
  }));

test('a config that imports another file is judged as committed: an uncommitted edit to the imported file is not used', () =>
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
      repo.write('src/value.txt', 'bug\n');
      repo.commit('a bug');
      repo.write('ladder/tiers.ts', "export const tiers = [{ name: 't1-unit', run: 'true', timeout: 30 }];\n");
      const r = repo.push();
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 't1-unit caught a problem');
      assert.match(r.out, 'is not used for this push');
      // A new commit, and the config deleted in the working tree with the file it imports: the copy of the
      // commit's config has only the config at first, and fetches the file it imports from the commit.
      repo.gitOk('checkout', '--', 'ladder/tiers.ts');
      repo.write('src/value.txt', 'bug again\n');
      repo.commit('another bug');
      rmSync(join(repo.dir, 'ladder'), { recursive: true });
      rmSync(join(repo.dir, 'gate-ladder.config.ts'));
      const gone = repo.push();
      assert.is(gone.code, 1, gone.out);
      assert.match(gone.out, 't1-unit caught a problem');
      assert.match(gone.out, "the working tree's config is missing");
    },
  ));

test('a committed config that imports a file the commit lacks blocks the push with a clear message', () =>
  withRepo({ files: { 'check.sh': CHECK_SH, 'src/value.txt': 'good\n', 'gate-ladder.config.ts': LENIENT } }, (repo) => {
    repo.write('gate-ladder.config.ts', "import { tiers } from './ladder/tiers.js';\nexport default { tiers };\n");
    const head = repo.commit('a config importing a file that was never committed');
    repo.write('gate-ladder.config.ts', LENIENT);
    const r = repo.push();
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'pre-push script failed (code 2)');
    assert.match(
      r.out,
      `push blocked: refs/heads/main: the config has 1 problem (as committed at ${head.slice(0, 12)}); no gate ran for it`,
    );
    assert.match(r.out, "Cannot find module './ladder/tiers.js'");
    assert.match(r.out, 'commit the fix, and push again');
    assert.equal(repo.ledger(), []);
  }));

test('the package.json "gate-ladder" key and .gate-ladderrc forms are read from the pushed commit too', () =>
  withRepo(
    {
      files: {
        'check.sh': CHECK_SH,
        'src/value.txt': 'good\n',
        'package.json': `${JSON.stringify({ name: 'fixture', private: true, 'gate-ladder': { tiers: [{ name: 't1-pkg', run: 'sh check.sh pkg' }] } }, null, 2)}\n`,
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'bug\n');
      repo.commit('a bug');
      repo.write(
        'package.json',
        `${JSON.stringify({ name: 'fixture', private: true, 'gate-ladder': { tiers: [{ name: 't1-pkg', run: 'true' }] } }, null, 2)}\n`,
      );
      const r = repo.push();
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 't1-pkg caught a problem');
      assert.match(r.out, 'judged under package.json as committed at');

      // An rc file in the working tree only outranks package.json there; the commit has none, so its package.json key judges.
      repo.write('.gate-ladderrc.json', `{ "tiers": [{ "name": "t1-rc", "run": "true" }] }\n`);
      const rc = repo.push();
      assert.is(rc.code, 1, rc.out);
      assert.match(rc.out, 't1-pkg caught a problem');
      // Committed, the rc file judges (and its own working-tree edit does not).
      repo.write('src/value.txt', 'good\n');
      repo.write('.gate-ladderrc.json', `{ "tiers": [{ "name": "t1-rc", "run": "sh check.sh rc" }] }\n`);
      repo.commit('fix, and an rc config');
      repo.write('.gate-ladderrc.json', `{ "tiers": [{ "name": "t1-rc", "run": "exit 1" }] }\n`);
      const ok = repo.push();
      assert.is(ok.code, 0, ok.out);
      assert.equal(verdicts(repo.ledger().slice(-1)), [['t1-rc', 'pass']]);
    },
  ));

/** A tier whose JUnit report fails "value > is good" when src/value.txt says bug. */
const JUNIT_SH = `#!/bin/sh
if grep -q bug src/value.txt; then r='<failure message="buggy"/>'; code=1; else r=''; code=0; fi
printf '<?xml version="1.0"?><testsuites><testsuite name="value" tests="1"><testcase classname="value" name="is good">%s</testcase></testsuite></testsuites>\\n' "$r" > junit.xml
exit $code
`;

test('an uncommitted freezes.json does not forgive a failing test on push; the committed one does', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': `export default { cache: false, tiers: [{ name: 't1-junit', run: 'sh junit.sh', junit: 'junit.xml', timeout: 30 }] };\n`,
        'junit.sh': JUNIT_SH,
        '.gitignore': 'node_modules\njunit.xml\n',
        'src/value.txt': 'good\n',
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'bug\n');
      repo.commit('a bug');
      const r0 = repo.push(['--dry-run', 'origin', 'HEAD']);
      assert.is(r0.code, 1, r0.out);
      const id = (repo.ledger()[0]!.failed as string[])[0]!;
      assert.ok(id, r0.out);
      const freezes = JSON.stringify({
        version: 1,
        freezes: [
          {
            test: id,
            flip_rate: 0.5,
            runs: 20,
            flips: 10,
            evidence: 1,
            by: 'T <t@x>',
            at: '2026-01-01T00:00:00Z',
            expires: '2999-01-01',
            reentry: 'never',
          },
        ],
      });
      // Untracked: the working tree is otherwise the pushed commit, so the gate runs in place, beside this file.
      repo.write('.gate-ladder/freezes.json', freezes);
      const r = repo.push(['--dry-run', 'origin', 'HEAD']);
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 't1-junit caught a problem');
      assert.not.match(r.out, 'only frozen tests failed');
      assert.equal(
        repo.ledger().map((x) => [x.verdict, x.isolation]),
        [
          ['caught', 'none'],
          ['caught', 'none'],
        ],
      );
      // Committed, the freeze applies.
      repo.gitOk('add', '.gate-ladder/freezes.json');
      repo.gitOk('commit', '-q', '-m', 'freeze the test');
      const frozen = repo.push(['--dry-run', 'origin', 'HEAD']);
      assert.is(frozen.code, 0, frozen.out);
      assert.match(frozen.out, 'only frozen tests failed');
      // And an uncommitted removal of the committed freeze does not take it away.
      repo.write('.gate-ladder/freezes.json', '{"version":1,"freezes":[]}');
      const kept = repo.push(['--dry-run', 'origin', 'HEAD']);
      assert.is(kept.code, 0, kept.out);
      assert.match(kept.out, 'only frozen tests failed');
    },
  ));

/** Installs the pre-commit hook too and commits it without running it. */
function withPreCommit(repo: Repo): void {
  const r = repo.cli(['install', '--pre-commit']);
  assert.is(r.code, 0, r.out);
  repo.gitOk('add', '.husky/pre-commit');
  const c = sh('git', ['commit', '-q', '-m', 'pre-commit hook'], repo.dir, { env: { GATE_LADDER: '0' } });
  assert.is(c.code, 0, c.out);
}

const PRE_COMMIT_CONFIG = (run: string) =>
  `export default { tiers: [{ name: 't1-staged', run: '${run}', timeout: 30, hooks: ['pre-commit'] }] };\n`;

test('pre-commit judges the staged tree under the staged config, not an unstaged edit of it', () =>
  withRepo(
    { files: { 'gate-ladder.config.ts': PRE_COMMIT_CONFIG('sh check.sh staged'), 'check.sh': CHECK_SH, 'src/value.txt': 'good\n' } },
    (repo) => {
      withPreCommit(repo);
      repo.write('src/value.txt', 'bug\n');
      repo.gitOk('add', 'src/value.txt');
      repo.write('gate-ladder.config.ts', PRE_COMMIT_CONFIG('true'));
      const r = sh('git', ['commit', '-m', 'a bug'], repo.dir);
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 't1-staged caught a problem in the staged changes');
      assert.match(
        r.out,
        "the commit is judged under the staged gate-ladder.config.ts; the working tree's config differs (unstaged changes)",
      );
      // Staged, the new config judges the commit.
      repo.gitOk('add', 'gate-ladder.config.ts');
      const ok = sh('git', ['commit', '-m', 'a bug, under a lenient config'], repo.dir);
      assert.is(ok.code, 0, ok.out);
      assert.not.match(ok.out, 'is not used');
    },
  ));

test.run();
