// What `npm run test:mutation` (StrykerJS, stryker.config.json) runs once per mutant, in its sandbox,
// after scripts/mutation-build.mjs: the unit tests of the module that holds the active mutant (Stryker
// names it in __STRYKER_ACTIVE_MUTANT__), in this process, stopping at the first failure. Without an
// active mutant (Stryker's first, unmutated run) the unit tests of every module. GL_MUTATION=1 lets the
// generated-input tests use a sample of their inputs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Each mutated module (stryker.config.json `mutate`) and the unit tests that pin its behaviour. */
export const TESTS = {
  'route/route': ['route'],
  'util/glob': ['glob'],
  'verdict/verdict': ['verdict', 'report-verdict', 'runners', 'runner-captures'],
  'verdict/runner-output': ['runners', 'runner-profiles', 'runner-captures', 'verdict', 'report-verdict'],
  'verdict/fault': ['fault'],
  'route/calibrate': ['calibrate'],
  'report/figures': ['report', 'report-model', 'render-report', 'report-html'],
  'report/advice': ['report', 'report-model'],
  'report/order': ['order', 'report-model', 'report'],
  'evidence/freeze': ['freeze'],
  'ledger/predict': ['predict'],
  'git/push-refs': ['push-refs', 'targets'],
};

const active = process.env.__STRYKER_ACTIVE_MUTANT__;
let names;
if (active === undefined) names = [...new Set(Object.values(TESTS).flat())];
else {
  const module = JSON.parse(readFileSync('build/mutants.json', 'utf8'))[active];
  names = TESTS[module];
  if (names === undefined)
    throw new Error(`mutant ${active}: in ${module ?? 'no known module'}, which has no tests listed in scripts/mutation-tests.mjs`);
}

// A mutant that loops forever would cost a whole timeout (seconds): Stryker's instrumented code throws
// once the active mutant has run `hitLimit` times, which fails the test at once. The unmutated run
// writes how often each mutant ran (build/hits.json); a mutant may run ten times as often, and at
// least 10,000 times, before it counts as looping. The unit tests are deterministic (the sampled
// inputs too), so a mutant whose tests pass runs about as often as the unmutated code did.
const limit = (hits) => Math.max(10_000, 10 * hits);
const ns = (globalThis.__stryker__ ??= {});
if (active !== undefined) {
  const hits = existsSync('build/hits.json') ? (JSON.parse(readFileSync('build/hits.json', 'utf8'))[active] ?? 0) : 100_000;
  Object.assign(ns, { activeMutant: active, hitCount: 0, hitLimit: limit(hits) });
}

process.env.GL_MUTATION = '1';
process.env.NO_COLOR = '1';
const { run } = await import('uvu/run');
await run(
  names.map((n) => ({ name: `${n}.test.js`, file: resolve('build/test/unit', `${n}.test.js`) })),
  { bail: true },
);

if (active === undefined) writeFileSync('build/hits.json', JSON.stringify(ns.mutantCoverage?.static ?? {}));
