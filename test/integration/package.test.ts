import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, installedModules, sh, withRepo } from '../helpers/repo.js';

test('the packed package ships its bin, its library and types that check a defineConfig config', () =>
  withRepo({ install: false }, (repo) => {
    const pkg = join(repo.dir, 'node_modules', 'gate-ladder');
    for (const f of ['dist/cli.js', 'dist/index.js', 'dist/types/index.d.ts', 'README.md']) assert.ok(existsSync(join(pkg, f)), f);
    repo.write(
      'gate-ladder.config.ts',
      `import { defineConfig, defaultScope, type GateLadderConfig } from 'gate-ladder';
const config: GateLadderConfig = defineConfig({ scope: [...defaultScope, 'e2e/**'], tiers: [{ name: 't1', run: ['true'], timeout: 5 }] });
export default config;
`,
    );
    repo.write('bad.config.ts', `import { defineConfig } from 'gate-ladder';\nexport default defineConfig({ tiers: [{ name: 't1', run: 'x', timeout: '5' }] });\n`);
    const typeRoots = JSON.stringify([join(PROJECT, 'node_modules', '@types')]);
    repo.write('tsconfig.json', `{"compilerOptions":{"strict":true,"module":"nodenext","moduleResolution":"nodenext","noEmit":true,"types":["node"],"typeRoots":${typeRoots}}}\n`);
    const tsc = join(PROJECT, 'node_modules', 'typescript', 'bin', 'tsc');
    const good = sh(process.execPath, [tsc, '-p', '.'], repo.dir);
    assert.is(good.code, 2, 'the bad config fails to type-check');
    assert.match(good.stdout, "bad.config.ts(2,63): error TS2322: Type 'string' is not assignable to type 'number'");
    assert.not.match(good.stdout, 'gate-ladder.config.ts(');
    assert.is(good.stdout.split('\n').filter((l) => l.includes('error TS')).length, 1, good.stdout);
    const lib = sh(process.execPath, ['--input-type=module', '-e', `import { route, defaultScope } from 'gate-ladder'; console.log(typeof route, defaultScope.length > 5)`], repo.dir);
    assert.is(lib.stdout.trim(), 'function true', lib.out);
  }));

test('the bin runs its hook bundle through a V8 code cache beside it, written by runs, per path taken; a bad cache is rejected and rewritten; GATE_LADDER_CODE_CACHE=0 writes none', () =>
  withRepo({}, (repo) => {
    // A copy of the install of its own: other test files running at the same time push through the
    // shared one, and their runs write that one's cache.
    const own = mkdtempSync(join(tmpdir(), 'gl-own-install-'));
    process.once('exit', () => rmSync(own, { recursive: true, force: true }));
    cpSync(installedModules(), join(own, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    rmSync(join(repo.dir, 'node_modules'));
    symlinkSync(join(own, 'node_modules'), join(repo.dir, 'node_modules'), 'dir');
    const dist = join(repo.dir, 'node_modules', 'gate-ladder', 'dist');
    const cacheDir = join(dist, '.cache');
    const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir) : []);
    // Named by the bundle's content (V8 checks a cache against the source's length only), Node version and arch.
    const name = /hook-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.v8/.exec(readFileSync(join(dist, 'cli.cjs'), 'utf8').replace('${process.version}', process.version).replace('${process.arch}', process.arch))?.[0];
    assert.ok(name, 'the loader names its cache file');
    const cache = join(cacheDir, name!);
    assert.not.match(readFileSync(join(dist, 'hook.cjs'), 'utf8'), /\bimport\(/, 'every dynamic import goes through the loader');
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 't1', run: 'true' }] };\n`);
    repo.commit('config');
    repo.write('src/a.txt', 'a\n');
    repo.commit('a change');
    const dryRun = ['run', '--dry-run', '--base', 'HEAD~1', '--head', 'HEAD'];
    rmSync(join(dist, '.cache'), { recursive: true, force: true });
    const off = repo.cli(dryRun, { env: { GATE_LADDER_CODE_CACHE: '0' } });
    assert.is(off.code, 0, off.out);
    assert.not.ok(existsSync(cache), 'no cache when turned off');
    const before = repo.cli(['--help']);
    assert.is(before.code, 0, before.out);
    assert.not.ok(existsSync(cache), 'another command (install, --help) never writes it: it would hold none of a push\'s functions');
    const first = repo.cli(dryRun);
    assert.is(first.code, 0, first.out);
    assert.ok(existsSync(cache), 'written when the first run ends');
    // The file ends with the names of the paths whose functions it holds, then their length (2 bytes).
    const paths = () => {
      const bytes = readFileSync(cache);
      const size = bytes.readUInt16LE(bytes.length - 2);
      return bytes.toString('latin1', bytes.length - 2 - size, bytes.length - 2).split('\n');
    };
    assert.equal(paths(), ['manual 0 dry-run']);
    const written = statSync(cache);
    assert.is(repo.cli(dryRun).code, 0);
    assert.is(statSync(cache).ino, written.ino, 'a run on a path the cache holds leaves it as it is');
    const gate = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD', '--no-cache']);
    assert.is(gate.code, 0, gate.out);
    assert.equal(paths(), ['manual 0 dry-run', 'manual 0 pass'], 'a new path adds its functions');
    assert.ok(statSync(cache).size > written.size, gate.out);
    writeFileSync(cache, 'not bytecode');
    writeFileSync(join(cacheDir, `hook-0123456789abcdef-${process.version}-${process.arch}.v8`), 'an older build');
    const again = repo.cli(dryRun);
    assert.is(again.code, 0, again.out);
    assert.is(again.stderr, first.stderr);
    assert.ok(readFileSync(cache).length > 10_000, 'V8 rejected the bad cache and it was written anew');
    assert.equal(cacheFiles(), [name], "another build's cache is removed");
    const help = repo.cli(['--help']);
    assert.is(help.code, 0, help.out);
    assert.match(help.stdout, 'Commands:', 'a cold command loads through the cached bundle');
  }));

test.run();
