/**
 * A Python project in src layout, installed in editable mode into its own `.venv` (a `.pth` file that
 * puts the checkout's `src` on sys.path, as `pip install -e .` writes), pushed with uncommitted changes:
 * the gates run in a slot of the worktree pool, whose `.venv` is the checkout's, linked. Before, pytest in
 * the slot imported the package from the checkout's `src` (its uncommitted fix), so a pushed commit with
 * a bug passed; the slot's `src` now comes first on PYTHONPATH.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';

const GOOD = 'def add(a, b):\n    return a + b\n';
const files = {
  '.gitignore': '.venv/\n__pycache__/\n',
  'gate-ladder.config.mjs':
    "export default { tiers: [{ name: 't2-tests', run: '.venv/bin/python -m pytest -q -p no:cacheprovider tests', timeout: 120, runner: 'pytest' }] };\n",
  'src/pkg/__init__.py': GOOD,
  'tests/test_add.py': 'from pkg import add\n\ndef test_add():\n    assert add(2, 1) == 3\n',
};

test("an editable install in .venv: an isolated push judges the pushed src, not the checkout's uncommitted one", () =>
  withRepo({ files }, (repo) => {
    // A venv that sees the system's pytest, and the editable install's .pth naming the checkout's src.
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', join(repo.dir, '.venv')], {
      encoding: 'utf8',
    });
    assert.is(made.status, 0, made.stderr);
    const lib = join(repo.dir, '.venv', 'lib');
    const site = join(lib, readdirSync(lib).find((d) => d.startsWith('python'))!, 'site-packages');
    writeFileSync(join(site, '__editable__.pkg.pth'), `${join(repo.dir, 'src')}\n`);

    repo.write('src/pkg/__init__.py', 'def add(a, b):\n    return a - b\n');
    repo.commit('a bug');
    // Fixed in the working tree, not committed: the push is judged in a slot.
    repo.write('src/pkg/__init__.py', GOOD);
    const r = repo.push();
    assert.is.not(r.code, 0, r.out);
    assert.match(r.out, 'gates run in a temporary worktree');
    assert.match(r.out, 't2-tests caught in');
    assert.match(r.out, '(pytest: `1 failed in');
  }));

test.run();
