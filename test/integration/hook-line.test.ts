import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, withRepo } from '../helpers/repo.js';

const LINE = 'node node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"';

test('install replaces the line an earlier version wrote, in place; the push runs through it; uninstall removes it', () =>
  withRepo({ install: false, files: { ...LADDER_FILES, '.husky/pre-push': 'echo before\ngate-ladder run pre-push "$@"\necho after\n' } }, (repo) => {
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
  }));

test.run();
