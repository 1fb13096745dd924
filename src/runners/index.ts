/**
 * Every runner gate-ladder knows, one record each (record.ts), under the names of config/runner-names.ts
 * (which also holds their default `caught` codes, so that a config loads without these records).
 * `gate-ladder help config`, detection and docs/verdicts.md's list derive from them. Pure.
 */
import { record as ava } from './tests/ava.js';
import { record as biome } from './checks/biome.js';
import { record as cargo } from './tests/cargo.js';
import { record as eslint } from './checks/eslint.js';
import { record as flake8 } from './checks/flake8.js';
import { record as go } from './tests/go.js';
import { record as jasmine } from './tests/jasmine.js';
import { record as jest } from './tests/jest.js';
import { record as mocha } from './tests/mocha.js';
import { record as nextest } from './tests/nextest.js';
import { record as node } from './tests/node.js';
import { record as playwright } from './tests/playwright.js';
import { record as prettier } from './checks/prettier.js';
import { record as pytest } from './tests/pytest.js';
import { record as ruff } from './checks/ruff.js';
import { record as tap } from './tests/tap.js';
import { record as tape } from './tests/tape.js';
import { record as tsc } from './checks/tsc.js';
import { record as unittest } from './tests/unittest.js';
import { record as uvu } from './tests/uvu.js';
import { record as vitest } from './tests/vitest.js';
import { RUNNER_NAMES, type RunnerName } from '../config/runner-names.js';
import type { RunnerRecord } from './record.js';

/** Each record under its name: the type checks that every name of the table has its record, under its own name. */
export const RUNNERS: { readonly [N in RunnerName]: RunnerRecord<N> } = {
  pytest,
  jest,
  vitest,
  mocha,
  node,
  uvu,
  go,
  cargo,
  nextest,
  playwright,
  unittest,
  ava,
  jasmine,
  tap,
  tape,
  tsc,
  eslint,
  prettier,
  biome,
  ruff,
  flake8,
};

/** The records in the table's order (config/runner-names.ts): the order detection tries them in. */
export const RECORDS: readonly RunnerRecord[] = RUNNER_NAMES.map((n): RunnerRecord => RUNNERS[n]);

/** The record of a config's or a detection's runner name. */
export function runnerRecord(name: RunnerName): RunnerRecord {
  return RUNNERS[name];
}
