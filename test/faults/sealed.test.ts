/**
 * Issue 33, point 1: a gate in a worktree slot, or a replayed patch's test, cannot change a byte of the
 * checkout's dependency folders. Before, a slot's node_modules entries and its `.venv` were links into
 * the checkout's: `echo '//x' >> node_modules/pkg/index.js` in an isolated push rewrote the real file,
 * and a replayed patch could plant code in `node_modules/gate-ladder/dist/cli.cjs` that every later
 * `git push` ran. Each slot now has its own copy, made again when a gate touched it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, withRepo } from '../helpers/repo.js';

/** The repo's own node_modules, a real folder copied from the shared install (a test may write into it), with a package of its own. */
function ownModules(repo: Repo): void {
  const installed = realpathSync(join(repo.dir, 'node_modules'));
  rmSync(join(repo.dir, 'node_modules'));
  cpSync(installed, join(repo.dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  mkdirSync(join(repo.dir, 'node_modules', 'leftpad'));
  writeFileSync(join(repo.dir, 'node_modules', 'leftpad', 'index.js'), 'module.exports = (s) => s;\n');
  mkdirSync(join(repo.dir, '.venv', 'lib', 'python3.12', 'site-packages'), { recursive: true });
  writeFileSync(join(repo.dir, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  writeFileSync(join(repo.dir, '.venv', 'lib', 'python3.12', 'site-packages', 'pkg.py'), 'VALUE = 1\n');
}

const GUARDED = ['node_modules/leftpad/index.js', 'node_modules/gate-ladder/dist/cli.cjs', '.venv/lib/python3.12/site-packages/pkg.py'];
/** Each guarded file's path and sha256: equal means byte-identical. */
const snapshot = (repo: Repo) =>
  GUARDED.map(
    (p) =>
      `${p} ${createHash('sha256')
        .update(readFileSync(join(repo.dir, p)))
        .digest('hex')}`,
  );

/** What a hostile gate does: says whether an earlier run's writes are there, then writes into each dependency folder. */
const HOSTILE = `for f in ${GUARDED.join(' ')}; do grep -c INJECTED "$f" >> "$GL_TRACE" || true; done
echo '//x' >> node_modules/leftpad/index.js
echo 'console.error("INJECTED")' >> node_modules/gate-ladder/dist/cli.cjs
echo 'INJECTED = 1' >> .venv/lib/python3.12/site-packages/pkg.py
sed -i 's/^/INJECTED /' node_modules/leftpad/index.js 2>/dev/null || true
`;

test("an isolated push whose tier appends to node_modules/<pkg>/index.js and a .venv file leaves the checkout's files byte-identical; the next run in that slot does not see the writes", () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\n.venv\n',
        'gate-ladder.config.ts': `export default { isolation: 'worktree', cache: false, tiers: [{ name: 't1', run: 'sh hostile.sh', timeout: 60 }] };\n`,
        'hostile.sh': HOSTILE,
      },
      pushInitial: false,
    },
    (repo) => {
      ownModules(repo);
      const before = snapshot(repo);
      const trace = join(dirname(repo.dir), 'trace');
      for (let i = 1; i <= 2; i++) {
        repo.write('src/a.txt', `${i}\n`);
        repo.commit(`change ${i}`);
        const r = repo.push(['origin', 'main'], { GL_TRACE: trace });
        assert.is(r.code, 0, r.out);
        assert.not.match(r.out, 'INJECTED', `push ${i} ran the checkout's hook as installed`);
        assert.equal(snapshot(repo), before, `push ${i}: the checkout's dependency files are byte-identical`);
      }
      assert.equal(
        repo.ledger().map((x) => [x.verdict, x.isolation]),
        [
          ['pass', 'worktree'],
          ['pass', 'worktree'],
        ],
      );
      assert.equal(
        readFileSync(trace, 'utf8').trim().split('\n'),
        ['0', '0', '0', '0', '0', '0'],
        'neither run saw a write of the run before it',
      );
    },
  ));

test('replay of a commit whose test writes into node_modules/gate-ladder/dist/cli.cjs and .venv leaves the real ones unchanged, and a later push runs the real hook', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\n.venv\n',
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'sh test.sh', timeout: 60 }] };\n`,
        'test.sh': 'true\n',
      },
    },
    (repo) => {
      ownModules(repo);
      const before = snapshot(repo);
      const start = repo.gitOk('rev-parse', 'HEAD').trim();
      // An untrusted patch: its "test" plants code in the hook and the venv, and passes.
      repo.write('test.sh', HOSTILE.replace(/^for f .*\n/, ''));
      repo.commit('a patch from outside');
      const r = repo.cli(['replay', `${start}..HEAD`, '--force']);
      assert.is(r.code, 0, r.out);
      assert.equal(snapshot(repo), before, "the checkout's dependency files are byte-identical");
      // A later push through the installed hook: nothing planted runs.
      repo.write('test.sh', 'true\n');
      repo.commit('the patch reverted');
      const push = repo.push(['origin', 'main']);
      assert.is(push.code, 0, push.out);
      assert.not.match(push.out, 'INJECTED');
      assert.ok(existsSync(join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.cjs')));
    },
  ));

test.run();
