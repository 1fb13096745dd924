/**
 * Every runner's record (record.ts: how its output and exit codes read), one file each, loaded on
 * demand: a push loads only the records of the runners its tiers run, before anything of verdict/ reads
 * them (run/ladder.ts). How a command is known to be a runner is in identities.ts, which loads none.
 * `gate-ladder help config`, detection and docs/verdicts.md's list derive from both. Pure.
 */
import { RUNNER_NAMES, type RunnerName } from '../config/runner-names.js';
import type { RunnerRecord } from './record.js';

/** Each record's file under its name: the type checks that every name of the table has its record, under its own name. */
const FILES: { readonly [N in RunnerName]: () => Promise<{ record: RunnerRecord<N> }> } = {
  pytest: () => import('./tests/pytest.js'),
  jest: () => import('./tests/jest.js'),
  vitest: () => import('./tests/vitest.js'),
  mocha: () => import('./tests/mocha.js'),
  node: () => import('./tests/node.js'),
  uvu: () => import('./tests/uvu.js'),
  go: () => import('./tests/go.js'),
  cargo: () => import('./tests/cargo.js'),
  nextest: () => import('./tests/nextest.js'),
  playwright: () => import('./tests/playwright.js'),
  unittest: () => import('./tests/unittest.js'),
  ava: () => import('./tests/ava.js'),
  jasmine: () => import('./tests/jasmine.js'),
  tap: () => import('./tests/tap.js'),
  tape: () => import('./tests/tape.js'),
  tsc: () => import('./checks/tsc.js'),
  eslint: () => import('./checks/eslint.js'),
  prettier: () => import('./checks/prettier.js'),
  biome: () => import('./checks/biome.js'),
  ruff: () => import('./checks/ruff.js'),
  flake8: () => import('./checks/flake8.js'),
  govet: () => import('./checks/govet.js'),
  clippy: () => import('./checks/clippy.js'),
  'cargo-check': () => import('./checks/cargo-check.js'),
  rustfmt: () => import('./checks/rustfmt.js'),
};

const loaded = new Map<RunnerName, RunnerRecord>();

/** Loads the records of `names`, each once: what verdict/ will read of them must be loaded first. */
export async function loadRecords(names: Iterable<RunnerName>): Promise<void> {
  const missing = [...new Set(names)].filter((n) => !loaded.has(n));
  for (const { record } of await Promise.all(missing.map((n) => FILES[n]()))) loaded.set(record.name, record);
}

/** Every record, in the table's order (config/runner-names.ts): for docs/verdicts.md, `help config` and the tests. */
export async function allRecords(): Promise<readonly RunnerRecord[]> {
  await loadRecords(RUNNER_NAMES);
  return RUNNER_NAMES.map(runnerRecord);
}

/** The record of a config's or a detection's runner name, loaded by `loadRecords` before. */
export function runnerRecord<N extends RunnerName>(name: N): RunnerRecord<N> {
  const record = loaded.get(name);
  if (record === undefined)
    throw new Error(`gate-ladder: the record of ${name} was read before it was loaded (runners/index.ts loadRecords)`);
  return record as RunnerRecord<N>;
}
