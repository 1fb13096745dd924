/**
 * Issue 44, point 1: the links in a slot's copy of a dependency folder lead where they led in the
 * checkout. npm links a `file:../outside` dependency as `node_modules/outdep -> ../../outside`; the
 * slot's copy kept that relative link, which from the slot named a folder beside the slot that does not
 * exist, so every push that ran in a slot (a dirty tree, `isolation: 'worktree'`) was an `error`
 * ("Cannot find module 'outdep'") though the same commit passed in place. Each package manager's links,
 * made by the real tool where this project has it (npm, pnpm) and by hand in yarn's form: a link out of
 * the work tree still leads there, a workspace link leads to the slot's own package (the pushed
 * version, not the checkout's uncommitted one).
 */
import { mkdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, installedModules, sh, withRepo } from '../helpers/repo.js';

const PNPM = join(PROJECT, 'node_modules', '.bin', 'pnpm');

/** The gate: requires each package named and checks what it gives; `@s/lib` must be the pushed version. */
const CHECK = `const assert = require('node:assert');
const want = { outdep: 'outdep', linked: 'linked', '@s/lib': 'lib v2' };
for (const name of process.argv.slice(2)) assert.equal(require(name), want[name], name);
console.log('required', process.argv.slice(2).join(' '));
`;

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** A workspace (packages/lib as @s/lib, packages/app using it) whose gate requires `names`. */
const files = (names: string, extra: Record<string, string>): Record<string, string> => ({
  '.gitignore': 'node_modules\n',
  'gate-ladder.config.ts': `export default { cache: false, tiers: [{ name: 't1', run: 'node packages/app/check.cjs ${names}', timeout: 120 }] };\n`,
  'packages/app/check.cjs': CHECK,
  'packages/app/package.json': json({ name: 'app', version: '1.0.0', dependencies: { '@s/lib': '*' } }),
  'packages/lib/package.json': json({ name: '@s/lib', version: '1.0.0' }),
  'packages/lib/index.js': "module.exports = 'lib v1';\n",
  ...extra,
});

/** Packages beside the repository, outside its work tree, as `file:../outside` and `link:../linked` name them. */
function outsidePackages(repo: Repo): void {
  for (const name of ['outside', 'linked']) {
    const dir = join(dirname(repo.dir), name);
    mkdirSync(dir);
    const pkg = name === 'outside' ? 'outdep' : name;
    writeFileSync(join(dir, 'package.json'), json({ name: pkg, version: '1.0.0' }));
    writeFileSync(join(dir, 'index.js'), `module.exports = '${pkg}';\n`);
  }
}

/** The repository's own node_modules, made by `install` (the shared install's link removed first), with gate-ladder linked in for the hook. */
function ownInstall(repo: Repo, install: (modules: string) => void): void {
  const modules = join(repo.dir, 'node_modules');
  rmSync(modules);
  install(modules);
  symlinkSync(join(installedModules(), 'gate-ladder'), join(modules, 'gate-ladder'), 'dir');
}

/**
 * lib v2 committed, judged in place (a clean tree: isolation none) through `run pre-push`, then pushed
 * with lib v3 uncommitted (isolation worktree): both pass, and the gate in the slot saw v2.
 */
function inPlaceThenInSlot(repo: Repo): void {
  repo.write('packages/lib/index.js', "module.exports = 'lib v2';\n");
  const head = repo.commit('lib v2');
  const base = repo.gitOk('rev-parse', 'HEAD~1');
  const inPlace = repo.cli(['run', 'pre-push', 'origin', repo.remote], { input: `refs/heads/main ${head} refs/heads/main ${base}\n` });
  assert.is(inPlace.code, 0, inPlace.out);
  repo.write('packages/lib/index.js', "module.exports = 'lib v3, uncommitted';\n");
  const pushed = repo.push(['origin', 'main']);
  assert.is(pushed.code, 0, pushed.out);
  assert.match(pushed.out, 'gates run in a temporary worktree');
  assert.equal(
    repo.ledger().map((x) => [x.tier, x.verdict, x.isolation, x.patch]),
    [
      ['t1', 'pass', 'none', head],
      ['t1', 'pass', 'worktree', head],
    ],
  );
}

test('npm: a file:../outside dependency (node_modules/outdep -> ../../outside) and a workspace link resolve in a slot as in place', () =>
  withRepo(
    {
      files: files('outdep @s/lib', {
        'package.json': json({ name: 'mono', private: true, workspaces: ['packages/*'], dependencies: { outdep: 'file:../outside' } }),
      }),
    },
    (repo) => {
      outsidePackages(repo);
      ownInstall(repo, () => {
        const r = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], repo.dir, { timeoutMs: 300_000 });
        assert.is(r.code, 0, r.out);
      });
      assert.is(readlinkSync(join(repo.dir, 'node_modules/outdep')), '../../outside', "npm's link, relative and out of the work tree");
      assert.is(readlinkSync(join(repo.dir, 'node_modules/@s/lib')), '../../packages/lib');
      inPlaceThenInSlot(repo);
    },
  ));

test("pnpm: the .pnpm store's links, a file: package with a dependency of its own, a link:../linked one and a workspace package resolve in a slot as in place", () =>
  withRepo(
    {
      files: files('outdep linked @s/lib', {
        'package.json': json({ name: 'mono', private: true, dependencies: { outdep: 'file:../outside', linked: 'link:../linked' } }),
        'pnpm-workspace.yaml': 'packages:\n  - "packages/*"\n',
        'packages/app/package.json': json({ name: 'app', version: '1.0.0', dependencies: { '@s/lib': 'workspace:*' } }),
      }),
    },
    (repo) => {
      outsidePackages(repo);
      // outdep's own dependency: pnpm puts both in its .pnpm store, outdep's reaching inner through a link there.
      const inner = join(dirname(repo.dir), 'inner');
      mkdirSync(inner);
      writeFileSync(join(inner, 'package.json'), json({ name: 'inner', version: '1.0.0' }));
      writeFileSync(join(inner, 'index.js'), "module.exports = 'inner';\n");
      const outside = join(dirname(repo.dir), 'outside');
      writeFileSync(join(outside, 'package.json'), json({ name: 'outdep', version: '1.0.0', dependencies: { inner: 'file:../inner' } }));
      writeFileSync(join(outside, 'index.js'), "module.exports = require('inner') === 'inner' ? 'outdep' : 'no inner';\n");
      ownInstall(repo, () => {
        const store = join(dirname(repo.dir), 'pnpm-store');
        const r = sh(PNPM, ['install', '--offline', '--ignore-scripts', '--store-dir', store], repo.dir, { timeoutMs: 300_000 });
        assert.is(r.code, 0, r.out);
      });
      assert.is(readlinkSync(join(repo.dir, 'node_modules/linked')), '../../linked', "pnpm's link:, relative and out of the work tree");
      assert.match(readlinkSync(join(repo.dir, 'node_modules/outdep')), /^\.pnpm\//, 'a file: package lives in the .pnpm store');
      assert.is(readlinkSync(join(repo.dir, 'packages/app/node_modules/@s/lib')), '../../../lib');
      inPlaceThenInSlot(repo);
    },
  ));

test("yarn's links (a workspace package, a portal: or link: package out of the work tree, an absolute link, a .bin entry) resolve in a slot as in place", () =>
  withRepo(
    {
      files: files('outdep @s/lib', {
        'package.json': json({ name: 'mono', private: true, workspaces: ['packages/*'], dependencies: { outdep: 'portal:../outside' } }),
        'packages/app/check.cjs': `${CHECK}require('node:child_process').execFileSync('sh', [require.resolve('../../node_modules/.bin/outdep')], { stdio: 'inherit' });\nrequire('node:assert').equal(require('abs-lib'), 'lib v2', 'abs-lib');\n`,
      }),
    },
    (repo) => {
      outsidePackages(repo);
      writeFileSync(join(dirname(repo.dir), 'outside', 'cli.sh'), 'echo outdep cli\n');
      // As yarn (1, and 2+ with nodeLinker: node-modules) makes them: relative links, .bin entries into the packages.
      ownInstall(repo, (modules) => {
        mkdirSync(join(modules, '@s'), { recursive: true });
        mkdirSync(join(modules, '.bin'));
        symlinkSync('../../packages/lib', join(modules, '@s/lib'));
        symlinkSync('../packages/app', join(modules, 'app'));
        symlinkSync('../../outside', join(modules, 'outdep'));
        symlinkSync('../outdep/cli.sh', join(modules, '.bin/outdep'));
        // A hand-made absolute link into the work tree: in the slot, the slot's own package.
        symlinkSync(join(realpathSync(repo.dir), 'packages/lib'), join(modules, 'abs-lib'));
      });
      inPlaceThenInSlot(repo);
    },
  ));

test.run();
