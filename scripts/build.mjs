// Builds the shipped bundles (dist/) with esbuild, the declarations with tsc, and the test build (build/).
//
//   dist/cli.cjs          the bin: a few lines (scripts/cli-loader.cjs) that run dist/hook.cjs through a
//                         V8 code cache
//   dist/hook.cjs         `run` and everything a push needs, CommonJS (node starts CommonJS
//                         faster than an ES module graph), no yargs, zod, cosmiconfig or jiti in it
//   dist/full/*.js        ES modules loaded on demand: the yargs CLI (other commands, --help), the
//                         config loader (a config-cache miss), JUnit reading, per-test history and lint-staged tiers,
//                         with shared chunks in dist/full/chunks
//   dist/picomatch.cjs    loaded only for a scope glob src/util/glob.ts has no string test for
//   dist/index.js         the library (`defineConfig`, types, pure functions)
//   dist/cli.js           the previous bin path, kept for hooks installed by earlier versions
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

rmSync('dist', { recursive: true, force: true });
rmSync('build', { recursive: true, force: true });

// The config cache keys on this: a new build never trusts a config resolved by another one.
const sources = readdirSync('src', { recursive: true }).filter((f) => f.endsWith('.ts')).sort();
const hash = createHash('sha256').update(readFileSync('package.json'));
for (const f of sources) hash.update(f).update(readFileSync(join('src', f)));
const BUILD = JSON.stringify(hash.digest('hex').slice(0, 16));
const VERSION = JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version);

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Runtime dependencies stay in node_modules: husky copies its own files, jiti is loaded only for a config
  // the cache has not seen, typescript is never needed (cosmiconfig's own TypeScript loader is replaced).
  external: ['husky', 'jiti', 'typescript', 'lint-staged'],
  define: { __GATE_LADDER_BUILD__: BUILD, __GATE_LADDER_VERSION__: VERSION },
  legalComments: 'none',
  logLevel: 'warning',
};
const esm = {
  ...common,
  format: 'esm',
  banner: { js: "import { createRequire as __gl_cr } from 'node:module'; const require = __gl_cr(import.meta.url);" },
};

/**
 * In the hot bundle, the yargs CLI, the config loader and the JUnit parser stay outside, as dist/full/*.js;
 * picomatch, node:child_process and node:os load on first use (scripts/lazy-*.cjs).
 */
const coldOutside = {
  name: 'cold-outside',
  setup(b) {
    // Loaded on demand: the yargs CLI, the config loader (cache miss), JUnit reading and lint-staged tiers.
    const cold = { 'cli/main': 'cli', 'config/load': 'config', 'config/load-worker': 'config-worker', 'evidence/junit': 'junit', 'evidence/json-report': 'json-report', 'evidence/history-store': 'history', 'ladder/lint-staged': 'lint-staged' };
    b.onResolve({ filter: /^\.\.?\/.*(main|load|load-worker|junit|json-report|history-store|lint-staged)\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const key = Object.keys(cold).find((k) => join(args.resolveDir, args.path) === join(process.cwd(), 'src', `${k}.js`));
      return key ? { path: `./full/${cold[key]}.js`, external: true } : undefined;
    });
    b.onResolve({ filter: /^picomatch$/ }, () => ({ path: join(process.cwd(), 'scripts', 'lazy-picomatch.cjs') }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.endsWith('lazy-child-process.cjs') ? { path: 'node:child_process', external: true } : { path: join(process.cwd(), 'scripts', 'lazy-child-process.cjs') });
    b.onResolve({ filter: /^node:tty$/ }, (args) =>
      args.importer.endsWith('lazy-tty.cjs') ? { path: 'node:tty', external: true } : { path: join(process.cwd(), 'scripts', 'lazy-tty.cjs') });
    b.onResolve({ filter: /^node:os$/ }, (args) =>
      args.importer.endsWith('lazy-os.cjs') ? { path: 'node:os', external: true } : { path: join(process.cwd(), 'scripts', 'lazy-os.cjs') });
    b.onResolve({ filter: /^\.\/picomatch\.cjs$/ }, () => ({ path: './picomatch.cjs', external: true }));
  },
};

await build({
  ...common,
  format: 'cjs',
  entryPoints: ['src/bin.ts'],
  outfile: 'dist/hook.cjs',
  plugins: [coldOutside],
});
// The loader compiles the bundle with node:vm (to use a code cache), where import() cannot run: the
// bundle's dynamic imports, all of them the cold parts in dist/full/, call the loader's instead.
const hook = readFileSync('dist/hook.cjs', 'utf8');
const cold = hook.match(/\bimport\("\.\/full\//g)?.length ?? 0;
const swapped = hook.replace(/\bimport\("\.\/full\//g, '__glImport("./full/');
if (cold === 0 || /\bimport\(/.test(swapped)) throw new Error('dist/hook.cjs: a dynamic import outside ./full/ would fail under scripts/cli-loader.cjs');
// Shipped already wrapped as the function the loader calls, so that it compiles the file's text as it
// is (no joined copy of 100 KB to make first), and named in the loader by its content: V8 checks a
// code cache against the source's length only, so a cache made for another build must never match.
const wrapped = `(function (exports, require, module, __filename, __dirname, __glImport, __glHotPath) {${swapped}\n})`;
writeFileSync('dist/hook.cjs', wrapped);
const hookHash = createHash('sha256').update(wrapped).digest('hex').slice(0, 16);
const loader = readFileSync('scripts/cli-loader.cjs', 'utf8');
if (!loader.includes('__HOOK_HASH__')) throw new Error('scripts/cli-loader.cjs: no __HOOK_HASH__ to fill in');
writeFileSync('dist/cli.cjs', `#!/usr/bin/env node\n${loader.replaceAll('__HOOK_HASH__', hookHash)}`);
await build({ ...common, format: 'cjs', entryPoints: ['node_modules/picomatch/index.js'], outfile: 'dist/picomatch.cjs' });
await build({
  ...esm,
  entryPoints: {
    'full/cli': 'src/cli/main.ts',
    'full/config': 'src/config/load.ts',
    'full/config-worker': 'src/config/load-worker.ts',
    'full/junit': 'src/evidence/junit.ts',
    'full/json-report': 'src/evidence/json-report.ts',
    'full/history': 'src/evidence/history-store.ts',
    'full/lint-staged': 'src/ladder/lint-staged.ts',
  },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'full/chunks/[name]-[hash]',
});
await build({ ...esm, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
writeFileSync('dist/cli.js', "#!/usr/bin/env node\nimport './cli.cjs';\n");
chmodSync('dist/cli.cjs', 0o755);
chmodSync('dist/cli.js', 0o755);

const tsc = ['node_modules/typescript/bin/tsc'];
// The test build and the declarations at once: two independent tsc processes, one per core here.
const tscRun = (project) =>
  new Promise((resolve, reject) =>
    spawn('node', [...tsc, '-p', project], { stdio: 'inherit' }).on('error', reject).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p ${project} exited ${code}`)))),
  );
await Promise.all([tscRun('tsconfig.json'), tscRun('tsconfig.types.json')]);
