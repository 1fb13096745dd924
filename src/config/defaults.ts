import type { HookName } from '../types.js';

/**
 * Test-adjacent paths: the seed's markers plus the usual JavaScript, Python, Go and Ruby layouts, as
 * globs. Each names whole path segments (`test/`, not a "test" anywhere): `latest/`, `contests/`,
 * `protest.py` and `attestation.ts` are not tests. pyproject.toml and setup.cfg count by their path: they
 * may hold the test runner's config (`[tool.pytest.ini_options]`, `[tool:pytest]`), and a router that reads
 * paths only cannot see which part changed; counting them costs only the early answer of the tiers that
 * skip when tests move (the full tier still judges).
 */
export const defaultScope: readonly string[] = [
  '**/conftest.py',
  '**/pytest.ini',
  '**/tox.ini',
  '**/fixtures/**',
  '**/tests/**',
  '**/test/**',
  '**/test_*',
  '**/__tests__/**',
  '**/__snapshots__/**',
  '**/__fixtures__/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/{vitest,jest,vite}.config.*',
  '**/vitest.{workspace,setup}.*',
  '**/jest.setup.*',
  '**/*_test.*',
  '**/*_spec.rb',
  '**/spec/**',
  '**/testdata/**',
  '**/__mocks__/**',
  '**/*_tests/**',
  '**/*-tests/**',
  '**/tests_*/**',
  '**/pyproject.toml',
  '**/setup.cfg',
];

export const DEFAULT_TIMEOUT_S = 600;
/** The longest timeout Node's timers can wait (2^31 - 1 ms); a longer one fires at once. */
export const MAX_TIMEOUT_S = 2147483;
export const DEFAULT_HOOKS: readonly HookName[] = ['pre-push', 'manual', 'replay', 'seed'];
/** The ledger keeps at most this many paths per row; `files_count` has the total. */
export const MAX_FILES_PER_ROW = 1000;
/** The failed tests' ids one ledger row keeps (`failed`; the rest are in tests.jsonl, or counted by `failed_total`). */
export const MAX_FAILED_PER_ROW = 100;
/** The failed tests one ledger row names with their place and message (`failed_tests`). */
export const MAX_FAILED_TESTS_PER_ROW = 10;
/** How much of a gate's output is kept for messages and for reading its runner's summary (a stack trace above it can be long). */
export const TAIL_BYTES = 64 * 1024;
export const ZERO_SHA = '0000000000000000000000000000000000000000';

/**
 * Every exit code of every command, the one table (docs/architecture.md, "Exit codes"): commands return
 * `EXIT.x`, never a number. `pass` 0: allowed (a push goes on; a command did what it was asked,
 * catches and errors it recorded being data); `caught` 1: a gate caught the patch (run, ci, judge;
 * seed and flaky when their evidence is missing); `error` 2: no verdict could be given, or the
 * command could not do its work: the harness, the config, the range, the arguments, git, the ledger;
 * `internal` 3: a fault of gate-ladder's own (the stack is printed: report it); `interrupted` 130:
 * Ctrl-C (128 + SIGINT, as a shell says it).
 */
export const EXIT = { pass: 0, caught: 1, error: 2, internal: 3, interrupted: 130 } as const;

/** Where a config may live, in the order they are tried (cosmiconfig search places). */
export const SEARCH_PLACES = [
  'gate-ladder.config.ts',
  'gate-ladder.config.mts',
  'gate-ladder.config.js',
  'gate-ladder.config.mjs',
  'gate-ladder.config.cjs',
  '.gate-ladderrc',
  '.gate-ladderrc.json',
  '.gate-ladderrc.yaml',
  '.gate-ladderrc.yml',
  'package.json',
] as const;
