/**
 * Every runner gate-ladder knows, one record each (record.ts). `RunnerName`, the config's `runner`
 * values and default `caught` codes, `gate-ladder help config` and docs/verdicts.md's list derive from
 * this list; its order is the order the config's error lists them in. Pure.
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
import type { RunnerRecord } from './record.js';

export const RECORDS = [
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
] as const;

/** Runners whose exit codes, output and reports gate-ladder knows how to read. */
export type RunnerName = (typeof RECORDS)[number]['name'];

export const RUNNER_NAMES = RECORDS.map((r) => r.name) as unknown as readonly [RunnerName, ...RunnerName[]];

export const RUNNERS: Readonly<Record<RunnerName, RunnerRecord>> = Object.fromEntries(RECORDS.map((r) => [r.name, r])) as Record<
  RunnerName,
  RunnerRecord
>;

/** The record of a config's or a detection's runner name. */
export function runnerRecord(name: RunnerName): RunnerRecord {
  return RUNNERS[name];
}

/** Exit codes that mean "a test failed" for a runner, when the tier does not list its own. */
export function runnerCaught(name: RunnerName): number[] | undefined {
  return RUNNERS[name].caught?.();
}
