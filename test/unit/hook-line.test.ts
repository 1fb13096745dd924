import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hookLine, shellWord } from '../../src/install/hook-line.js';

/** The hook line as git's hook runs it: sh, from the repository root, with the hook's arguments. */
const runLine = (line: string, cwd: string) =>
  spawnSync('sh', ['-c', line, 'pre-push', 'origin', 'file:///r.git'], { cwd, encoding: 'utf8', env: { ...process.env, GATE_LADDER: '' } });

test('the hook line from a package in a folder: the runner found under it, whatever the folder is called; a missing one names the folder to install in', () => {
  const root = mkdtempSync(join(tmpdir(), 'gl-hook-line-'));
  try {
    for (const dir of ['web', 'packages/web app', "it's $HOME `x`", '']) {
      const line = hookLine('pre-push', 'npm', dir);
      const runner = join(root, dir, 'node_modules', 'gate-ladder', 'dist');
      const missing = runLine(line, root);
      assert.is(missing.status, 1, dir);
      const where = dir === '' ? '' : `${dir}/`;
      assert.is(
        missing.stderr,
        `gate-ladder: ${where}node_modules/gate-ladder/dist/cli.cjs is missing, so the pre-push checks cannot run: run \`npm install\`${dir === '' ? '' : ` in \`${dir}\``} first (to push once without them: git push --no-verify).\n`,
      );
      mkdirSync(runner, { recursive: true });
      writeFileSync(join(runner, 'cli.cjs'), 'console.log(JSON.stringify(process.argv.slice(2)))\n');
      const ran = runLine(line, root);
      assert.is(ran.status, 0, ran.stderr);
      assert.equal(JSON.parse(ran.stdout), ['run', 'pre-push', 'origin', 'file:///r.git'], dir);
      rmSync(join(root, dir || '.', 'node_modules'), { recursive: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('shellWord: plain paths as they are, anything else single-quoted', () => {
  assert.is(shellWord('node_modules/gate-ladder/dist/cli.cjs'), 'node_modules/gate-ladder/dist/cli.cjs');
  assert.is(shellWord('@scope/web+1/x'), '@scope/web+1/x');
  assert.is(shellWord('web app/x'), "'web app/x'");
  assert.is(shellWord("it's"), "'it'\\''s'");
});

test.run();
