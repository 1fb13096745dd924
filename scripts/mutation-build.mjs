// The build `npm run test:mutation` (StrykerJS, stryker.config.json) makes once, in its sandbox, of the
// sources it has instrumented: esbuild transpiles src/, test/unit/ and test/helpers/ file by file to
// build/ (no bundling, no type check: about a second, where tsc takes half a minute), and
// build/mutants.json records which module holds each mutant, so that scripts/mutation-tests.mjs runs
// only that module's unit tests.
import { build } from 'esbuild';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

rmSync('build', { recursive: true, force: true });
const ts = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
const entryPoints = [...ts('src'), ...ts('test/unit'), ...ts('test/helpers')];
await build({ entryPoints, outdir: 'build', outbase: '.', format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });

// Stryker's mutant schemata switch each mutant on by its id: `stryMutAct_9fa48("42")`.
const mutants = {};
for (const f of ts('src')) {
  const module = f.slice('src/'.length, -'.ts'.length);
  for (const m of readFileSync(f, 'utf8').matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)) mutants[m[1]] = module;
}
writeFileSync('build/mutants.json', JSON.stringify(mutants));
