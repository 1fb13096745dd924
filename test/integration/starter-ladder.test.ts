/**
 * The starter config's ladder, as a new user gets it: `gate-ladder install` on a vitest project writes a
 * config whose first pushes route. A push that changes only src/ runs the related tests (vitest's own
 * `related`); a push that changes a test file skips them, and the whole suite decides.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, installedModules, sh, withRepo } from '../helpers/repo.js';

/** This project's dev dependencies (vitest among them) linked one by one, and the packed gate-ladder beside them. */
function projectModules(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gl-vitest-'));
  const nm = join(dir, 'node_modules');
  mkdirSync(nm);
  const project = join(PROJECT, 'node_modules');
  for (const name of readdirSync(project)) if (name !== 'gate-ladder') symlinkSync(join(project, name), join(nm, name));
  symlinkSync(join(installedModules(), 'gate-ladder'), join(nm, 'gate-ladder'), 'dir');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return nm;
}

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n`,
  'src/math.js': 'export const add = (a, b) => a + b;\n',
  'src/other.js': 'export const two = 2;\n',
  'src/math.test.js':
    "import { test, expect } from 'vitest';\nimport { add } from './math.js';\ntest('adds', () => { expect(add(1, 2)).toBe(3); });\n",
};

test('install on a vitest project: the first push of a src/ change runs t1-related, a push that changes a test file skips it', () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, (repo) => {
    unlinkSync(join(repo.dir, 'node_modules'));
    symlinkSync(projectModules(), join(repo.dir, 'node_modules'), 'dir');
    const installed = repo.cli(['install']);
    assert.is(installed.code, 0, installed.out);
    const config = repo.read('gate-ladder.config.ts');
    assert.match(config, "{ name: 't1-related', run: 'npx vitest related --run {changed:");
    repo.commit('gate-ladder');
    const first = repo.push(['-q', '--no-verify', 'origin', 'main']);
    assert.is(first.code, 0, first.out);

    repo.write('src/math.js', 'export const add = (a, b) => b + a;\n');
    repo.commit('src only');
    const src = repo.push(['origin', 'main']);
    assert.is(src.code, 0, src.out);
    assert.equal(
      repo.ledger().map((r) => [r.tier, r.verdict, r.runner]),
      [
        ['t1-related', 'pass', 'vitest'],
        ['t2-tests', 'pass', 'vitest'],
      ],
    );

    repo.write(
      'src/math.test.js',
      "import { test, expect } from 'vitest';\nimport { add } from './math.js';\ntest('adds', () => { expect(add(2, 2)).toBe(4); });\n",
    );
    repo.commit('a test file');
    const adjacent = repo.push(['origin', 'main']);
    assert.is(adjacent.code, 0, adjacent.out);
    assert.match(adjacent.out, 't0-scope skips t1-related: test-adjacent: src/math.test.js matches **/*.test.*');
    const last = repo.ledger().slice(2);
    assert.equal(
      last.map((r) => [r.tier, r.verdict]),
      [['t2-tests', 'pass']],
    );
    assert.equal(last[0]!.skipped, ['t1-related']);
  }));

test('install says when a command the config runs is not on PATH: pnpm named by packageManager', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\n',
        'package.json': `${JSON.stringify({ name: 'fixture', private: true, packageManager: 'pnpm@9.15.9', scripts: { test: 'node --test' } }, null, 2)}\n`,
      },
      install: false,
      pushInitial: false,
    },
    (repo) => {
      // A PATH of our own, holding node and git only: whether this machine has a pnpm does not matter.
      const bin = mkdtempSync(join(tmpdir(), 'gl-path-'));
      try {
        symlinkSync(process.execPath, join(bin, 'node'));
        const git = sh('sh', ['-c', 'command -v git'], repo.dir).stdout.trim();
        symlinkSync(git, join(bin, 'git'));
        const r = repo.cli(['install'], { env: { PATH: bin } });
        assert.is(r.code, 0, r.out);
        assert.match(repo.read('gate-ladder.config.ts'), "run: 'pnpm test'");
        assert.match(r.out, 'gate-ladder: note: t2-tests in gate-ladder.config.ts runs `pnpm`, which is not on PATH here');
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    },
  ));

test.run();
