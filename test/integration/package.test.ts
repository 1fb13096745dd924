import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { PROJECT, sh, withRepo } from '../helpers/repo.js';

// Node-sensitive: the packed bin and library as this Node loads them.
nodeTest('the packed package ships its bin, its library and its types; the library loads as a module', () =>
  withRepo({ install: false }, (repo) => {
    const pkg = join(repo.dir, 'node_modules', 'gate-ladder');
    for (const f of ['dist/cli.mjs', 'dist/index.mjs', 'dist/types/index.d.ts', 'README.md']) assert.ok(existsSync(join(pkg, f)), f);
    const lib = sh(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { defineConfig, defaultScope } from 'gate-ladder'; console.log(typeof defineConfig, defaultScope.length > 5)`,
      ],
      repo.dir,
    );
    assert.is(lib.stdout.trim(), 'function true', lib.out);
    const bin = sh(process.execPath, [join(pkg, 'dist', 'cli.mjs'), '--version'], repo.dir);
    assert.is(bin.code, 0, bin.out);
    assert.match(bin.stdout, /^\d+\.\d+\.\d+/);
  }),
);

// The same on every Node (tsc checks against the project's @types/node, whatever Node runs it): the oldest only.
test('the packed types check a defineConfig config, and catch a wrong one', () =>
  withRepo({ install: false }, (repo) => {
    repo.write(
      'gate-ladder.config.ts',
      `import { defineConfig, defaultScope, type GateLadderConfig } from 'gate-ladder';
const config: GateLadderConfig = defineConfig({ scope: [...defaultScope, 'e2e/**'], tiers: [{ name: 't1', run: ['true'], timeout: 5 }] });
export default config;
`,
    );
    repo.write(
      'bad.config.ts',
      `import { defineConfig } from 'gate-ladder';\nexport default defineConfig({ tiers: [{ name: 't1', run: 'x', timeout: '5' }] });\n`,
    );
    const typeRoots = JSON.stringify([join(PROJECT, 'node_modules', '@types')]);
    repo.write(
      'tsconfig.json',
      `{"compilerOptions":{"strict":true,"module":"nodenext","moduleResolution":"nodenext","noEmit":true,"types":["node"],"typeRoots":${typeRoots}}}\n`,
    );
    const tsc = join(PROJECT, 'node_modules', 'typescript', 'bin', 'tsc');
    const good = sh(process.execPath, [tsc, '-p', '.'], repo.dir);
    assert.is(good.code, 2, 'the bad config fails to type-check');
    assert.match(good.stdout, "bad.config.ts(2,63): error TS2322: Type 'string' is not assignable to type 'number'");
    assert.not.match(good.stdout, 'gate-ladder.config.ts(');
    assert.is(good.stdout.split('\n').filter((l) => l.includes('error TS')).length, 1, good.stdout);
  }));

/** The files a module loads before its first line runs: itself and its static imports, transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)) {
    staticClosure(join(dirname(file), (m[1] ?? m[2])!), seen);
  }
  return seen;
}

// Node-sensitive: what importing the library loads, and what a run writes (the compile cache, from Node 22 on).
nodeTest(
  'the library exports defineConfig, defaultScope and the config types, nothing else, and importing it loads a few kilobytes, not the CLI; a run writes nothing into the package',
  () =>
    withRepo({}, (repo) => {
      const pkg = join(repo.dir, 'node_modules', 'gate-ladder');
      const lib = sh(
        process.execPath,
        ['--input-type=module', '-e', "const m = await import('gate-ladder'); console.log(Object.keys(m).sort().join(' '))"],
        repo.dir,
      );
      assert.is(lib.stdout.trim(), 'defaultScope defineConfig', lib.out);
      const types = readFileSync(join(pkg, 'dist', 'types', 'index.d.ts'), 'utf8');
      for (const name of ['GateLadderConfig', 'TierConfig', 'defineConfig', 'defaultScope']) assert.match(types, name);
      assert.not.match(types, 'LedgerRow', 'internal types are not part of the contract');
      const files = [...staticClosure(join(pkg, 'dist', 'index.mjs'))];
      const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
      assert.ok(bytes < 16_000, `dist/index.mjs loads ${bytes} bytes: ${files.join(', ')}`);
      const listing = () => readdirSync(join(pkg, 'dist'), { recursive: true }).map(String).sort();
      const before = listing();
      repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 't1', run: 'true' }] };\n`);
      repo.commit('config');
      repo.write('src/a.txt', 'a\n');
      repo.commit('a change');
      const run = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD', '--no-cache']);
      assert.is(run.code, 0, run.out);
      assert.equal(listing(), before, 'no file appeared in the installed package');
    }),
);

/** Every relative import of a built file, static or `import()`, resolved: what it may load. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.{1,2}\/[^"]+)"/g)].map((m) =>
    join(dirname(file), m[1]!),
  );
}

test("`run` and the other commands are two builds: a push loads nothing of the commands' build, the commands nothing of the run's", () =>
  withRepo({}, (repo) => {
    const dist = join(repo.dir, 'node_modules', 'gate-ladder', 'dist');
    const inDist = (f: string) => readdirSync(join(dist, f)).map((n) => join(dist, f, n));
    const runFiles = [join(dist, 'cli.mjs'), ...inDist('run')];
    const commandFiles = [join(dist, 'commands.mjs'), join(dist, 'index.mjs'), ...inDist('chunks')];
    const commandsEntry = join(dist, 'commands.mjs');
    let toCommands = 0;
    for (const file of runFiles) {
      for (const target of importsOf(file)) {
        assert.ok(existsSync(target), `${file} imports ${target}, which is not in the package`);
        if (target === commandsEntry) toCommands++;
        else assert.ok(target.startsWith(join(dist, 'run')), `${file} (the run's build) imports ${target}`);
      }
    }
    // bin.ts for any other command, cli/entry.ts for what node's parser leaves to yargs.
    assert.is(toCommands, 2, "the run's build reaches the commands' only through dist/commands.mjs, from two places");
    for (const file of commandFiles) {
      for (const target of importsOf(file)) {
        assert.ok(existsSync(target), `${file} imports ${target}, which is not in the package`);
        assert.not.ok(target.startsWith(join(dist, 'run')), `${file} (the commands' build) imports ${target}`);
      }
    }
    // What a push loads before its first `await import()` (every push: the tree-cached one loads no more)
    // is in a few files, not one per set of the run's chunks sharing a module (scripts/build.mjs, push-path).
    const entry = importsOf(join(dist, 'cli.mjs')).find((f) => f.startsWith(join(dist, 'run')));
    assert.ok(entry, 'dist/cli.mjs imports the run entry');
    const pushFiles = [...staticClosure(entry)];
    assert.ok(pushFiles.length <= 6, `a push loads ${pushFiles.length} files before its first await import(): ${pushFiles.join(', ')}`);
    // The run's top-level functions are written as parenthesized expressions, which V8 compiles with their
    // module, so Node's compile cache keeps them (scripts/build.mjs, eagerFunctions): no declaration is left.
    for (const file of runFiles) {
      const declared = /^(?:async\s+)?function\b.*$/m.exec(readFileSync(file, 'utf8'));
      assert.is(declared?.[0], undefined, `${file} declares a function at its top level, which V8 compiles on each run`);
    }
    assert.ok(
      inDist('run').some((f) => /^var \w+ = \(function \w+\(/m.test(readFileSync(f, 'utf8'))),
      'the run build writes its functions as parenthesized expressions',
    );
    // Both ends work from the installed package: a command, and `run --help`, which the run's entry hands to yargs.
    assert.match(repo.cli(['--version']).stdout, /^\d+\.\d+\.\d+/);
    const help = repo.cli(['run', '--help']);
    assert.is(help.code, 0, help.out);
    assert.match(help.stdout, /--base/);
  }));

test.run();
