/**
 * The `prepare` script install writes (src/install/prepare.ts, pure): husky's line added in front of the
 * project's own, except where that runs simple-git-hooks, which would write over husky's hooks.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { composePrepare, huskyPrepare, runsHusky } from '../../src/install/prepare.js';

test("huskyPrepare: husky 9's or husky 8's command, `|| true`, from the root", () => {
  assert.is(huskyPrepare('', false), 'husky || true');
  assert.is(huskyPrepare('', true), 'husky install || true');
  assert.is(huskyPrepare('web/app', false), 'cd ../.. && husky || true');
  assert.is(huskyPrepare('', false, false), 'husky');
  assert.ok(runsHusky('husky && tsc'));
  assert.not.ok(runsHusky('husky-run'));
});

test('composePrepare: husky first; a simple-git-hooks command whose config was carried taken out; one it cannot take out (or a JavaScript config) runs before husky', () => {
  assert.equal(composePrepare('tsc', 'husky || true', ''), { after: 'husky || true && tsc' });
  assert.equal(composePrepare('tsc', 'cd .. && husky || true', 'app'), { after: '(cd .. && husky || true) && tsc' });
  assert.equal(composePrepare('simple-git-hooks', 'husky || true', '', 'read'), { after: 'husky || true', simple: 'dropped' });
  assert.equal(composePrepare('npx simple-git-hooks && tsc', 'husky || true', '', 'read'), {
    after: 'husky || true && tsc',
    simple: 'dropped',
  });
  assert.equal(composePrepare('tsc && pnpm exec simple-git-hooks ./hooks.json', 'husky || true', '', 'read'), {
    after: 'husky || true && tsc',
    simple: 'dropped',
  });
  assert.equal(composePrepare('simple-git-hooks || echo no hooks', 'husky || true', '', 'read'), {
    after: 'simple-git-hooks || echo no hooks && (husky || true)',
    simple: 'first',
  });
  assert.equal(composePrepare('simple-git-hooks', 'husky || true', '', 'javascript'), {
    after: 'simple-git-hooks && (husky || true)',
    simple: 'first',
  });
  // No simple-git-hooks config: its name in prepare is not a reason to move husky.
  assert.equal(composePrepare('simple-git-hooks', 'husky || true', ''), { after: 'husky || true && simple-git-hooks' });
});

test.run();
