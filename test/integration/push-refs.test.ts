/** Every shape of push, each through a real `git push` to a bare remote with the packed CLI as the hook. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, withRepo } from '../helpers/repo.js';
import { poolLocks, userWorktrees } from '../helpers/pool.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: LADDER_FILES }, fn);
const BYPASS = { GATE_LADDER: '0' };

/** The remote's sha for a ref, or '' when it has no such ref. */
const onRemote = (repo: Repo, ref: string) => repo.git('--git-dir', repo.remote, 'rev-parse', '--verify', '-q', ref).stdout.trim();
const verdicts = (rows: Record<string, unknown>[]) => rows.map((r) => [r.ref, r.tier, r.verdict]);

test('new branch to an empty remote: every file of the pushed tree is routed; rows say it was a first push', () =>
  withRepo({ files: LADDER_FILES, pushInitial: false }, (repo) => {
    const head = repo.gitOk('rev-parse', 'HEAD');
    const r = repo.push(['origin', 'main']);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    // tests/fixture.txt is in the tree, so t0 routes past t1.
    assert.equal(verdicts(rows), [['refs/heads/main', 't2-fixtures', 'pass']]);
    const row = rows[0]!;
    assert.is(row.patch, head);
    assert.is(row.base, null);
    assert.match(String(row.reason), 'first push of this history: every file of the pushed tree');
    // The empty tree is no commit of the user's: the line says there was nothing to compare with, not its sha.
    assert.match(
      r.out,
      `refs/heads/main at ${head.slice(0, 12)}: 7 changed paths (nothing earlier to compare with: every file of the commit)`,
    );
    assert.not.match(r.out, '4b825dc642cb');
    assert.equal(row.files, [
      '.gitignore',
      '.husky/pre-push',
      'check.sh',
      'gate-ladder.config.ts',
      'package.json',
      'src/value.txt',
      'tests/fixture.txt',
    ]);
    assert.is(row.isolation, 'none');
    assert.is(onRemote(repo, 'main'), head);
  }));

test('new branch off main: judged on its own commits, against where it left main', () =>
  ladder((repo) => {
    const fork = repo.gitOk('rev-parse', 'HEAD');
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('feature with a bug');
    // main moves on meanwhile; its changes are not the feature's.
    repo.gitOk('checkout', '-q', 'main');
    repo.write('src/main-only.txt', 'x\n');
    repo.commit('main moves');
    assert.is(repo.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    repo.gitOk('checkout', '-q', 'feature');
    const r = repo.push(['-u', 'origin', 'feature']);
    assert.is.not(r.code, 0);
    assert.match(r.out, 't1-properties caught a problem in refs/heads/feature');
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [['refs/heads/feature', 't1-properties', 'caught']]);
    assert.is(rows[0]!.patch, head);
    assert.is(rows[0]!.base, fork);
    assert.equal(rows[0]!.files, ['src/value.txt']);
    assert.is(onRemote(repo, 'feature'), '');
    // pushed to the remote's URL instead of its name (git then hands the hook the URL as the remote's
    // name): judged the same way, not as a first push of every file
    const byUrl = repo.push([repo.remote, 'feature:refs/heads/by-url']);
    assert.is.not(byUrl.code, 0);
    assert.not.match(byUrl.out, 'first push');
    const last = repo.ledger().at(-1)!;
    assert.equal([last.ref, last.base, last.files], ['refs/heads/by-url', fork, ['src/value.txt']]);
  }));

test('deleting a branch: nothing to test, no rows, the push is allowed', () =>
  ladder((repo) => {
    repo.gitOk('checkout', '-q', '-b', 'old');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug on a branch about to go');
    assert.is(repo.push(['-q', 'origin', 'old'], BYPASS).code, 0);
    repo.gitOk('checkout', '-q', 'main');
    const r = repo.push(['origin', '--delete', 'old']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'refs/heads/old: deleting a remote ref: nothing to test');
    assert.equal(repo.ledger(), []);
    assert.is(onRemote(repo, 'old'), '');
  }));

test('pushing tags: lightweight and annotated tags of pushed commits have nothing new; a tag of a new commit is tested at that commit', () =>
  ladder((repo) => {
    repo.gitOk('tag', 'v1');
    repo.gitOk('tag', '-a', 'v2', '-m', 'v2');
    const r = repo.push(['origin', 'v1', 'v2']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'refs/tags/v1: the remote already has every commit of this push');
    assert.match(r.out, 'refs/tags/v2: the remote already has every commit of this push');
    assert.equal(repo.ledger(), []);
    assert.ok(onRemote(repo, 'refs/tags/v2'));

    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('a bug, tagged');
    repo.gitOk('tag', '-a', 'v3', '-m', 'v3');
    const tagObject = repo.gitOk('rev-parse', 'v3');
    assert.is.not(tagObject, head);
    const t = repo.push(['origin', 'v3']);
    assert.is.not(t.code, 0);
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [['refs/tags/v3', 't1-properties', 'caught']]);
    assert.is(rows[0]!.patch, head, 'the annotated tag is peeled to its commit');
    assert.is(onRemote(repo, 'refs/tags/v3'), '');
  }));

test('two branches in one push, one good and one bad: rejected, with rows for both, each with its ref', () =>
  ladder((repo) => {
    repo.gitOk('checkout', '-q', '-b', 'good');
    repo.write('src/other.txt', 'fine\n');
    const good = repo.commit('good change');
    repo.gitOk('checkout', '-q', '-b', 'bad', 'main');
    repo.write('src/value.txt', 'bug\n');
    const bad = repo.commit('bad change');
    repo.gitOk('checkout', '-q', 'main');
    const r = repo.push(['origin', 'good', 'bad']);
    assert.is.not(r.code, 0);
    assert.match(r.out, 'refs/heads/good: 2 tiers passed');
    assert.match(r.out, 't1-properties caught a problem in refs/heads/bad');
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [
      ['refs/heads/good', 't1-properties', 'pass'],
      ['refs/heads/good', 't2-fixtures', 'pass'],
      ['refs/heads/bad', 't1-properties', 'caught'],
    ]);
    assert.equal(
      rows.map((x) => x.patch),
      [good, good, bad],
    );
    assert.is(rows[0]!.run, rows[1]!.run);
    assert.is.not(rows[0]!.run, rows[2]!.run, 'each ref has its own ladder run');
    assert.is(onRemote(repo, 'good'), '', 'git rejects the whole push');
    assert.is(onRemote(repo, 'bad'), '');
  }));

test('refs that point at the same commit are tested once', () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('one commit, two names');
    repo.gitOk('branch', 'copy');
    const r = repo.push(['origin', 'main', 'copy']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'refs/heads/copy points at the same commit: tested once');
    assert.equal(verdicts(repo.ledger()), [
      ['refs/heads/main', 't1-properties', 'pass'],
      ['refs/heads/main', 't2-fixtures', 'pass'],
    ]);
  }));

test('forced push after a rewrite: judged from where the old and new histories fork', () =>
  ladder((repo) => {
    const fork = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/first.txt', 'first try\n');
    repo.commit('first try');
    assert.is(repo.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    repo.gitOk('rm', '-q', 'src/first.txt');
    repo.write('src/second.txt', 'second try\n');
    repo.gitOk('add', '-A');
    repo.gitOk('commit', '-q', '--amend', '-m', 'second try');
    const r = repo.push(['--force', 'origin', 'main']);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [
      ['refs/heads/main', 't1-properties', 'pass'],
      ['refs/heads/main', 't2-fixtures', 'pass'],
    ]);
    assert.is(rows[0]!.base, fork);
    assert.equal(rows[0]!.files, ['src/second.txt']);
    assert.is(rows[0]!.reason, undefined);
  }));

test('forced push over a commit this clone never fetched: the base falls back to the tracking ref, and the reason says so', () =>
  ladder((repo) => {
    const fork = repo.gitOk('rev-parse', 'HEAD');
    const other = repo.clone('other');
    other.write('src/theirs.txt', 'theirs\n');
    const theirs = other.commit('their commit');
    assert.is(other.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    repo.write('src/mine.txt', 'mine\n');
    repo.commit('my commit, not on top of theirs');
    assert.is.not(repo.git('cat-file', '-e', theirs).code, 0, 'their commit is not in this clone');
    const r = repo.push(['--force', 'origin', 'main']);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.is(rows.length, 2);
    assert.is(rows[0]!.base, fork);
    assert.equal(rows[0]!.files, ['src/mine.txt']);
    assert.match(
      String(rows[0]!.reason),
      `remote sha ${theirs.slice(0, 12)} is not in this clone (forced push?); base is the merge-base with refs/remotes/origin/main`,
    );
  }));

test('pushing a branch that is not checked out: its commit is tested, not the checkout', () =>
  ladder((repo) => {
    repo.gitOk('checkout', '-q', '-b', 'elsewhere');
    repo.write('src/value.txt', 'bug\n');
    const bad = repo.commit('a bug on a branch');
    repo.gitOk('checkout', '-q', 'main');
    assert.is(repo.read('src/value.txt'), 'good\n');
    const r = repo.push(['origin', 'elsewhere']);
    assert.is.not(r.code, 0);
    assert.match(r.out, 'temporary worktree');
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [['refs/heads/elsewhere', 't1-properties', 'caught']]);
    assert.is(rows[0]!.patch, bad);
    assert.is(rows[0]!.isolation, 'worktree');
    assert.is(userWorktrees(repo).length, 1, "no worktree but the pool's");
    assert.equal(poolLocks(repo), [], 'the slot is given back');
  }));

test('paths with spaces, quotes, tabs, newlines and non-ASCII characters are recorded and routed exactly', () =>
  ladder((repo) => {
    const plain = ['src/dir with space/a "quoted" b.txt', 'src/new\nline.txt', 'src/tab\there.txt', 'src/ünïcødé/ファイル.txt'];
    for (const p of plain) repo.write(p, 'x\n');
    repo.commit('odd paths');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [
      ['refs/heads/main', 't1-properties', 'pass'],
      ['refs/heads/main', 't2-fixtures', 'pass'],
    ]);
    assert.equal([...(rows[0]!.files as string[])].sort(), [...plain].sort());

    const adjacent = 'tests/odd\nnäme "x".txt';
    repo.write(adjacent, 'y\n');
    repo.commit('an odd test-adjacent path');
    const t = repo.push();
    assert.is(t.code, 0, t.out);
    const more = repo.ledger().slice(2);
    assert.equal(verdicts(more), [['refs/heads/main', 't2-fixtures', 'pass']]);
    assert.equal(more[0]!.files, [adjacent]);
    assert.equal(more[0]!.skipped, ['t1-properties']);
  }));

test('a rename out of tests/ is still a test-adjacent change: both paths count', () =>
  ladder((repo) => {
    repo.gitOk('mv', 'tests/fixture.txt', 'src/fixture.txt');
    repo.commit('move a fixture out of tests/');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 't0-scope skips t1-properties: test-adjacent: tests/fixture.txt matches **/tests/**');
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [['refs/heads/main', 't2-fixtures', 'pass']]);
    assert.equal([...(rows[0]!.files as string[])].sort(), ['src/fixture.txt', 'tests/fixture.txt'], 'the old path and the new one');
    assert.is(rows[0]!.routed, true);
  }));

test('a shallow clone whose base is missing: an error telling to fetch more history, never a silent pass', () =>
  ladder((repo) => {
    for (const n of [2, 3]) {
      repo.write('src/history.txt', `${n}\n`);
      repo.commit(`main ${n}`);
    }
    assert.is(repo.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    const shallow = repo.clone('shallow', ['--depth', '1']);
    assert.is(shallow.gitOk('rev-parse', '--is-shallow-repository'), 'true');
    // main moves on; the shallow clone fetches only its tip, so where topic left main is cut off.
    repo.write('src/history.txt', '4\n');
    repo.commit('main 4');
    assert.is(repo.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    shallow.gitOk('checkout', '-q', '-b', 'topic');
    shallow.write('src/topic.txt', 'topic\n');
    shallow.commit('topic work');
    shallow.gitOk('fetch', '-q', '--depth', '1', 'origin', 'main');
    const r = shallow.push(['origin', 'topic']);
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'cannot tell what refs/heads/topic changes');
    assert.match(r.out, 'git fetch --deepen=100');
    assert.match(r.out, 'git fetch --unshallow');
    assert.match(r.out, 'This says nothing about the patch');
    assert.equal(shallow.ledger(), [], 'no row: no gate ran');
    assert.is(onRemote(repo, 'topic'), '');

    shallow.gitOk('fetch', '-q', '--unshallow');
    const ok = shallow.push(['origin', 'topic']);
    assert.is(ok.code, 0, ok.out);
    const rows = shallow.ledger();
    assert.equal(verdicts(rows), [
      ['refs/heads/topic', 't1-properties', 'pass'],
      ['refs/heads/topic', 't2-fixtures', 'pass'],
    ]);
    assert.equal(rows[0]!.files, ['src/topic.txt']);
  }));

test('a ref moved back (a forced push to an ancestor): nothing new to test, no rows, allowed', () =>
  ladder((repo) => {
    const first = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/other.txt', 'more\n');
    repo.commit('more');
    assert.is(repo.push(['-q', 'origin', 'main'], BYPASS).code, 0);
    repo.gitOk('reset', '-q', '--hard', first);
    const r = repo.push(['-f', 'origin', 'main']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'refs/heads/main: the remote already has this commit (the ref moves back)');
    assert.equal(repo.ledger(), []);
    assert.is(onRemote(repo, 'main'), first);
  }));

test('a tag of a tree: nothing to test, no rows, allowed', () =>
  ladder((repo) => {
    const tree = repo.gitOk('rev-parse', 'HEAD^{tree}');
    repo.gitOk('tag', 'tree-tag', tree);
    const r = repo.push(['origin', 'refs/tags/tree-tag']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 'refs/tags/tree-tag: does not point at a commit: nothing to test');
    assert.equal(repo.ledger(), []);
  }));

test('a new branch with a configured `base`: judged from its merge-base with that base', () =>
  withRepo(
    {
      files: {
        ...LADDER_FILES,
        'gate-ladder.config.ts': LADDER_FILES['gate-ladder.config.ts']!.replace(
          'export default {',
          "export default {\n  base: 'origin/develop',",
        ),
      },
    },
    (repo) => {
      repo.gitOk('checkout', '-q', '-b', 'develop');
      repo.write('src/develop.txt', 'develop\n');
      const develop = repo.commit('develop moves on');
      assert.is(repo.push(['-q', 'origin', 'develop'], BYPASS).code, 0);
      repo.gitOk('checkout', '-q', '-b', 'feature');
      repo.write('src/value.txt', 'bug\n');
      const head = repo.commit('feature with a bug');
      const r = repo.push(['origin', 'feature']);
      assert.is.not(r.code, 0, r.out);
      const rows = repo.ledger();
      assert.equal(verdicts(rows), [['refs/heads/feature', 't1-properties', 'caught']]);
      assert.is(rows[0]!.patch, head);
      assert.is(rows[0]!.base, develop, 'the base is where the branch left origin/develop, not main');
      assert.equal(rows[0]!.files, ['src/value.txt']);
    },
  ));

test('a new branch without origin/HEAD: judged from where the push meets commits the remote has', () =>
  ladder((repo) => {
    repo.git('remote', 'set-head', 'origin', '-d');
    assert.is(repo.git('rev-parse', '--verify', '-q', 'refs/remotes/origin/HEAD').stdout.trim(), '');
    const fork = repo.gitOk('rev-parse', 'HEAD');
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('one');
    repo.write('src/more.txt', 'more\n');
    const head = repo.commit('two');
    const r = repo.push(['origin', 'feature']);
    assert.is.not(r.code, 0, r.out);
    const rows = repo.ledger();
    assert.equal(verdicts(rows), [['refs/heads/feature', 't1-properties', 'caught']]);
    assert.is(rows[0]!.patch, head);
    assert.is(rows[0]!.base, fork);
    assert.equal(rows[0]!.files, ['src/more.txt', 'src/value.txt']);
    assert.match(String(rows[0]!.reason), `base is ${fork.slice(0, 12)}, where this push meets commits the remote has`);
  }));

test.run();
