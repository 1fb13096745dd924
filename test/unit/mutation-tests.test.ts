/**
 * `npm run test:mutation` reruns a fixed list of unit test files against each mutant
 * (scripts/mutation-tests.json, read by scripts/stryker-uvu-runner.mjs). A unit test written for a
 * mutated module but missing from that list would let its mutants survive unseen: every unit test
 * that imports a module of stryker.config.json's `mutate` is listed, run or left out with why.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';

const config = JSON.parse(readFileSync(join(PROJECT, 'stryker.config.json'), 'utf8')) as { mutate: string[] };
const lists = JSON.parse(readFileSync(join(PROJECT, 'scripts/mutation-tests.json'), 'utf8')) as {
  run: string[];
  notRun: Record<string, string>;
};
const UNIT = join(PROJECT, 'test/unit');
const modules = config.mutate.map((f) => f.replace(/^src\//, '').replace(/\.ts$/, ''));

/** The unit test files (names without `.test.ts`) that import `src/<module>.js`. */
const importers = (module: string) =>
  readdirSync(UNIT)
    .filter((f) => f.endsWith('.test.ts') && readFileSync(join(UNIT, f), 'utf8').includes(`/src/${module}.js'`))
    .map((f) => f.slice(0, -'.test.ts'.length));

test('every unit test of a mutated module is run against its mutants, or left out with a reason', () => {
  const listed = new Set([...lists.run, ...Object.keys(lists.notRun)]);
  const missing = modules.flatMap((m) =>
    importers(m)
      .filter((t) => !listed.has(t))
      .map((t) => `${t} (imports ${m})`),
  );
  assert.equal(missing, [], 'add them to scripts/mutation-tests.json');
});

test('each mutated module is tested by at least one listed file that is run', () => {
  const run = new Set(lists.run);
  assert.equal(
    modules.filter((m) => !importers(m).some((t) => run.has(t))),
    [],
  );
});

test('the listed files exist, appear once, and each left-out file says why', () => {
  const all = [...lists.run, ...Object.keys(lists.notRun)];
  assert.equal(
    all.filter((t) => !existsSync(join(UNIT, `${t}.test.ts`))),
    [],
  );
  assert.is(new Set(all).size, all.length);
  for (const [t, why] of Object.entries(lists.notRun)) assert.ok(why.length > 20, `${t}: say why it is left out`);
});

test.run();
