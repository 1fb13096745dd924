/**
 * Issue 43: adopting gate-ladder keeps the hooks the project had. Each test builds a real project shape
 * (husky 4 with lint-staged, simple-git-hooks, lefthook, a hand-written pre-push reading its refs),
 * installs the packed CLI, commits and pushes through git's real hooks, and checks the project's own
 * hooks still run after install and again after uninstall, with git's hooks folder and .husky/ given
 * back byte for byte, modes too.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, installedModules, linkGateLadderAlone, sh, withRepo } from '../helpers/repo.js';

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ name: 'host', version: '1.0.0', private: true, scripts, ...extra }, null, 2)}\n`;

/** Every file of a folder (recursively), with its text and mode: what "byte for byte, modes too" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else out[path] = `${(statSync(join(dir, path)).mode & 0o777).toString(8)} ${readFileSync(join(dir, path), 'latin1')}`;
    }
  };
  walk('');
  return out;
}

/** A hook file in git's own folder, executable, as a hook manager writes it. */
function gitHook(repo: Repo, name: string, text: string, mode = 0o755): void {
  const file = join(repo.dir, '.git', 'hooks', name);
  writeFileSync(file, text);
  chmodSync(file, mode);
}

/** A commit of `file` with `text`: the result, for its exit code and output. */
function commitFile(repo: Repo, file: string, text: string, message: string) {
  repo.write(file, text);
  repo.gitOk('add', file);
  return repo.git('commit', '-m', message);
}

/** lint-staged's task: fails on a staged .txt file saying "bad", and says it looked. */
const LINT = `const fs = require('fs');
for (const f of process.argv.slice(2)) {
  if (fs.readFileSync(f, 'utf8').includes('bad')) { console.error('lint.cjs: ' + require('path').basename(f) + ' is bad'); process.exit(1); }
}
console.log('lint.cjs checked ' + (process.argv.length - 2) + ' file(s)');
`;

test("husky 4 + lint-staged: install carries package.json's husky hooks into .husky/ (lint-staged blocks a bad commit), says so, and does not list husky 4's files as stopped; uninstall gives back git's hooks and package.json exactly", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg(
          { test: 'node -e 0' },
          {
            husky: { hooks: { 'pre-commit': 'lint-staged', 'commit-msg': 'node check-msg.cjs "$HUSKY_GIT_PARAMS"' } },
            'lint-staged': { '*.txt': 'node lint.cjs' },
          },
        ),
        'lint.cjs': LINT,
        'check-msg.cjs':
          "const m = require('fs').readFileSync(process.argv[2], 'utf8');\nif (!/^\\w+: /.test(m)) { console.error('check-msg: say what it is, as \"kind: what\"'); process.exit(1); }\n",
      },
    },
    (repo) => {
      // What husky 4 leaves in .git/hooks: a file per hook it knows, each sourcing its husky.sh (a stand-in here:
      // husky 4's runner is not installed; it says it ran so the test sees git run it again after uninstall).
      const husky4 = `#!/bin/sh\n# husky\n\n# Created by Husky v4.3.8\n\n. "$(dirname "$0")/husky.sh"\n`;
      for (const name of ['pre-commit', 'commit-msg', 'pre-push', 'post-merge']) gitHook(repo, name, husky4);
      gitHook(repo, 'husky.sh', 'echo "husky 4 runner: $(basename "$0")"\n', 0o644);
      const gitHooksBefore = snapshot(join(repo.dir, '.git', 'hooks'));
      const pkgBefore = repo.read('package.json');

      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, "this project's hooks come from husky 4");
      assert.match(r.stdout, '.husky/pre-commit runs husky 4\'s pre-commit command, copied from package.json "husky".hooks, first');
      assert.match(r.stdout, ".husky/commit-msg runs husky 4's commit-msg command");
      assert.not.match(r.stdout, 'no longer run', `husky 4's own files are not listed as stopped: their config was carried\n${r.stdout}`);
      assert.match(repo.read('.husky/pre-commit'), '\nlint-staged\n');

      // lint-staged runs on commit, through the carried hook: a bad file is refused, a good one goes in.
      const bad = commitFile(repo, 'notes.txt', 'bad\n', 'docs: notes');
      assert.is.not(bad.code, 0, bad.out);
      assert.match(bad.out, 'lint.cjs: notes.txt is bad', bad.out);
      const good = commitFile(repo, 'notes.txt', 'fine\n', 'docs: notes');
      assert.is(good.code, 0, good.out);
      assert.match(good.out, '[COMPLETED] node lint.cjs', 'lint-staged ran the task and it passed');
      // commit-msg gets the message file as HUSKY_GIT_PARAMS, as husky 4 gave it.
      const msg = commitFile(repo, 'more.txt', 'fine\n', 'no kind given');
      assert.is.not(msg.code, 0, msg.out);
      assert.match(msg.out, 'check-msg: say what it is');
      repo.gitOk('reset', '-q', 'HEAD');
      rmOk(repo, 'more.txt');

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.git', 'hooks')), gitHooksBefore, "git's hooks folder as it was, modes too");
      assert.is(repo.read('package.json'), pkgBefore);
      assert.not.ok(existsSync(join(repo.dir, '.husky')), '.husky/ was made by install: gone');
      assert.is(repo.git('config', 'core.hooksPath').code, 1, 'core.hooksPath unset, as before');
      // git runs husky 4's files again.
      const after = commitFile(repo, 'after.txt', 'bad\n', 'docs: after');
      assert.is(after.code, 0, after.out);
      assert.match(after.out, 'husky 4 runner: pre-commit');
    },
  ));

function rmOk(repo: Repo, file: string): void {
  sh('rm', ['-f', file], repo.dir);
}

test("simple-git-hooks: its config's commands are carried into .husky/ (its pre-commit still refuses a bad commit); a hook husky has no wrapper for is named; uninstall leaves .git/hooks as it was and they run again", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg(
          { test: 'node -e 0' },
          { 'simple-git-hooks': { 'pre-commit': 'node lint.cjs notes.txt', 'post-update': 'echo updated' } },
        ),
        'lint.cjs': LINT,
      },
    },
    (repo) => {
      // What `simple-git-hooks` writes for each hook of its config: the command under a skip check.
      const simple = (cmd: string) => `#!/bin/sh\n[ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ] && echo "skipping" && exit 0\n\n${cmd}\n`;
      gitHook(repo, 'pre-commit', simple('node lint.cjs notes.txt'));
      gitHook(repo, 'post-update', simple('echo updated'));
      const gitHooksBefore = snapshot(join(repo.dir, '.git', 'hooks'));

      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, "this project's hooks come from simple-git-hooks");
      assert.match(
        r.stdout,
        '.husky/pre-commit runs simple-git-hooks\'s pre-commit command, copied from package.json "simple-git-hooks", first',
      );
      assert.match(r.stdout, "simple-git-hooks's post-update hook was not carried over: husky runs no post-update hook");

      const bad = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(bad.code, 0, bad.out);
      assert.match(bad.out, 'lint.cjs: notes.txt is bad', bad.out);
      const good = commitFile(repo, 'notes.txt', 'fine\n', 'notes');
      assert.is(good.code, 0, good.out);
      assert.match(good.out, 'lint.cjs checked 1 file(s)');

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.git', 'hooks')), gitHooksBefore);
      assert.is(repo.git('config', 'core.hooksPath').code, 1);
      const after = commitFile(repo, 'notes.txt', 'bad again\n', 'notes');
      assert.is.not(after.code, 0, "the hook runs from git's folder again");
      assert.match(after.out, 'lint.cjs: notes.txt is bad');
    },
  ));

const NO_BAD_CONFIG =
  "export default { tiers: [{ name: 't1-no-bad', run: 'if grep -q bad notes.txt 2>/dev/null; then echo notes.txt is bad; exit 1; fi' }] };\n";

/**
 * A real simple-git-hooks 2.14 in the repo's node_modules, with husky and the packed gate-ladder beside it,
 * as `npm i -D simple-git-hooks` leaves them (bins in node_modules/.bin).
 */
function withSimpleGitHooks(repo: Repo): void {
  const modules = join(repo.dir, 'node_modules');
  rmOk(repo, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync(join(installedModules(), 'gate-ladder'), join(modules, 'gate-ladder'), 'dir');
  symlinkSync(realpathSync(join(installedModules(), 'husky')), join(modules, 'husky'), 'dir');
  symlinkSync(realpathSync(join(PROJECT, 'node_modules', 'simple-git-hooks')), join(modules, 'simple-git-hooks'), 'dir');
  symlinkSync('../husky/bin.js', join(modules, '.bin', 'husky'));
  symlinkSync('../simple-git-hooks/cli.js', join(modules, '.bin', 'simple-git-hooks'));
}

test('simple-git-hooks 2.14 run by "prepare": install carries its config into .husky/ and takes it out of "prepare", so a later `npm run prepare` leaves gate-ladder on (a bad push is blocked) and its hooks still run; uninstall gives package.json back', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg(
          { test: 'node -e 0', prepare: 'simple-git-hooks' },
          {
            devDependencies: { 'simple-git-hooks': '2.14.0' },
            'simple-git-hooks': { 'pre-commit': 'node lint.cjs notes.txt', 'pre-push': 'echo "simple-git-hooks pre-push ran"' },
          },
        ),
        'gate-ladder.config.mjs':
          "export default { tiers: [{ name: 't1-no-bad', run: 'if grep -q bad notes.txt; then echo notes.txt is bad; exit 1; fi' }] };\n",
        'lint.cjs': LINT,
        'notes.txt': 'fine\n',
      },
    },
    (repo) => {
      withSimpleGitHooks(repo);
      // The project as its clones have it: simple-git-hooks' own hooks in .git/hooks, from its "prepare".
      const first = sh('npm', ['run', 'prepare'], repo.dir);
      assert.is(first.code, 0, first.out);
      assert.match(readFileSync(join(repo.dir, '.git', 'hooks', 'pre-commit'), 'utf8'), 'SKIP_SIMPLE_GIT_HOOKS');
      const gitHooksBefore = snapshot(join(repo.dir, '.git', 'hooks'));
      const pkgBefore = repo.read('package.json');

      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, "this project's hooks come from simple-git-hooks");
      assert.match(r.stdout, 'simple-git-hooks\'s pre-commit command, copied from package.json "simple-git-hooks"');
      assert.match(r.stdout, "simple-git-hooks writes its hooks into git's hooks folder, which is husky's now");
      assert.is(JSON.parse(repo.read('package.json')).scripts.prepare, 'husky || true', 'simple-git-hooks no longer runs from "prepare"');
      repo.commit('adopt gate-ladder');
      assert.is(repo.push(['origin', 'main']).code, 0);

      // What a later `npm install` runs: the project's "prepare". gate-ladder's pre-push must survive it.
      const again = sh('npm', ['run', 'prepare'], repo.dir);
      assert.is(again.code, 0, again.out);
      const badCommit = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(badCommit.code, 0, "simple-git-hooks' pre-commit still runs");
      assert.match(badCommit.out, 'lint.cjs: notes.txt is bad');
      repo.write('notes.txt', 'a bad note\n');
      repo.gitOk('add', 'notes.txt');
      repo.gitOk('commit', '-q', '--no-verify', '-m', 'bad');
      const pushed = repo.push(['origin', 'main']);
      assert.is.not(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 't1-no-bad caught a problem');
      assert.match(pushed.out, 'simple-git-hooks pre-push ran');

      repo.gitOk('reset', '-q', '--hard', 'HEAD~1');
      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.is(repo.read('package.json'), pkgBefore);
      assert.equal(snapshot(join(repo.dir, '.git', 'hooks')), gitHooksBefore);
    },
  ));

test('simple-git-hooks with a JavaScript config (which install does not run): "prepare" runs husky after it, so a later `npm run prepare` leaves gate-ladder on; its hooks in .git/hooks are called from .husky/ and still run', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg({ test: 'node -e 0', prepare: 'simple-git-hooks' }, { devDependencies: { 'simple-git-hooks': '2.14.0' } }),
        '.simple-git-hooks.cjs': "module.exports = { 'pre-commit': 'node lint.cjs notes.txt' };\n",
        'gate-ladder.config.mjs': NO_BAD_CONFIG,
        'lint.cjs': LINT,
        'notes.txt': 'fine\n',
      },
    },
    (repo) => {
      withSimpleGitHooks(repo);
      const first = sh('npm', ['run', 'prepare'], repo.dir);
      assert.is(first.code, 0, first.out);
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, ".husky/pre-commit runs .git/hooks/pre-commit (simple-git-hooks's) first");
      assert.match(r.stdout, 'so husky runs after it and puts its own hooks back');
      assert.is(JSON.parse(repo.read('package.json')).scripts.prepare, 'simple-git-hooks && (husky || true)');
      repo.commit('adopt gate-ladder');

      const again = sh('npm', ['run', 'prepare'], repo.dir);
      assert.is(again.code, 0, again.out);
      const badCommit = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(badCommit.code, 0, "simple-git-hooks' pre-commit still runs");
      assert.match(badCommit.out, 'lint.cjs: notes.txt is bad');
      repo.gitOk('commit', '-q', '--no-verify', '-m', 'bad');
      const pushed = repo.push(['origin', 'main']);
      assert.is.not(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 't1-no-bad caught a problem');
    },
  ));

test("lefthook (its own `lefthook install`): pre-commit and pre-push keep running after install, the push is judged too and lefthook's pre-push sees the refs; after uninstall lefthook runs as before", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg({ test: 'node -e 0' }),
        'lefthook.yml': [
          'pre-commit:',
          '  commands:',
          '    lint:',
          '      run: node lint.cjs {staged_files}',
          'pre-push:',
          '  commands:',
          '    refs:',
          '      use_stdin: true',
          '      run: cat > ../lefthook-pre-push.txt',
          '',
        ].join('\n'),
        'lint.cjs': LINT,
      },
    },
    (repo) => {
      const lefthook = join(PROJECT, 'node_modules', '.bin', 'lefthook');
      const li = sh(lefthook, ['install'], repo.dir);
      assert.is(li.code, 0, li.out);
      const gitHooksBefore = snapshot(join(repo.dir, '.git', 'hooks'));
      repo.commit('initial');

      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, "this project's hooks come from lefthook");
      assert.match(r.stdout, ".husky/pre-push runs .git/hooks/pre-push (lefthook's) first");
      assert.not.match(r.stdout, 'no longer run');

      const bad = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(bad.code, 0, bad.out);
      assert.match(bad.out, 'lint.cjs: notes.txt is bad', bad.out);
      const good = commitFile(repo, 'notes.txt', 'fine\n', 'notes');
      assert.is(good.code, 0, good.out);
      repo.commit('adopt gate-ladder');

      const pushed = repo.push(['origin', 'main']);
      assert.is(pushed.code, 0, pushed.out);
      const head = repo.gitOk('rev-parse', 'HEAD');
      assert.match(readFileSync(join(repo.dir, '..', 'lefthook-pre-push.txt'), 'utf8'), `refs/heads/main ${head} refs/heads/main`);
      assert.ok(repo.ledger().length > 0, 'gate-ladder read the same refs and judged the push');

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.git', 'hooks')), gitHooksBefore);
      const after = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(after.code, 0, "lefthook runs from git's folder again");
      assert.match(after.out, 'lint.cjs: notes.txt is bad');
    },
  ));

test("the pre-commit framework's config in a clone where `pre-commit install` never ran: install says there was nothing to carry, not an empty list", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg({ test: 'node -e 0' }),
        '.pre-commit-config.yaml': 'repos: []\n',
      },
    },
    (repo) => {
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(
        r.stdout,
        "this project's config names pre-commit for its hooks, but this clone has none of its hooks installed, so there was none to carry over",
      );
      assert.not.match(r.stdout, 'is carried over into .husky/<hook>:');
    },
  ));

test('a hand-written pre-push in .git/hooks reading its refs on stdin: after install it and gate-ladder both read them; an existing .husky/pre-push is kept and given back byte for byte', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: { 'package.json': pkg({ test: 'node -e 0' }), '.husky/pre-push': 'echo "husky pre-push of the project"' },
    },
    (repo) => {
      gitHook(repo, 'pre-push', '#!/bin/sh\nwhile read -r lref lsha rref rsha; do echo "own pre-push saw $rref" >> ../own.log; done\n');
      const huskyBefore = snapshot(join(repo.dir, '.husky'));
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, '.husky/pre-push runs .git/hooks/pre-push (your own) first');
      repo.commit('adopt');
      const pushed = repo.push(['origin', 'main']);
      assert.is(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 'husky pre-push of the project');
      assert.is(readFileSync(join(repo.dir, '..', 'own.log'), 'utf8'), 'own pre-push saw refs/heads/main\n');
      assert.ok(repo.ledger().length > 0, 'gate-ladder judged the push');
      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.husky')), huskyBefore, '.husky/ as before, byte for byte');
    },
  ));

test("husky 9's own .husky/pre-push that reads the refs on stdin and ends in `exit 0`: gate-ladder's line goes first, a bad push is blocked and the hook's loop still sees the refs; uninstall gives .husky/ back byte for byte", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg({ test: 'node -e 0' }),
        'gate-ladder.config.mjs':
          "export default { tiers: [{ name: 't1-no-bad', run: 'if grep -q bad notes.txt 2>/dev/null; then echo notes.txt is bad; exit 1; fi' }] };\n",
        '.husky/pre-push':
          'while read -r lref lsha rref rsha; do echo "own pre-push saw $rref" >> ../own.log; done\necho "own checks ok"\nexit 0\n',
      },
    },
    (repo) => {
      const huskyBefore = snapshot(join(repo.dir, '.husky'));
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, ".husky/pre-push has lines of its own: gate-ladder's line goes before them");
      repo.commit('adopt');
      assert.is(repo.push(['origin', 'main']).code, 0);
      repo.write('notes.txt', 'a bad note\n');
      repo.commit('bad');
      const pushed = repo.push(['origin', 'main']);
      assert.is.not(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 't1-no-bad caught a problem');
      repo.write('notes.txt', 'a good note\n');
      repo.commit('good');
      const again = repo.push(['origin', 'main']);
      assert.is(again.code, 0, again.out);
      assert.match(again.out, 'own checks ok');
      // The adopt push and the good one reached the hook's own loop with their refs (the blocked one stopped before it).
      assert.is(
        readFileSync(join(repo.dir, '..', 'own.log'), 'utf8'),
        'own pre-push saw refs/heads/main\nown pre-push saw refs/heads/main\n',
      );
      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.husky')), huskyBefore, '.husky/ as before, byte for byte');
    },
  ));

/** A hook that refuses a staged notes.txt saying "bad", and a pre-push that logs each ref it reads on stdin to `log`. */
const REFUSE_BAD =
  '#!/bin/sh\nif git show :notes.txt 2>/dev/null | grep -q bad; then echo "own pre-commit: notes.txt is bad" >&2; exit 1; fi\n';
const logRefs = (log: string, who: string) =>
  `#!/bin/sh\nwhile read -r lref lsha rref rsha; do echo "${who} saw $rref" >> '${log}'; done\n`;

test('install --force over core.hooksPath=.githooks: its hooks are carried into .husky/ (its pre-commit still refuses a bad commit, its pre-push still reads the refs) and said, a bad push is blocked; uninstall puts core.hooksPath back', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: { 'package.json': pkg({ test: 'node -e 0' }), 'gate-ladder.config.mjs': NO_BAD_CONFIG },
    },
    (repo) => {
      const log = join(repo.dir, '..', 'githooks.log');
      repo.write('.githooks/pre-commit', REFUSE_BAD);
      repo.write('.githooks/pre-push', logRefs(log, '.githooks/pre-push'));
      repo.write('.githooks/post-update', '#!/bin/sh\necho updated\n');
      for (const h of ['pre-commit', 'pre-push', 'post-update']) chmodSync(join(repo.dir, '.githooks', h), 0o755);
      repo.gitOk('config', 'core.hooksPath', '.githooks');
      const refused = repo.cli(['install']);
      assert.is(refused.code, 2, refused.out);

      const r = repo.cli(['install', '--force']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, '.husky/pre-commit runs .githooks/pre-commit (your own) first');
      assert.match(r.stdout, '.husky/pre-push runs .githooks/pre-push (your own) first');
      assert.match(r.stdout, 'this hook in .githooks no longer runs: post-update');
      repo.commit('adopt gate-ladder');

      const bad = commitFile(repo, 'notes.txt', 'bad\n', 'notes');
      assert.is.not(bad.code, 0, bad.out);
      assert.match(bad.out, 'own pre-commit: notes.txt is bad');
      repo.gitOk('commit', '-q', '--no-verify', '-m', 'bad');
      const pushed = repo.push(['origin', 'main']);
      assert.is.not(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 't1-no-bad caught a problem');
      assert.is(readFileSync(log, 'utf8'), '.githooks/pre-push saw refs/heads/main\n', 'its pre-push read the refs, before gate-ladder');

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.is(repo.gitOk('config', 'core.hooksPath'), '.githooks');
    },
  ));

test("a global core.hooksPath: install refuses, and its advice keeps the global folder as it is (gate-ladder's line there would stop every other repository's push); `install --force` sets core.hooksPath for this repository only, its global hooks still run here, a bad push is blocked, and another repository pushes through the global hooks as before", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: { 'package.json': pkg({ test: 'node -e 0' }), 'gate-ladder.config.mjs': NO_BAD_CONFIG },
    },
    (repo) => {
      const base = join(repo.dir, '..');
      const globalHooks = join(base, 'global hooks');
      const log = join(base, 'global.log');
      mkdirSync(globalHooks);
      writeFileSync(join(globalHooks, 'pre-push'), logRefs(log, 'global pre-push'));
      chmodSync(join(globalHooks, 'pre-push'), 0o755);
      const globalBefore = snapshot(globalHooks);
      const gitconfig = join(base, 'gitconfig');
      writeFileSync(gitconfig, `[core]\n\thooksPath = ${globalHooks}\n`);
      const env = { GIT_CONFIG_GLOBAL: gitconfig };

      const refused = repo.cli(['install'], { env });
      assert.is(refused.code, 2, refused.out);
      assert.match(refused.out, 'set for every repository');
      assert.not.match(refused.out, 'pre-push hook (', 'no advice to edit the global folder');
      assert.match(refused.out, 'npx gate-ladder install --force');
      assert.match(refused.out, "sets core.hooksPath for this repository only (git takes a repository's own setting over the global one)");

      const r = repo.cli(['install', '--force'], { env });
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, `.husky/pre-push runs ${globalHooks}/pre-push (your own) first`);
      assert.is(sh('git', ['config', '--local', 'core.hooksPath'], repo.dir, { env }).stdout.trim(), '.husky/_');
      repo.commit('adopt gate-ladder');
      repo.write('notes.txt', 'a bad note\n');
      repo.commit('bad');
      const pushed = repo.push(['origin', 'main'], env);
      assert.is.not(pushed.code, 0, pushed.out);
      assert.match(pushed.out, 't1-no-bad caught a problem');
      assert.is(readFileSync(log, 'utf8'), 'global pre-push saw refs/heads/main\n', 'the global pre-push still runs here');
      assert.equal(snapshot(globalHooks), globalBefore, 'the global folder untouched');

      // Another repository on the machine, without gate-ladder: its pushes go through the global hooks as before.
      const other = join(base, 'other');
      const otherRemote = join(base, 'other.git');
      assert.is(sh('git', ['init', '-q', '--bare', otherRemote], base, { env }).code, 0);
      assert.is(sh('git', ['init', '-q', '-b', 'main', other], base, { env }).code, 0);
      sh('git', ['commit', '-q', '--allow-empty', '-m', 'x'], other, { env });
      const otherPush = sh('git', ['push', '-q', otherRemote, 'main'], other, { env });
      assert.is(otherPush.code, 0, otherPush.out);
      assert.is(readFileSync(log, 'utf8'), 'global pre-push saw refs/heads/main\nglobal pre-push saw refs/heads/main\n');

      const u = repo.cli(['uninstall'], { env });
      assert.is(u.code, 0, u.out);
      assert.is(sh('git', ['config', '--local', 'core.hooksPath'], repo.dir, { env }).code, 1, 'unset here: the global one again');
    },
  ));

test('run --dry-run right after install says it judged commits only and that the uncommitted install is not in it; once committed it says nothing of it', () =>
  withRepo({ install: false, files: { 'package.json': pkg({ test: 'node -e 0' }) } }, (repo) => {
    const i = repo.cli(['install']);
    assert.is(i.code, 0, i.out);
    const dry = repo.cli(['run', '--dry-run']);
    assert.is(dry.code, 0, dry.out);
    // package.json ("prepare"), gate-ladder.config.ts and .husky/pre-push.
    assert.match(
      dry.stdout,
      'gate-ladder: --dry-run judged commits only; 3 paths have uncommitted changes (`git status` lists them), which are not in it: commit them, then run it again',
    );
    const json = repo.cli(['run', '--dry-run', '--json']);
    assert.is(json.code, 0, json.out);
    JSON.parse(json.stdout);
    repo.commit('adopt gate-ladder');
    const clean = repo.cli(['run', '--dry-run']);
    assert.is(clean.code, 0, clean.out);
    assert.not.match(clean.out, 'uncommitted');
  }));

test("install run from outside the project (the project's node_modules has no gate-ladder: a failed `npm i -D`, a global install) says the hook cannot run it and the step", () =>
  withRepo({ install: false, pushInitial: false, files: { 'package.json': pkg({ test: 'node -e 0' }) } }, (repo) => {
    sh('rm', ['-f', 'node_modules'], repo.dir);
    const r = sh(process.execPath, [join(PROJECT, 'dist', 'cli.mjs'), 'install'], repo.dir);
    assert.is(r.code, 0, r.out);
    assert.match(
      r.stdout,
      'gate-ladder: note: this gate-ladder runs from outside the project (a global install, or npx fetched it), and node_modules/gate-ladder/dist/cli.cjs is not there',
    );
    assert.match(r.stdout, 'Add it to the project: `npm i -D gate-ladder`, then `npx gate-ladder install`.');
    // From the project's own node_modules: not said.
    symlinkSync(installedModules(), join(repo.dir, 'node_modules'), 'dir');
    const again = repo.cli(['install']);
    assert.is(again.code, 0, again.out);
    assert.not.match(again.out, 'outside the project');
  }));

test('a pnpm workspace with biome: the starter gates on biome\'s check, not its `--write --unsafe` lint script, gives each vitest workspace a related-tests tier, leaves "prepare" alone (no husky of its own); the project\'s biome pre-commit hook runs after install and after uninstall', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'package.json': pkg({ test: 'pnpm -r test', lint: 'biome lint --write --unsafe' }, { packageManager: 'pnpm@9.15.9' }),
        'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'biome.json': '{}\n',
        'packages/core/package.json': pkg({ test: 'vitest run' }, { name: '@acme/core' }),
        'packages/core/src/sum.js': 'export const sum = (a, b) => a + b;\n',
        'packages/docs/package.json': pkg({ build: 'node -e 0' }, { name: 'docs' }),
      },
    },
    (repo) => {
      // pnpm's layout: node_modules holds the project's own dependencies (gate-ladder), no husky.
      linkGateLadderAlone(repo);
      const biome = realpathSync(join(PROJECT, 'node_modules', '.bin', 'biome'));
      gitHook(repo, 'pre-commit', `#!/bin/sh\nexec '${biome}' lint packages\n`);
      const gitHooksBefore = snapshot(join(repo.dir, '.git', 'hooks'));
      const pkgBefore = repo.read('package.json');

      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, '.husky/pre-commit runs .git/hooks/pre-commit (your own) first');
      assert.match(r.stdout, 'package.json: "prepare" left as it is: node_modules/.bin has no husky');
      assert.is(repo.read('package.json'), pkgBefore, 'no "prepare" that would fail on `pnpm install`');
      const config = repo.read('gate-ladder.config.ts');
      assert.match(config, "{ name: 't1-lint', run: 'pnpm exec biome lint', timeout: 300 },");
      assert.not.match(config, /run: '[^']*--write/, 'no tier runs a command that writes');
      assert.match(config, 'package.json "lint" writes files');
      assert.match(config, "{ name: 't1-related-core', run: 'pnpm exec vitest related --run {changed:");
      assert.match(config, "cwd: 'packages/core'");
      assert.not.match(config, 't1-related-docs');

      const bad = commitFile(repo, 'packages/core/src/debug.js', 'debugger;\n', 'debug');
      assert.is.not(bad.code, 0, bad.out);
      assert.match(bad.out, 'noDebugger');
      rmOk(repo, 'packages/core/src/debug.js');
      repo.gitOk('rm', '-q', '--cached', 'packages/core/src/debug.js');
      const good = commitFile(repo, 'packages/core/src/two.js', 'export const two = 2;\n', 'two');
      assert.is(good.code, 0, good.out);

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.equal(snapshot(join(repo.dir, '.git', 'hooks')), gitHooksBefore);
      assert.is(repo.read('package.json'), pkgBefore);
      const after = commitFile(repo, 'packages/core/src/debug.js', 'debugger;\n', 'debug');
      assert.is.not(after.code, 0, "biome's hook runs from git's folder again");
      assert.match(after.out, 'noDebugger');
    },
  ));

test.run();
