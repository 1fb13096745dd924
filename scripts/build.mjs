// Builds the shipped bundles (dist/) with esbuild, the declarations with tsc, and the test build (build/).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
rmSync('build', { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Runtime dependencies stay in node_modules: husky copies its own files, jiti is loaded only for a .ts config
  // the cache has not seen, typescript is never needed (cosmiconfig's own TypeScript loader is replaced).
  external: ['husky', 'jiti', 'typescript', 'lint-staged'],
  banner: { js: "import { createRequire as __gl_cr } from 'node:module'; const require = __gl_cr(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/bin.ts'], outfile: 'dist/cli.js', splitting: false,
  banner: { js: `#!/usr/bin/env node\n${common.banner.js}` } });
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
chmodSync('dist/cli.js', 0o755);

const tsc = ['node_modules/typescript/bin/tsc'];
execFileSync('node', [...tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
execFileSync('node', [...tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
