/**
 * `report --html` without a path and `report --open`, through the packed CLI on a repository whose ledger
 * a real push wrote: the page goes under the git dir (never the work tree) and its path is printed; a
 * browser named by $BROWSER (a stub script: the one thing that cannot run here) is handed that path; no
 * browser, or one that fails, is said with the path, and the report still exits 0.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LADDER_FILES, type Repo, withRepo } from '../helpers/repo.js';

/** A repository with a ledger: one push judged. */
function pushed(repo: Repo): void {
  repo.write('src/value.txt', 'better\n');
  repo.commit('change');
  const p = repo.push();
  assert.is(p.code, 0, p.out);
  assert.ok(repo.ledger().length > 0, 'the push wrote the ledger');
}

/** The page's path as the report printed it. */
const printedPage = (stderr: string) => /wrote (\S+\.html) \(/.exec(stderr)?.[1];

/** What `git status` sees in the work tree, ignored files too. */
const workTree = (repo: Repo) => repo.gitOk('status', '--porcelain', '--ignored', '--untracked-files=all');

/** Waits for a file to be written (the stub browser runs in its own process), at most `ms`. */
function waitForFile(path: string, ms = 60_000): string | undefined {
  const end = Date.now() + ms;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    if (existsSync(path) && readFileSync(path, 'utf8').endsWith('\n')) return readFileSync(path, 'utf8');
    if (Date.now() > end) return undefined;
    Atomics.wait(nap, 0, 0, 25);
  }
}

test('report --html without a path writes the page under the git dir, not the work tree, and prints where', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    pushed(repo);
    const before = workTree(repo);
    const r = repo.cli(['report', '--html']);
    assert.is(r.code, 0, r.out);
    assert.is(r.stdout, '');
    const page = printedPage(r.stderr);
    assert.ok(page, r.stderr);
    assert.is(realpathSync(page), realpathSync(join(repo.dir, '.git', 'gate-ladder', 'report.html')));
    assert.match(readFileSync(page, 'utf8'), /^<!doctype html>/);
    assert.is(workTree(repo), before, 'no file appeared in the working tree');
    assert.not.ok(existsSync(join(repo.dir, 'gate-ladder-report.html')));
    // A path named is still that path, relative to where the command runs.
    const named = repo.cli(['report', '--html', 'page.html']);
    assert.is(named.code, 0, named.out);
    assert.match(readFileSync(join(repo.dir, 'page.html'), 'utf8'), /^<!doctype html>/);
  }));

test('report --open hands the page to the browser $BROWSER names (and implies --html)', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    pushed(repo);
    const got = join(dirname(repo.dir), 'browser-got.txt');
    const browser = join(dirname(repo.dir), 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$*" > '${got}'\n`, { mode: 0o755 });
    const before = workTree(repo);
    const r = repo.cli(['report', '--open'], { env: { BROWSER: browser } });
    assert.is(r.code, 0, r.out);
    const page = printedPage(r.stderr);
    assert.ok(page, r.stderr);
    assert.is(waitForFile(got), `${page}\n`, 'the browser received the page, as its one argument');
    assert.match(readFileSync(page, 'utf8'), /^<!doctype html>/);
    assert.match(r.stderr, `opened ${page} with $BROWSER (${browser})`);
    assert.is(workTree(repo), before);
  }));

test('report --open with no browser found, or one that fails, says so with the path and exits 0', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    pushed(repo);
    const none = repo.cli(['report', '--open'], { env: { BROWSER: 'no-such-browser-here' } });
    assert.is(none.code, 0, none.out);
    const page = printedPage(none.stderr);
    assert.ok(page && existsSync(page), none.stderr);
    assert.match(none.stderr, 'no browser to open the page: $BROWSER (no-such-browser-here) names no command found here');
    assert.match(none.stderr, `Open ${page} in a browser yourself, or set BROWSER to one`);
    const failing = join(dirname(repo.dir), 'failing-browser.sh');
    writeFileSync(failing, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const failed = repo.cli(['report', '--open'], { env: { BROWSER: failing } });
    assert.is(failed.code, 0, failed.out);
    assert.match(failed.stderr, `could not open the page (exit 3). Open ${page} in a browser yourself`);
  }));

test.run();
