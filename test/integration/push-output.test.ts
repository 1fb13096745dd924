/**
 * What a push says and the switches it takes, through real pushes: the blocked block and its colours,
 * `output: 'failures'`, GATE_LADDER_SKIP and GATE_LADDER_NO_CACHE, --dry-run on stdout, empty changes,
 * the default scope on a push, and the pre-commit path's wording.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, LADDER_CONFIG, LADDER_FILES, type Repo, sh, withRepo } from '../helpers/repo.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T, files: Record<string, string> = {}) =>
  withRepo({ files: { ...LADDER_FILES, ...files } }, fn);
const ESC = '\u001b[';

test('a blocked push ends with a short block of its own: what stopped it, the next step, the bypass; each tier has its start and verdict lines', () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    const r = repo.push();
    assert.is.not(r.code, 0);
    const lines = r.stderr.split('\n');
    const verdict = 'gate-ladder: push blocked: t1-properties caught a problem in refs/heads/main (exit 1: the check failed).';
    // The verdict first, the gate's output (one screen of it), the log's path, then the block, last.
    const first = lines.indexOf(verdict);
    const at = lines.lastIndexOf(verdict);
    assert.ok(first > 0 && at > first, r.stderr);
    assert.is(lines[first + 1], '  properties: assertion failed: value is buggy');
    assert.match(
      lines[first + 2]!,
      /^gate-ladder: the whole output of t1-properties \(1 line\) is also in \S+\/\.git\/gate-ladder\/logs\/\S+-t1-properties\.log\.$/,
    );
    assert.is(lines[at - 1], '', 'a blank line sets it apart from the runner output');
    assert.is(lines[at + 1], '  The patch is wrong: fix it, commit, and push again.');
    assert.is(lines[at + 2], '  To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.');
    for (const l of lines.slice(at, at + 3)) assert.ok(l.length <= 120, `short line: ${l}`);
    assert.ok(lines.includes('gate-ladder: t1-properties running (timeout 30 s)'), r.stderr);
    assert.ok(
      lines.some((l) => /^gate-ladder: t1-properties caught in \d+\.\d s$/.test(l)),
      r.stderr,
    );
    assert.not.match(r.out, ESC, 'NO_COLOR: plain');
  }));

test('the block is red for a catch and yellow for an error with FORCE_COLOR (over NO_COLOR), on a terminal, and plain when stderr is not one', () =>
  ladder((repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    const forced = repo.push(['origin', 'HEAD'], { FORCE_COLOR: '1' });
    assert.match(forced.stderr, `${ESC}31mgate-ladder: push blocked: t1-properties caught a problem`);
    assert.match(forced.stderr, `${ESC}31m  The patch is wrong`);
    const plain = repo.push(['origin', 'HEAD'], { NO_COLOR: '' });
    assert.match(plain.stderr, 'gate-ladder: push blocked: t1-properties caught');
    assert.not.match(plain.stderr, ESC, 'not a terminal: plain');
    const off = repo.push(['origin', 'HEAD'], { FORCE_COLOR: '0', NO_COLOR: '' });
    assert.not.match(off.stderr, ESC, 'FORCE_COLOR=0: plain');
    // A real terminal (script(1) gives the push one): colour without being asked.
    const tty = sh('script', ['-qec', 'git push origin HEAD', '/dev/null'], repo.dir, { env: { NO_COLOR: '' } });
    assert.match(tty.out, `${ESC}31mgate-ladder: push blocked`);
    repo.write('src/value.txt', 'good\n');
    repo.write('harness.txt', '4\n');
    repo.commit('break the harness');
    const error = repo.push(['origin', 'HEAD'], { FORCE_COLOR: '1' });
    assert.match(error.stderr, `${ESC}33mgate-ladder: push blocked: t1-properties could not give a verdict`);
  }));

test("output: 'failures' hides a passing tier's output and shows a failing tier's", () =>
  ladder(
    (repo) => {
      repo.write('src/other.txt', 'fine\n');
      repo.commit('clean');
      const clean = repo.push();
      assert.is(clean.code, 0, clean.out);
      assert.match(clean.out, 'gate-ladder: t1-properties pass');
      assert.not.match(clean.out, 'properties: ok');
      assert.not.match(clean.out, 'fixtures: ok');
      repo.write('src/value.txt', 'bug\n');
      repo.commit('a bug');
      const bug = repo.push();
      assert.is.not(bug.code, 0);
      assert.match(bug.out, 'properties: assertion failed: value is buggy');
    },
    { 'gate-ladder.config.ts': LADDER_CONFIG.replace('tiers: [', "output: 'failures',\n  tiers: [") },
  ));

for (const output of ["'failures'", "'all'"]) {
  test(`a gate's output (output: ${output}, a command with no runner) keeps its colours and has every other control escaped: no title, no rewritten line`, () =>
    withRepo(
      {
        files: {
          'hostile.sh': "printf '\\033[31mred\\033[0m \\033]0;owned\\007 progress\\rgate-ladder: all tiers passed\\n'\nexit 1\n",
          'gate-ladder.config.ts': `export default { output: ${output}, tiers: [{ name: 't1', run: 'sh hostile.sh', timeout: 30 }] };\n`,
        },
      },
      (repo) => {
        repo.write('src/a.txt', 'a\n');
        repo.commit('a change');
        const r = repo.push();
        assert.is.not(r.code, 0, r.out);
        assert.match(r.stderr, '\u001b[31mred\u001b[0m \\x1b]0;owned\\x07 progress\\rgate-ladder: all tiers passed\n');
        assert.not.match(r.stderr, '\u001b]');
        assert.not.match(r.stderr, '\r');
      },
    ));
}

test('GATE_LADDER_SKIP keeps the named tiers from running for one push; the push says so, and the rows name them in skipped_by_env', () =>
  ladder((repo) => {
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    const r = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 't2-fixtures, nope' });
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, 'GATE_LADDER_SKIP: not running t2-fixtures for this run');
    assert.match(
      r.stderr,
      'GATE_LADDER_SKIP names "nope", which is not a tier of this config (tiers: t1-properties, t2-fixtures); ignored.',
    );
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.skipped_by_env, x.routed, x.skipped]),
      [['t1-properties', 'pass', ['t2-fixtures'], false, undefined]],
    );
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    const bug = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 't1-properties' });
    assert.is.not(bug.code, 0);
    assert.match(bug.stderr, 't2-fixtures caught a problem');
    assert.equal(
      repo
        .ledger()
        .slice(1)
        .map((x) => [x.tier, x.skipped_by_env]),
      [['t2-fixtures', ['t1-properties']]],
    );
  }));

test('GATE_LADDER_NO_CACHE runs the gates on a tree that already passed; a cached push names the variable, not a flag git cannot pass', () =>
  ladder((repo) => {
    // The remote turns the first two pushes away after the hook has passed.
    const hook = join(repo.remote, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      '#!/bin/sh\nn=$(cat refused 2>/dev/null || echo 0)\nif [ "$n" -lt 2 ]; then echo $((n + 1)) > refused; echo "remote busy"; exit 1; fi\n',
    );
    chmodSync(hook, 0o755);
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    assert.is.not(repo.push().code, 0);
    const cached = repo.push();
    assert.match(cached.stderr, 'no gate ran. `GATE_LADDER_NO_CACHE=1 git push` runs them anyway.');
    assert.not.match(cached.stderr, '--no-cache');
    const again = repo.push(['origin', 'HEAD'], { GATE_LADDER_NO_CACHE: '1' });
    assert.is(again.code, 0, again.out);
    assert.match(again.stderr, 'gate-ladder: t1-properties running');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.cached]),
      [
        ['t1-properties', undefined],
        ['t2-fixtures', undefined],
        ['t1-properties', true],
        ['t2-fixtures', true],
        ['t1-properties', undefined],
        ['t2-fixtures', undefined],
      ],
    );
  }));

test('--dry-run prints its answer on stdout', () =>
  ladder((repo) => {
    repo.write('tests/fixture.txt', 'fixture v2\n');
    repo.commit('a fixture');
    const r = repo.cli(['run', '--dry-run', '--base', 'HEAD~1']);
    assert.is(r.code, 0, r.out);
    assert.is(r.stderr, '');
    assert.match(r.stdout, 'skip t1-properties: test-adjacent: tests/fixture.txt matches **/tests/**');
    assert.match(r.stdout, 'run  t2-fixtures');
  }));

test('an empty change has nothing to judge: no tier runs and no row is written, unless the config says runOnEmpty', () =>
  ladder((repo) => {
    const manual = repo.cli(['run', '--base', 'HEAD', '--head', 'HEAD']);
    assert.is(manual.code, 0, manual.out);
    assert.match(manual.stderr, 'HEAD: the change is empty (no path differs from its base), so there is nothing to judge; no tier ran.');
    repo.gitOk('commit', '-q', '--allow-empty', '-m', 'nothing changed');
    const push = repo.push();
    assert.is(push.code, 0, push.out);
    assert.match(push.stderr, 'nothing to judge');
    assert.not.match(push.stderr, 'running');
    assert.equal(repo.ledger(), []);
    repo.write('gate-ladder.config.ts', LADDER_CONFIG.replace('tiers: [', 'runOnEmpty: true,\n  tiers: ['));
    const on = repo.cli(['run', '--base', 'HEAD', '--head', 'HEAD']);
    assert.is(on.code, 0, on.out);
    assert.equal(
      repo.ledger().map((x) => x.tier),
      ['t1-properties', 't2-fixtures'],
    );
  }));

test('the default scope on a real push: e2e_tests/ is test-adjacent, latest/ is not', () =>
  ladder((repo) => {
    repo.write('e2e_tests/login.txt', 'x\n');
    repo.commit('an e2e test');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, 't0-scope skips t1-properties: test-adjacent: e2e_tests/login.txt matches **/*_tests/**');
    repo.write('latest/notes.txt', 'x\n');
    repo.commit('latest notes');
    const n = repo.push();
    assert.is(n.code, 0, n.out);
    assert.not.match(n.stderr, 't0-scope skips');
    assert.equal(
      repo.ledger().map((x) => x.tier),
      ['t2-fixtures', 't1-properties', 't2-fixtures'],
    );
  }));

const LINT_FIRST = `export default {
  tiers: [
    { name: 'lint', lintStaged: true },
    { name: 't1-properties', run: 'sh check.sh properties', timeout: 30, hooks: ['pre-commit'] },
  ],
};
`;

/** Installs the pre-commit hook too and commits everything without running it. */
function withPreCommit(repo: Repo): void {
  const r = repo.cli(['install', '--pre-commit']);
  assert.is(r.code, 0, r.out);
  repo.gitOk('add', '-A');
  const c = sh('git', ['commit', '-q', '-m', 'pre-commit hook'], repo.dir, { env: { GATE_LADDER: '0' } });
  assert.is(c.code, 0, c.out);
}

test('the pre-commit path speaks of a commit: no "your working tree is not touched" before a lint-staged tier; lint-staged\'s own git error is quoted', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': LINT_FIRST,
        'check.sh': CHECK_SH,
        '.lintstagedrc.json': '{ "src/*.txt": "true" }\n',
        'src/value.txt': 'good\n',
        'src/other.txt': 'o\n',
      },
    },
    (repo) => {
      withPreCommit(repo);
      repo.write('src/value.txt', 'fixed\n');
      repo.gitOk('add', 'src/value.txt');
      repo.write('src/other.txt', 'unstaged\n');
      const ok = sh('git', ['commit', '-m', 'a fix'], repo.dir);
      assert.is(ok.code, 0, ok.out);
      assert.match(ok.stderr, 'lint-staged tiers run in your working tree');
      assert.not.match(ok.stderr, 'your working tree is not touched');

      // An intent-to-add file: lint-staged cannot make its backup. Its words, not "fix the tier".
      repo.write('src/value.txt', 'again\n');
      repo.gitOk('add', 'src/value.txt');
      repo.write('src/new.txt', 'n\n');
      repo.gitOk('add', '-N', 'src/new.txt');
      const r = sh('git', ['commit', '-m', 'with an intent-to-add file'], repo.dir);
      assert.is.not(r.code, 0, r.out);
      assert.match(
        r.stderr,
        'lint could not give a verdict on the staged changes: lint-staged stopped: it said "error: Entry \'src/new.txt\' not uptodate. Cannot merge."',
      );
      assert.match(r.stderr, 'Put the repository in order as lint-staged says above');
      assert.not.match(r.stderr, 'Fix the tier in');
      assert.match(r.stderr, 'To commit anyway: `git commit --no-verify`');
    },
  ));

test.run();
