import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, withRepo, linkGateLadderAlone } from '../helpers/repo.js';
import { hookLine } from '../../src/install/hook-line.js';

const LINE = hookLine('pre-push', 'npm');

test('install replaces the line an earlier version wrote, in place; the push runs through it; uninstall removes it', () =>
  withRepo(
    { install: false, files: { ...LADDER_FILES, '.husky/pre-push': 'echo before\ngate-ladder run pre-push "$@"\necho after\n' } },
    (repo) => {
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.is(repo.read('.husky/pre-push'), `echo before\n${LINE}\necho after\n`);
      assert.is(repo.cli(['install']).code, 0);
      assert.is(repo.read('.husky/pre-push'), `echo before\n${LINE}\necho after\n`, 'idempotent');
      repo.write('src/other.txt', 'fine\n');
      repo.commit('clean');
      const push = repo.push();
      assert.is(push.code, 0, push.out);
      assert.match(push.out, 'before');
      assert.match(push.out, '2 tiers passed');
      assert.match(push.out, 'after');
      assert.is(repo.cli(['uninstall']).code, 0);
      assert.is(repo.read('.husky/pre-push'), 'echo before\necho after\n');
    },
  ));

test('install upgrades the node lines of previous versions (no --preserve-symlinks-main; no check for node_modules) in place', async () => {
  for (const old of [
    'node node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"',
    'node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"',
    hookLine('pre-push', 'pnpm'),
  ]) {
    await withRepo({ install: false, pushInitial: false, files: { ...LADDER_FILES, '.husky/pre-push': `${old}\n` } }, (repo) => {
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.is(repo.read('.husky/pre-push'), `${LINE}\n`, old);
    });
  }
});

test("a linked package with its dependencies only beside its real folder (pnpm's layout): the hook runs, config loader and all", () =>
  withRepo({ install: false, pushInitial: false, files: LADDER_FILES }, (repo) => {
    // node_modules holds gate-ladder alone, as a link; jiti, husky and the rest are found only from
    // the package's real path (<install>/node_modules/gate-ladder → <install>/node_modules/jiti).
    linkGateLadderAlone(repo);
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    assert.match(repo.read('.husky/pre-push'), LINE);
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    // The first run of this config: no config cache yet, so the config loader (jiti) is imported.
    const push = repo.push(['origin', 'main']);
    assert.is(push.code, 0, push.out);
    assert.match(push.out, 't2-fixtures pass');
    assert.equal(
      repo.ledger().map((row) => [row.tier, row.verdict]),
      [['t2-fixtures', 'pass']],
    );
  }));

test.run();
