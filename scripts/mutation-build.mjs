// The build `npm run test:mutation` (StrykerJS, stryker.config.json) makes once, in its sandbox, of the
// sources it has instrumented: esbuild transpiles src/, test/unit/ and test/helpers/ file by file to
// build/ (no bundling, no type check: about a second, where tsc takes half a minute and would refuse
// the mutants' types). scripts/stryker-uvu-runner.mjs runs the unit tests from there.
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

// The unit tests take uvu's `test` and `suite` from scripts/mutation-uvu.mjs, which lets the runner
// skip the tests of a suite that do not reach the mutant.
const unit = 'build/test/unit';
for (const f of readdirSync(unit).filter((f) => f.endsWith('.js'))) {
  const text = readFileSync(join(unit, f), 'utf8');
  writeFileSync(join(unit, f), text.replace(/ from "uvu";/g, ' from "../../../scripts/mutation-uvu.mjs";'));
}
