/**
 * Every runner gate-ladder knows, by name, with the exit codes that mean "a test failed" for it when a
 * tier lists no `caught` of its own (none here: [1]). The config's `runner` values, `RunnerName` and the
 * name of each record in src/runners/ (which holds the rest of what is known of it) come from this
 * table; its order is the order the config's error lists them in, and the order detection tries the
 * records. It sits at config's layer so that reading a config loads no runner record. Pure: imports nothing.
 */
const TABLE = {
  pytest: undefined,
  jest: undefined,
  vitest: undefined,
  // mocha exits with the number of failed tests (at most 255).
  mocha: () => Array.from({ length: 255 }, (_, i) => i + 1),
  node: undefined,
  uvu: undefined,
  go: undefined,
  // cargo test exits 101 when a test failed (a panic's exit code).
  cargo: () => [101],
  nextest: () => [100],
  playwright: undefined,
  unittest: undefined,
  ava: undefined,
  // jasmine exits 3 when specs failed (1: a file or its config could not load, 2: incomplete, 4: process.exit).
  jasmine: () => [3],
  tap: undefined,
  tape: undefined,
  tsc: undefined,
  eslint: undefined,
  prettier: undefined,
  biome: undefined,
  ruff: undefined,
  flake8: undefined,
  // go vet exits 2 for its findings (go 1.19 and later; 1 in some releases).
  govet: () => [1, 2],
  // clippy and cargo check exit 101 for a lint denied as an error (a finding) and for a compile error (their output tells which).
  clippy: () => [101],
  'cargo-check': () => [101],
  rustfmt: undefined,
} as const satisfies Record<string, (() => number[]) | undefined>;

/** Runners whose exit codes, output and reports gate-ladder knows how to read: one record each in src/runners/. */
export type RunnerName = keyof typeof TABLE;

export const RUNNER_NAMES = Object.keys(TABLE) as [RunnerName, ...RunnerName[]];

/** Exit codes that mean "a test failed" for a runner, when the tier does not list its own (a fresh array; undefined: [1]). */
export function runnerCaught(name: RunnerName): number[] | undefined {
  const caught: (() => number[]) | undefined = TABLE[name];
  return caught?.();
}
