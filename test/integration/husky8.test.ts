/**
 * Issue 33, point 5: a project on husky 8 (core.hooksPath `.husky`, hooks sourcing `.husky/_/husky.sh`).
 * install works within it, and after uninstall every hook of the project still runs: commits and pushes
 * before install, after install, and after uninstall.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, withRepo } from '../helpers/repo.js';

/** husky 8.0.3's .husky/_/husky.sh, as `husky install` copies it. */
const HUSKY8_SH = `#!/usr/bin/env sh
if [ -z "$husky_skip_init" ]; then
  debug () {
    if [ "$HUSKY_DEBUG" = "1" ]; then
      echo "husky (debug) - $1"
    fi
  }

  readonly hook_name="$(basename -- "$0")"
  debug "starting $hook_name..."

  if [ "$HUSKY" = "0" ]; then
    debug "HUSKY env variable is set to 0, skipping hook"
    exit 0
  fi

  if [ -f ~/.huskyrc ]; then
    debug "sourcing ~/.huskyrc"
    . ~/.huskyrc
  fi

  readonly husky_skip_init=1
  export husky_skip_init
  sh -e "$0" "$@"
  exitCode="$?"

  if [ $exitCode != 0 ]; then
    echo "husky - $hook_name hook exited with code $exitCode (error)"
  fi

  if [ $exitCode = 127 ]; then
    echo "husky - command not found in PATH=$PATH"
  fi

  exit $exitCode
fi
`;

/** A hook as husky 8's `husky add .husky/pre-commit "<cmd>"` writes it. */
const husky8Hook = (cmd: string) => `#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\n${cmd}\n`;

/** Writes a hook as `husky add` does (mode 0755). */
function addHook(repo: Repo, name: string, text: string): void {
  repo.write(`.husky/${name}`, text);
  chmodSync(join(repo.dir, '.husky', name), 0o755);
}

/** What `npm install` (prepare: husky install) leaves with husky 8: the git-ignored folder and the hooks path. */
function husky8Install(repo: Repo): void {
  addHook(repo, '_/husky.sh', HUSKY8_SH);
  repo.write('.husky/_/.gitignore', '*');
  repo.gitOk('config', 'core.hooksPath', '.husky');
}

const PACKAGE =
  '{\n  "name": "fixture",\n  "private": true,\n  "scripts": {\n    "prepare": "husky install",\n    "test": "node check.js"\n  }\n}\n';

/** A commit through the project's own pre-commit hook, which says it ran. */
function commitRuns(repo: Repo, when: string): void {
  repo.write('notes.txt', `${when}\n`);
  repo.gitOk('add', 'notes.txt');
  const r = repo.git('commit', '-m', when);
  assert.is(r.code, 0, `${when}: ${r.out}`);
  assert.match(r.out, 'the project pre-commit hook ran', when);
  assert.not.match(r.out, 'husky - ', when);
}

test('husky 8: install keeps its hooks path and husky.sh, writes pre-push in its form; commit and push work before, with and after gate-ladder', () =>
  withRepo({ install: false, files: { ...LADDER_FILES, 'package.json': PACKAGE } }, (repo) => {
    husky8Install(repo);
    addHook(repo, 'pre-commit', husky8Hook('echo "the project pre-commit hook ran"'));
    repo.gitOk('add', '.husky/pre-commit');
    repo.gitOk('commit', '-q', '-m', 'husky 8 pre-commit hook');
    const sh8 = repo.read('.husky/_/husky.sh');

    // Before install.
    commitRuns(repo, 'before install');
    const before = repo.push();
    assert.is(before.code, 0, before.out);
    assert.not.match(before.out, 'gate-ladder');

    const inst = repo.cli(['install']);
    assert.is(inst.code, 0, inst.out);
    assert.match(inst.out, 'this project runs husky 8');
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.husky', "core.hooksPath stays husky 8's");
    assert.is(repo.read('.husky/_/husky.sh'), sh8, "husky 8's husky.sh is untouched");
    const prePush = repo.read('.husky/pre-push');
    assert.ok(prePush.startsWith(husky8Hook('').trimEnd()), prePush);
    assert.match(prePush, 'run pre-push "$@"');
    assert.ok((statSync(join(repo.dir, '.husky/pre-push')).mode & 0o111) !== 0, 'the new hook is executable');
    assert.match(repo.read('package.json'), '"prepare": "husky install"', "husky 8's prepare is left as it is");
    repo.gitOk('add', '.husky/pre-push');
    repo.gitOk('commit', '-q', '-m', 'gate-ladder hook');

    // After install: the project's hook still runs, and the push is judged.
    commitRuns(repo, 'after install');
    const judged = repo.push();
    assert.is(judged.code, 0, judged.out);
    assert.match(judged.out, 'passed');
    assert.ok(repo.ledger().length > 0, 'the push was judged');

    const un = repo.cli(['uninstall']);
    assert.is(un.code, 0, un.out);
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.husky');
    assert.is(readFileSync(join(repo.dir, '.husky/_/husky.sh'), 'utf8'), sh8, 'uninstall leaves husky.sh, which the hooks source');
    assert.is(repo.read('.husky/_/.gitignore'), '*');

    // After uninstall: every hook of the project still works, and gate-ladder no longer runs.
    commitRuns(repo, 'after uninstall');
    const rows = repo.ledger().length;
    const after = repo.push();
    assert.is(after.code, 0, after.out);
    assert.not.match(after.out, 'cannot open');
    assert.is(repo.ledger().length, rows, 'no gate ran');
  }));

test("husky 8 with install --pre-commit: the project's pre-commit hook keeps its husky 8 lines and gains gate-ladder's; uninstall gives it back byte for byte", () =>
  withRepo({ install: false, files: { ...LADDER_FILES, 'package.json': PACKAGE } }, (repo) => {
    husky8Install(repo);
    const hook = husky8Hook('echo "the project pre-commit hook ran"');
    addHook(repo, 'pre-commit', hook);
    const inst = repo.cli(['install', '--pre-commit']);
    assert.is(inst.code, 0, inst.out);
    assert.ok(repo.read('.husky/pre-commit').startsWith(hook), "the project's lines stay first");
    assert.match(repo.read('.husky/pre-commit'), 'run pre-commit');
    commitRuns(repo, 'with gate-ladder');
    const un = repo.cli(['uninstall']);
    assert.is(un.code, 0, un.out);
    assert.is(repo.read('.husky/pre-commit'), hook);
    commitRuns(repo, 'after uninstall');
  }));

test.run();
