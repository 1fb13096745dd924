// Builds the shipped code (dist/) with esbuild, the declarations with tsc, and the test build (build/).
//
// The shipped code is the source the unit tests run, bundled and nothing else: two esbuild ES module
// builds of it with code splitting (below: the run's, and every other command's); what is added is a
// `require` for the files that call it, and the path of the run's one import of the commands' entry;
// what is moved is the run's top-level functions, written as parenthesized expressions where their
// declarations were hoisted to, so V8 compiles them with their file (eagerFunctions, below).
// Each `await import()` in src/ becomes a chunk loaded when that line runs, as it is when the unit tests
// run the tsc build.
//
//   dist/cli.mjs          src/bin.ts: turns on Node's compile cache where Node has one, then `run`
//                         (dist/run/) or any other command (dist/commands.mjs)
//   dist/cli.cjs          the bin (package.json, and the hook line `install` writes): loads dist/cli.mjs
//   dist/cli.js           earlier versions' ES entry: imports dist/cli.mjs
//   dist/run/*.mjs        `run`'s modules (src/cli/entry.ts and what it loads), split by what a run needs
//   dist/commands.mjs     src/cli/commands.ts: every other command, through yargs
//   dist/index.mjs        src/index.ts: the library (`defineConfig`, `defaultScope`), its few chunks only
//   dist/chunks/*.mjs     the modules the commands and the library share or load on demand (in either
//                         build, the config loader's worker thread runs the chunk that holds
//                         src/config/load-worker.ts: new Worker(import.meta.url))
import { build } from 'esbuild';
import ts from 'typescript';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

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

// Two builds of the same source, each bundled and split on its own: `run`, which every push and commit
// starts (src/bin.ts → src/cli/entry.ts, into dist/run/), and every other command with the library
// (src/cli/commands.ts, src/index.ts, into dist/chunks/). esbuild makes one file per set of entry points
// (each `await import()` is one) that share a module; in one build the other commands' entries split the
// run's modules into about 50 such files, each costing the push Node's module loader. The modules both
// use are written twice; no process loads both copies (`run` reaches the commands' build only through
// dist/commands.mjs, for what its own parser leaves to yargs, and then uses nothing of its own build).
const COMMANDS = 'commands.mjs';
const shared = {
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
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
};
// In the run's build, src/cli/commands.ts is the other build's entry: left as an import of dist/commands.mjs.
const commandsEntry = {
  name: 'commands-entry',
  setup(b) {
    b.onResolve({ filter: /(^|\/)commands\.js$/ }, (a) =>
      /src\/(bin|cli\/entry)\.ts$/.test(a.importer) ? { path: COMMANDS, external: true } : undefined,
    );
  },
};
const runBuild = { ...shared, entryPoints: { cli: 'src/bin.ts' }, chunkNames: 'run/[name]-[hash]' };
const ENTRY = 'src/cli/entry.ts';
// esbuild puts each module in a file per set of entries reaching it, and each `await import()` of the run
// is an entry sharing a different few of the push's modules: 20 small files where one would do, each
// costing every push Node's module loader (about 1 M instructions a file). Every module a push loads
// before its first `await import()` (the static closure of src/cli/entry.ts) is loaded whenever any of
// the run's later chunks is, so entry.ts and each such chunk are given one more import, of that closure
// (the module `push-path`): its modules then share one set of entries, and one file. At run time the
// import adds nothing: every module in it has been evaluated already. The config loader's worker thread
// (load-worker.ts, load.ts) is left out: it starts with nothing loaded. A tree-cached push then loads 6
// files, not 23 (docs/performance.md).
const probe = await build({ ...runBuild, plugins: [commandsEntry], metafile: true });
const { inputs } = probe.metafile;
const lazy = new Set(
  Object.values(inputs).flatMap((i) => i.imports.filter((m) => m.kind === 'dynamic-import' && !m.external).map((m) => m.path)),
);
const closure = new Set();
const walk = (path) => {
  if (closure.has(path)) return;
  closure.add(path);
  for (const m of inputs[path]?.imports ?? []) if (m.kind === 'import-statement' && !m.external) walk(m.path);
};
walk(ENTRY);
closure.delete(ENTRY);
const WORKER = new Set(['src/config/load-worker.ts', 'src/config/load.ts']);
// A renamed worker module would quietly get the import (and the worker load the push's modules): say so instead.
for (const path of WORKER)
  if (!lazy.has(path)) throw new Error(`scripts/build.mjs: ${path} is no longer an await import() of the run; update WORKER`);
const pushPath = {
  name: 'push-path',
  setup(b) {
    b.onResolve({ filter: /^push-path$/ }, () => ({ path: 'push-path', namespace: 'push-path' }));
    b.onLoad({ filter: /.*/, namespace: 'push-path' }, () => ({
      contents: [...closure].map((p) => `import ${JSON.stringify(resolve(p))};`).join('\n'),
      loader: 'js',
      resolveDir: process.cwd(),
    }));
    b.onLoad({ filter: /\.ts$/ }, (a) => {
      const path = relative(process.cwd(), a.path);
      if (!(lazy.has(path) || path === ENTRY) || WORKER.has(path)) return undefined;
      return { contents: `${readFileSync(a.path, 'utf8')}\nimport 'push-path';\n`, loader: 'ts' };
    });
  },
};
const builds = await Promise.all([
  build({ ...runBuild, plugins: [commandsEntry, pushPath] }),
  build({ ...shared, entryPoints: { commands: 'src/cli/commands.ts', index: 'src/index.ts' }, chunkNames: 'chunks/[name]-[hash]' }),
]);
// Bundled CommonJS dependencies (yargs, cosmiconfig...) call require(): the files that name it get one.
// The others, most of a push's, do without: a createRequire per file costs every push a path resolution
// per file. Through process.getBuiltinModule, not an ES import of node:module, whose facade would load
// its source-map parts (src/util/node.ts).
const REQUIRE = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);\n";
const [runFiles, commandFiles] = builds.map((b) => b.outputFiles);
const eager = eagerFunctions(runFiles);
for (const file of [...runFiles, ...commandFiles]) {
  mkdirSync(dirname(file.path), { recursive: true });
  // In the run's build, its import of the commands' entry, relative to the file it is in.
  const toCommands = relative(dirname(file.path), resolve('dist', COMMANDS));
  const text = runFiles.includes(file)
    ? eager(file).replaceAll(`"${COMMANDS}"`, JSON.stringify(toCommands.startsWith('.') ? toCommands : `./${toCommands}`))
    : file.text;
  writeFileSync(file.path, /\brequire\b/.test(text) ? REQUIRE + text : text);
}

/**
 * The run's top-level functions, compiled with their module and so kept in Node's compile cache.
 * Node 22.1+ caches what V8 compiled when it compiled a module, and V8 compiles a function declaration
 * only when it is first called: each push compiled again every function it called (a third of a
 * tree-cached push's instructions on Node 24 went to V8's lazy compiler). A function expression in
 * parentheses is compiled at once (V8's heuristic for a function about to be called), so each
 * top-level `function f() {}` is written `var f = (function f() {});`, first in its file, where its
 * declaration was hoisted to: the module's own code sees every function defined, as before. What
 * differs: another module could call one before this module ran only through an import cycle, and the
 * run's files have none (checked here). Node 20, with no compile cache, compiles these functions on
 * every run (docs/performance.md has both figures). Returns the file's new text; pure in the text.
 */
function eagerFunctions(files) {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const imports = (f) =>
    [...f.text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)";|^import\s*"(\.[^"]+)";/gms)]
      .map((m) => resolve(dirname(f.path), m[1] ?? m[2]))
      .filter((p) => byPath.has(p));
  const state = new Map();
  const visit = (path, stack) => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'open')
      throw new Error(
        `scripts/build.mjs: the run's files import in a cycle (${[...stack, path].map((p) => relative('dist', p)).join(' → ')}): eagerFunctions would break it`,
      );
    state.set(path, 'open');
    for (const p of imports(byPath.get(path))) visit(p, [...stack, path]);
    state.set(path, 'done');
  };
  for (const f of files) visit(f.path, []);
  return (file) => {
    const sf = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
    const moved = [];
    const rest = [];
    let at = 0;
    for (const s of sf.statements) {
      if (!ts.isFunctionDeclaration(s) || !s.name || !s.body || s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const start = s.getStart(sf);
      moved.push(`var ${s.name.text} = (${file.text.slice(start, s.end)});\n`);
      rest.push(file.text.slice(at, start));
      at = s.end;
    }
    if (moved.length === 0) return file.text;
    rest.push(file.text.slice(at));
    return moved.join('') + rest.join('');
  };
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
