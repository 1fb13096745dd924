// Builds the shipped code (dist/) with esbuild, the declarations with tsc, and the test build (build/).
//
// The shipped code is the source the unit tests run, bundled and nothing else: one esbuild ES module
// build with code splitting, no plugin; the one line added is a `require` for the files that call it. Each `await import()` in src/ becomes
// a chunk loaded when that line runs, as it is when the unit tests run the tsc build.
//
//   dist/cli.mjs          src/bin.ts: turns on Node's compile cache where Node has one, then the CLI
//   dist/cli.cjs          the bin (package.json, and the hook line `install` writes): loads dist/cli.mjs
//   dist/cli.js           earlier versions' ES entry: imports dist/cli.mjs
//   dist/index.mjs        src/index.ts: the library (`defineConfig`, `defaultScope`), its few chunks only
//   dist/chunks/*.mjs     the modules the entries share or load on demand (the config loader's worker
//                         thread runs the chunk that holds src/config/load-worker.ts: new Worker(import.meta.url))
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

rmSync('dist', { recursive: true, force: true });
rmSync('build', { recursive: true, force: true });

// The config cache keys on this: a new build never trusts a config resolved by another one.
const sources = readdirSync('src', { recursive: true })
  .filter((f) => f.endsWith('.ts'))
  .sort();
const hash = createHash('sha256').update(readFileSync('package.json'));
for (const f of sources) hash.update(f).update(readFileSync(join('src', f)));
const BUILD = JSON.stringify(hash.digest('hex').slice(0, 16));
const VERSION = JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version);

const built = await build({
  entryPoints: { cli: 'src/bin.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node20',
  // Runtime dependencies stay in node_modules: husky copies its own files, jiti is loaded only for a
  // config the cache has not seen, picomatch only for a glob the shortcuts of util/glob.ts do not
  // answer, lint-staged is the user's own.
  external: ['husky', 'jiti', 'picomatch', 'typescript', 'lint-staged'],
  define: { __GATE_LADDER_BUILD__: BUILD, __GATE_LADDER_VERSION__: VERSION },
  legalComments: 'none',
  logLevel: 'warning',
  // .mjs: Node knows an ES module by its name, and does not look up package.json's `type` for each file a push loads.
  outExtension: { '.js': '.mjs' },
  write: false,
});
// Bundled CommonJS dependencies (yargs, cosmiconfig...) call require(): the files that name it get one.
// The others, most of a push's, do without: a createRequire per file costs every push a path resolution
// per file. Through process.getBuiltinModule, not an ES import of node:module, whose facade would load
// its source-map parts (src/util/node.ts).
const REQUIRE = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);\n";
for (const file of built.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, /\brequire\b/.test(file.text) ? REQUIRE + file.text : file.text);
}
// A CommonJS file can be the bin whatever the package's type, and hooks installed by earlier versions name it.
// It turns on Node's compile cache (Node 22.1+, public `module.enableCompileCache`) before anything of
// ours loads, so every module of the run, dist/cli.mjs included, is compiled once and then read from it.
writeFileSync(
  'dist/cli.cjs',
  [
    '#!/usr/bin/env node',
    "'use strict';",
    "const m = require('node:module');",
    "if (typeof m.enableCompileCache === 'function') m.enableCompileCache();",
    "import('./cli.mjs');",
    '',
  ].join('\n'),
);
chmodSync('dist/cli.cjs', 0o755);
// Earlier versions' ES entry, kept for setups that start it by path (an MCP client's config, a script).
writeFileSync('dist/cli.js', "import './cli.mjs';\n");

const tsc = ['node_modules/typescript/bin/tsc'];
// The test build and the declarations at once: two independent tsc processes, one per core here.
const tscRun = (project) =>
  new Promise((resolve, reject) =>
    spawn('node', [...tsc, '-p', project], { stdio: 'inherit' })
      .on('error', reject)
      .on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p ${project} exited ${code}`)))),
  );
await Promise.all([tscRun('tsconfig.json'), tscRun('tsconfig.types.json')]);
