/**
 * Each runner profile read on the outputs it is written for, whole readings compared: the summary line
 * and every count, what cannot run and which line says so, no tests. Outputs trimmed to the lines that
 * matter, in the runners' own shapes (docs/verdicts.md lists the cases run against the real runners).
 * Written when mutation testing (docs/testing.md) showed the profiles' counts and line choices unpinned.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allProfiles, type Reading, keepFor, managerFailure, outputLines } from '../../src/verdict/runner-output.js';
import type { RunnerName } from '../../src/types.js';

const PROFILES = await allProfiles();

const cases: [string, RunnerName, string, Reading][] = [
  [
    'jest: failures counted, suites line ignored',
    'jest',
    'FAIL src/a.test.js\n  ● adds › works\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 2 passed, 3 total\nTime:        0.5 s\n',
    { summary: { line: 'Tests:       1 failed, 2 passed, 3 total', failed: 1, passed: 2, total: 3, skipped: 0 } },
  ],
  [
    'jest: a suite that cannot run names the next line',
    'jest',
    "FAIL src/b.test.js\n  ● Test suite failed to run\n\n    Cannot find module './missing' from 'src/b.test.js'\n\nTests:       0 total\n",
    {
      cannotRun: { what: 'a test file could not run (src/b.test.js)', line: "    Cannot find module './missing' from 'src/b.test.js'" },
      summary: { line: 'Tests:       0 total', failed: 0, passed: 0, total: 0, skipped: 0 },
    },
  ],
  [
    'jest: an empty suite is no tests',
    'jest',
    'FAIL src/c.test.js\n  ● Test suite failed to run\n\n    Your test suite must contain at least one test.\n',
    { noTests: { line: '    Your test suite must contain at least one test.' } },
  ],
  [
    'jest: no tests found',
    'jest',
    'No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\n',
    { noTests: { line: 'No tests found, exiting with code 1' } },
  ],
  [
    'jest: a validation error names the next line',
    'jest',
    '● Validation Error:\n\n  Module ./setup.js in the setupFiles option was not found.\n',
    { cannotRun: { what: 'a jest config error', line: '  Module ./setup.js in the setupFiles option was not found.' } },
  ],
  [
    'jest: no config file',
    'jest',
    'Error: Could not find a config file based on provided values:\n',
    { cannotRun: { what: 'a jest config error', line: 'Error: Could not find a config file based on provided values:' } },
  ],
  [
    'vitest: failures counted',
    'vitest',
    ' ❯ src/a.test.ts (3)\n Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n',
    { summary: { line: '      Tests  1 failed | 2 passed (3)', failed: 1, passed: 2, total: 3, skipped: 0 } },
  ],
  [
    'vitest: a file that cannot load',
    'vitest',
    ' FAIL  src/a.test.ts [ src/a.test.ts ]\nError: Failed to load url ./missing (resolved id: ./missing) in src/a.test.ts. Does the file exist?\n Test Files  1 failed (1)\n      Tests  no tests\n',
    {
      cannotRun: {
        what: 'a test file could not run',
        line: 'Error: Failed to load url ./missing (resolved id: ./missing) in src/a.test.ts. Does the file exist?',
      },
      summary: { line: '      Tests  no tests', failed: 0, passed: 0, total: 0, skipped: 0 },
    },
  ],
  [
    'vitest: a file without a suite',
    'vitest',
    ' FAIL  src/a.test.ts [ src/a.test.ts ]\nError: No test suite found in file /x/src/a.test.ts\n',
    { noTests: { line: 'Error: No test suite found in file /x/src/a.test.ts' } },
  ],
  [
    'vitest: no suite, no FAIL line',
    'vitest',
    'Error: No test suite found in file /x/src/a.test.ts\n',
    { noTests: { line: 'Error: No test suite found in file /x/src/a.test.ts' } },
  ],
  [
    'vitest: no test files',
    'vitest',
    'No test files found, exiting with code 1\n',
    { noTests: { line: 'No test files found, exiting with code 1' } },
  ],
  [
    'vitest: a config that cannot load',
    'vitest',
    'failed to load config from /x/vitest.config.ts\n',
    { cannotRun: { what: 'a vitest config error', line: 'failed to load config from /x/vitest.config.ts' } },
  ],
  [
    'vitest: a startup error names its error line',
    'vitest',
    "Startup Error\n  something\nError: Cannot find module 'vite'\n",
    { cannotRun: { what: 'a vitest config error', line: "Error: Cannot find module 'vite'" } },
  ],
  [
    'mocha: passing, failing and pending',
    'mocha',
    '  2 passing (5ms)\n  1 pending\n  1 failing\n\n  1) adds\n',
    { summary: { line: '  1 failing', failed: 1, passed: 2, total: 4, skipped: 1 } },
  ],
  [
    'mocha: passing only',
    'mocha',
    '  4 passing (5ms)\n',
    { summary: { line: '  4 passing (5ms)', failed: 0, passed: 4, total: 4, skipped: 0 } },
  ],
  ['mocha: no test files', 'mocha', 'Error: No test files found: "test"\n', { noTests: { line: 'Error: No test files found: "test"' } }],
  [
    'mocha: a file that cannot load',
    'mocha',
    "\nError: Cannot find module './x'\nRequire stack:\n",
    { cannotRun: { what: 'mocha could not load the tests', line: "Error: Cannot find module './x'" } },
  ],
  [
    'mocha: any other error',
    'mocha',
    'TypeError [ERR_X]: boom\n',
    { cannotRun: { what: 'mocha could not load the tests', line: 'TypeError [ERR_X]: boom' } },
  ],
  [
    'uvu: failed, passed and skipped (Total counts the tests run, not the skipped)',
    'uvu',
    '  Total:     5\n  Passed:    2\n  Skipped:   1\n  Duration:  1ms\n',
    { summary: { line: '  Total:     5', failed: 3, passed: 2, total: 6, skipped: 1 } },
  ],
  [
    'uvu: a file that cannot load',
    'uvu',
    "file:///x/a.test.js:3\nSyntaxError: Unexpected token '}'\n",
    { cannotRun: { what: 'uvu could not load the tests', line: "SyntaxError: Unexpected token '}'" } },
  ],
  [
    'node: TAP with a failure',
    'node',
    'TAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\n  ...\nok 2 - subtracts\n1..2\n# tests 2\n# suites 0\n# pass 1\n# fail 1\n',
    { summary: { line: '# fail 1', failed: 1, passed: 1, total: 2, skipped: 0 } },
  ],
  [
    'node: spec, all passed',
    'node',
    '✔ adds (1.2ms)\n✔ subtracts (0.3ms)\nℹ tests 2\nℹ pass 2\nℹ fail 0\n',
    { summary: { line: 'ℹ tests 2', failed: 0, passed: 2, total: 2, skipped: 0 } },
  ],
  [
    'node: a file that cannot load (relative path)',
    'node',
    "✖ test/a.test.js (30.1ms)\n  Error: Cannot find module './x'\nℹ tests 1\nℹ pass 0\nℹ fail 1\n",
    {
      summary: { line: 'ℹ tests 1', failed: 0, passed: 0, total: 0, skipped: 0 },
      cannotRun: { what: 'a test file failed outside any test', line: "  Error: Cannot find module './x'" },
    },
  ],
  [
    'node: a file that cannot load (absolute path, TAP)',
    'node',
    "not ok 1 - /x/test/a.test.mjs\n  ---\n  ...\n# Error: Cannot find module './x'\n# tests 1\n# pass 0\n# fail 1\n",
    {
      summary: { line: '# tests 1', failed: 0, passed: 0, total: 0, skipped: 0 },
      cannotRun: { what: 'a test file failed outside any test', line: "Error: Cannot find module './x'" },
    },
  ],
  [
    'node: a file without tests',
    'node',
    '✔ test/empty.test.js (20.5ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0\n',
    {
      summary: { line: 'ℹ tests 1', failed: 0, passed: 0, total: 0, skipped: 0 },
      noTests: { line: '✔ test/empty.test.js (20.5ms) (a test file that ran no test, or exited before its tests reported)' },
    },
  ],
  [
    'node: a file without tests beside real ones: it may have exited before its tests reported',
    'node',
    '✔ adds (1ms)\n✔ test/empty.test.cjs (20ms)\nℹ tests 2\nℹ pass 2\nℹ fail 0\n',
    {
      summary: { line: 'ℹ tests 2', failed: 0, passed: 1, total: 1, skipped: 0 },
      cannotRun: {
        what: 'a test file reported no test (it has none, or it exited before its tests reported, e.g. process.exit in a test)',
        line: '✔ test/empty.test.cjs (20ms)',
      },
    },
  ],
  [
    'node: a missing path',
    'node',
    "Could not find '/x/test'\nℹ tests 0\nℹ pass 0\nℹ fail 0\n",
    { noTests: { line: "Could not find '/x/test'" }, summary: { line: 'ℹ tests 0', failed: 0, passed: 0, total: 0, skipped: 0 } },
  ],
  [
    'node: no summary, an error',
    'node',
    "node:internal/modules/cjs/loader:1\nError: Cannot find module '/x/run.js'\n",
    { cannotRun: { what: 'node could not run the tests', line: "Error: Cannot find module '/x/run.js'" } },
  ],
  [
    'playwright: failed, flaky, passed',
    'playwright',
    'Running 3 tests using 1 worker\n  1) a.spec.ts:3:5 › fails\n\n  1 failed\n    a.spec.ts:3:5 › fails\n  1 flaky\n    a.spec.ts:9:5 › flakes\n  1 passed (2.1s)\n',
    { summary: { line: '1 failed', failed: 1, passed: 2, total: 3, skipped: 0 } },
  ],
  [
    'playwright: passed, skipped, did not run, interrupted',
    'playwright',
    '  1 interrupted\n  2 passed (1.0s)\n  1 skipped\n  3 did not run\n',
    { summary: { line: '3 did not run', failed: 1, passed: 2, total: 7, skipped: 4 } },
  ],
  [
    'playwright: passed only',
    'playwright',
    '  2 passed (1.0s)\n',
    { summary: { line: '2 passed (1.0s)', failed: 0, passed: 2, total: 2, skipped: 0 } },
  ],
  [
    'playwright: a config that cannot load',
    'playwright',
    "Error: Cannot find module '@playwright/test'\n",
    { cannotRun: { what: 'playwright could not load the tests', line: "Error: Cannot find module '@playwright/test'" } },
  ],
  [
    'playwright: a bad config file',
    'playwright',
    'Error: /x/playwright.config.ts: Unexpected token\n',
    { cannotRun: { what: 'playwright could not load the tests', line: 'Error: /x/playwright.config.ts: Unexpected token' } },
  ],
  [
    'ava: tests failed, the passes counted from their lines',
    'ava',
    '  ✔ b\n  ✘ [fail]: a\n  ─\n\n  a\n\n  ─\n\n  1 test failed\n  1 test skipped\n',
    { summary: { line: '  1 test failed', failed: 1, passed: 1, total: 3, skipped: 1 } },
  ],
  [
    'ava: a failed hook is a failure; tests passed, known failures, todo',
    'ava',
    '  ─\n\n  1 hook failed\n  2 tests failed\n',
    { summary: { line: '  2 tests failed', failed: 3, passed: 0, total: 3, skipped: 0 } },
  ],
  [
    'ava: all passed, a known failure among them',
    'ava',
    '  ✔ a\n  ✔ [expected fail] b\n  ─\n\n  1 test passed\n  1 known failure\n  1 test todo\n',
    { summary: { line: '  1 test passed', failed: 0, passed: 2, total: 3, skipped: 1 } },
  ],
  [
    'ava: counts above the last rule are not the summary',
    'ava',
    '  3 tests failed\n  ─\n\n  1 test passed\n',
    { summary: { line: '  1 test passed', failed: 0, passed: 1, total: 1, skipped: 0 } },
  ],
  [
    'ava: an uncaught exception names its file and the error below it',
    'ava',
    "  Uncaught exception in t/a.js\n\n  Error: Cannot find module './x'\n\n  ✘ t/a.js exited with a non-zero exit code: 1\n  Error: later\n  ─\n\n  1 uncaught exception\n",
    { cannotRun: { what: 'an uncaught exception in t/a.js, outside any test', line: "  Error: Cannot find module './x'" } },
  ],
  [
    'ava: no tests in a file beside passing ones',
    'ava',
    '  ✔ a\n  ✘ No tests found in t/b.js\n  ─\n\n  1 test passed\n',
    {
      summary: { line: '  1 test passed', failed: 0, passed: 1, total: 1, skipped: 0 },
      cannotRun: { what: 'a test file declares no test (ava fails the run for it)', line: '  ✘ No tests found in t/b.js' },
    },
  ],
  ['ava: no files', 'ava', '\n  ✘ Couldn’t find any files to test\n\n', { noTests: { line: '  ✘ Couldn’t find any files to test' } }],
  [
    'ava: a config it cannot use',
    'ava',
    '\n  ✘ The ’files’ configuration must be an array containing glob patterns.\n',
    { cannotRun: { what: 'ava could not start', line: '  ✘ The ’files’ configuration must be an array containing glob patterns.' } },
  ],
  [
    'ava --tap: crashes beside a failed assertion: only AssertionErrors are tests',
    'ava',
    'TAP version 13\nnot ok 1 - a\n  ---\n    name: AssertionError\n  ...\nnot ok 2 - Error: boom\n  ---\n    name: Error\n    message: boom\n  ...\nnot ok 3 - t/b.js exited with a non-zero exit code: 1\nok 4 - c # SKIP\nnot ok 5 - d # TODO\n\n# tests 2\n# pass 0\n# skip 1\n# fail 4\n',
    {
      summary: { line: 'not ok 1 - a', failed: 1, passed: 0, total: 3, skipped: 2 },
      cannotRun: { what: 'a test file failed outside any test', line: 'Error: boom' },
    },
  ],
  [
    'jasmine: failures, pending, and a suite error counted among the failures',
    'jasmine',
    'Suite error: s\n  Message:\n    Error: teardown broke\n  Stack:\n\n3 specs, 2 failures, 1 pending spec\n',
    {
      summary: { line: '3 specs, 2 failures, 1 pending spec', failed: 1, passed: 1, total: 3, skipped: 1 },
      cannotRun: {
        what: 'an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load)',
        line: '    Error: teardown broke',
      },
    },
  ],
  [
    'jasmine: one spec',
    'jasmine',
    '1 spec, 0 failures\n',
    { summary: { line: '1 spec, 0 failures', failed: 0, passed: 1, total: 1, skipped: 0 } },
  ],
  [
    'jasmine: no specs, incomplete',
    'jasmine',
    'No specs found\nFinished in 0.002 seconds\nIncomplete: No specs found\n',
    { noTests: { line: 'No specs found' } },
  ],
  [
    'jasmine: focused specs make the run incomplete',
    'jasmine',
    '1 spec, 0 failures\nIncomplete: fit() or fdescribe() was found\n',
    {
      summary: { line: '1 spec, 0 failures', failed: 0, passed: 1, total: 1, skipped: 0 },
      failedBesides: {
        what: 'a focused spec (fit or fdescribe) makes the run incomplete (make it it or describe again)',
        line: 'Incomplete: fit() or fdescribe() was found',
      },
    },
  ],
  [
    'jasmine: another incomplete run',
    'jasmine',
    '1 spec, 0 failures\nIncomplete: something else\n',
    {
      summary: { line: '1 spec, 0 failures', failed: 0, passed: 1, total: 1, skipped: 0 },
      failedBesides: { what: 'the run is incomplete', line: 'Incomplete: something else' },
    },
  ],
  [
    'jasmine: a usage error',
    'jasmine',
    'Unknown options: --bogus\n\nUsage: jasmine [command] [options] [files] [--]\n',
    { cannotRun: { what: 'a jasmine usage error', line: 'Unknown options: --bogus' } },
  ],
  [
    'jasmine: a spec file that cannot load',
    'jasmine',
    "Error: Cannot find module './x'\nRequire stack:\n",
    { cannotRun: { what: 'jasmine could not load a spec file, a helper or its config', line: "Error: Cannot find module './x'" } },
  ],
  [
    'tap: a failed assertion, a skipped and a todo test',
    'tap',
    'TAP version 14\n# Subtest: t/a.js\n    # Subtest: a\n        not ok 1 - should be equal\n        1..1\n    not ok 1 - a # time=1ms\n    ok 2 - b # SKIP\n    ok 3 - c # TODO\n    not ok 4 - d # TODO\n    1..4\nnot ok 1 - t/a.js # time=2ms\n# { total: 4, pass: 0, fail: 1, skip: 1, todo: 2 }\n',
    { summary: { line: '# { total: 4, pass: 0, fail: 1, skip: 1, todo: 2 }', failed: 1, passed: 0, total: 4, skipped: 3 } },
  ],
  [
    'tap: a subtest failing because of its child is not counted twice',
    'tap',
    'TAP version 14\n# Subtest: t/a.js\n    # Subtest: outer\n        # Subtest: inner\n            not ok 1 - deep\n            not ok 2 - deeper\n        not ok 1 - inner\n    not ok 1 - outer\nnot ok 1 - t/a.js\n# { total: 1, pass: 0, fail: 1 }\n',
    { summary: { line: '# { total: 1, pass: 0, fail: 1 }', failed: 1, passed: 0, total: 1, skipped: 0 } },
  ],
  [
    'tap: a file that cannot load beside one without tests',
    'tap',
    "TAP version 14\nError: Cannot find module './x'\n# Subtest: t/a.js\n    1..0 # no tests found\nnot ok 1 - t/a.js # time=1ms\n# Subtest: t/b.js\n    1..0 # no tests found\nok 2 - t/b.js # SKIP no tests found\n# { total: 2, pass: 0, fail: 1, skip: 1 }\n",
    {
      summary: { line: '# { total: 2, pass: 0, fail: 1, skip: 1 }', failed: 0, passed: 0, total: 0, skipped: 0 },
      noTests: { line: 'ok 2 - t/b.js # SKIP no tests found' },
      cannotRun: {
        what: 'a test file failed before any test (it cannot load, or it threw before its tests)',
        line: "Error: Cannot find module './x'",
      },
    },
  ],
  [
    'tap: a file killed by a signal',
    'tap',
    'TAP version 14\n# Subtest: t/a.js\n    ok 1 - fine\nnot ok 1 - t/a.js\n  ---\n  exitCode: null\n  signal: SIGSEGV\n  ...\n# { total: 1, pass: 1 }\n',
    {
      summary: { line: '# { total: 1, pass: 1 }', failed: 0, passed: 1, total: 1, skipped: 0 },
      cannotRun: { what: 'a test file was killed by SIGSEGV', line: 'not ok 1 - t/a.js' },
    },
  ],
  [
    'tap: a failure no assertion explains',
    'tap',
    'TAP version 14\nnot ok 1 - t/a.js\n# { total: 1, pass: 0, fail: 1 }\n',
    {
      summary: { line: '# { total: 1, pass: 0, fail: 1 }', failed: 0, passed: 0, total: 1, skipped: 0 },
      cannotRun: {
        what: 'tap counts a failure that is no failed assertion (a test file that could not run?)',
        line: '# { total: 1, pass: 0, fail: 1 }',
      },
    },
  ],
  [
    'tap: incomplete coverage said by a comment',
    'tap',
    'TAP version 14\n# ERROR: incomplete lines coverage (50%)\n# { total: 1, pass: 1 }\n',
    {
      summary: { line: '# { total: 1, pass: 1 }', failed: 0, passed: 1, total: 1, skipped: 0 },
      failedBesides: {
        what: 'coverage is below its threshold (tap wants 100% unless --allow-incomplete-coverage)',
        line: '# ERROR: incomplete lines coverage (50%)',
      },
    },
  ],
  [
    'tap: full coverage is no failure',
    'tap',
    'TAP version 14\nAll files |     100 |      100 |     100 |     100 |\n# { total: 1, pass: 1 }\n',
    { summary: { line: '# { total: 1, pass: 1 }', failed: 0, passed: 1, total: 1, skipped: 0 } },
  ],
  [
    'tap: a usage error',
    'tap',
    "Error: Unknown option '--x'. To specify a positional argument\n",
    { cannotRun: { what: 'a tap usage error', line: "Error: Unknown option '--x'. To specify a positional argument" } },
  ],
  ['tap: no test files', 'tap', 'No test files found\n', { noTests: { line: 'No test files found' } }],
  [
    'tape: counts, a failed assertion named, a TODO failure no failure',
    'tape',
    'TAP version 13\n# a\nnot ok 1 should be equal\n# b\nnot ok 2 later # TODO\nok 3 fine\n\n1..3\n# tests 3\n# pass  1\n# fail  1\n# todo 1\n',
    { summary: { line: 'not ok 1 should be equal', failed: 1, passed: 1, total: 3, skipped: 1 } },
  ],
  [
    'tape: all passed',
    'tape',
    'TAP version 13\n# a\nok 1 fine\n\n1..1\n# tests 1\n# pass  1\n\n# ok\n',
    { summary: { line: '# tests 1', failed: 0, passed: 1, total: 1, skipped: 0 } },
  ],
  [
    'tape: a test that never ended is a failure; one that process.exit ended is not',
    'tape',
    'TAP version 13\n# a\nnot ok 1 test exited without ending: a\n  ---\n    operator: fail\n    stack: |-\n      Error: test exited without ending: a\n          at process.emit (node:events:524:28)\n  ...\n# b\nnot ok 2 test exited without ending: b\n  ---\n    stack: |-\n          at process.exit (node:internal/process/per_thread:184:15)\n  ...\n\n1..2\n# tests 2\n# pass  0\n# fail  2\n',
    {
      summary: { line: 'not ok 1 test exited without ending: a', failed: 1, passed: 0, total: 2, skipped: 0 },
      cannotRun: {
        what: 'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended)',
        line: 'not ok 2 test exited without ending: b',
      },
    },
  ],
  [
    'tape: a crash once a test ran is that test failing',
    'tape',
    'TAP version 13\n# a\nok 1 fine\n# b\n/x/a.js:3\nTypeError: x is not iterable\n    at Test.<anonymous> (/x/a.js:3:5)\n\nNode.js v20.20.2\n',
    { summary: { line: 'TypeError: x is not iterable', failed: 1, passed: 1, total: 2 } },
  ],
  [
    'tape: a crash before any test is a file that cannot load',
    'tape',
    '/x/a.js:3\nError: top boom\n    at Object.<anonymous> (/x/a.js:3:7)\n',
    { cannotRun: { what: 'tape could not load a test file (or it threw before any test ran)', line: 'Error: top boom' } },
  ],
  [
    'tape: a module not found once tests ran is still a load error',
    'tape',
    "TAP version 13\n# a\nError: Cannot find module './late'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n",
    {
      cannotRun: { what: 'tape could not load a test file (or it threw before any test ran)', line: "Error: Cannot find module './late'" },
    },
  ],
  [
    'tape: an output cut before its summary still shows a failed assertion',
    'tape',
    'TAP version 13\n# a\nok 1 fine\nnot ok 2 should be equal\n  ---\n    stack: |-\n      Error: should be equal\n          at Test.assert (/x/node_modules/tape/lib/test.js:548:48)\n',
    { summary: { line: 'not ok 2 should be equal', failed: 1, passed: 1, total: 2 } },
  ],
  [
    'tape: tap-spec counts',
    'tape',
    '  total:     3\n  passing:   1\n  failing:   2\n  duration:  20ms\n',
    { summary: { line: '  failing:   2', failed: 2, passed: 1, total: 3 } },
  ],
  [
    'tape: tap-spec names the first failure, not its repeat under Failed Tests',
    'tape',
    '  a\n\n    ✖ should be equal\n\n  Failed Tests: There was 1 failure\n\n    a\n\n      ✖ should be equal\n\n  total:     2\n  passing:   1\n  failing:   1\n',
    { summary: { line: '    ✖ should be equal', failed: 1, passed: 1, total: 2 } },
  ],
  ['tape: tap-spec with none', 'tape', '\n  ✖ No tests found\n', { noTests: { line: '  ✖ No tests found' } }],
  ['tape: nothing it knows', 'tape', 'tap-dot: 3 ok\n', {}],
  [
    'pytest: every count',
    'pytest',
    '=========== 1 failed, 2 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 error in 0.12s ===========\n',
    {
      summary: {
        line: '1 failed, 2 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 error in 0.12s',
        failed: 2,
        passed: 2,
        total: 7,
        skipped: 1,
      },
    },
  ],
  [
    'pytest: errors only',
    'pytest',
    '============ 2 errors in 0.05s ============\n',
    { summary: { line: '2 errors in 0.05s', failed: 2, passed: 0, total: 2, skipped: 0 } },
  ],
  [
    'pytest: no tests ran',
    'pytest',
    '\n============ no tests ran in 0.01s ============\n',
    { summary: { line: 'no tests ran in 0.01s', failed: 0, passed: 0, total: 0, skipped: 0 }, noTests: { line: 'no tests ran in 0.01s' } },
  ],
  [
    'pytest: a collection error names the exception',
    'pytest',
    "E   ModuleNotFoundError: No module named 'x'\n!!!!!!! Interrupted: 1 error during collection !!!!!!!\n=========== 1 error in 0.10s ===========\n",
    {
      summary: { line: '1 error in 0.10s', failed: 1, passed: 0, total: 1, skipped: 0 },
      cannotRun: { what: 'pytest could not collect the tests', line: "ModuleNotFoundError: No module named 'x'" },
    },
  ],
  // python's own line for `-m pytest` where it has no pytest is read whatever the module (verdict.ts, runners.test.ts), not by pytest's profile.
  [
    'pytest: python -m pytest where that python has no pytest',
    'pytest',
    '/root/.pyenv/versions/3.11.7/bin/python3: No module named pytest\n',
    {},
  ],
  [
    'pytest: a test that prints the same words does not hide its summary',
    'pytest',
    'x: No module named pytest\n=========== 1 failed in 0.10s ===========\n',
    { summary: { line: '1 failed in 0.10s', failed: 1, passed: 0, total: 1, skipped: 0 } },
  ],
  [
    'pytest: a collection error names the file it could not collect',
    'pytest',
    'E     File "/w/tests/test_parse.py", line 1\nE   SyntaxError: invalid syntax\n=========================== short test summary info ============================\nERROR tests/test_parse.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.10s\n',
    {
      summary: { line: '1 error in 0.10s', failed: 1, passed: 0, total: 1, skipped: 0 },
      cannotRun: { what: 'pytest could not collect the tests (tests/test_parse.py)', line: 'SyntaxError: invalid syntax' },
    },
  ],
  [
    'pytest: a collection error without an exception line',
    'pytest',
    '!!!!!!! Interrupted: 2 errors during collection !!!!!!!\n',
    { cannotRun: { what: 'pytest could not collect the tests', line: '!!!!!!! Interrupted: 2 errors during collection !!!!!!!' } },
  ],
  [
    'go: packages ok and failed, tests passed and failed',
    'go',
    '=== RUN   TestA\n--- PASS: TestA (0.00s)\n    --- FAIL: TestB/sub (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\texample.com/m\t0.002s\nok  \texample.com/n\t0.001s\n',
    { summary: { line: '--- FAIL: TestB/sub (0.00s)', failed: 2, passed: 1, total: 3 } },
  ],
  [
    'go: packages ok, no -v',
    'go',
    'ok  \texample.com/m\t0.002s\nok  \texample.com/n\t0.003s\n?   \texample.com/o\t[no test files]\n',
    { summary: { line: 'ok  \texample.com/n\t0.003s', failed: 0, passed: 2, total: 2 } },
  ],
  [
    'go: one package ran no tests, another ran some',
    'go',
    'ok  \texample.com/m\t0.002s [no tests to run]\nok  \texample.com/n\t0.003s\n',
    { summary: { line: 'ok  \texample.com/n\t0.003s', failed: 0, passed: 1, total: 1 } },
  ],
  [
    'go: a setup failure',
    'go',
    'FAIL\texample.com/m [setup failed]\n',
    { cannotRun: { what: 'a compile error', line: 'FAIL\texample.com/m [setup failed]' } },
  ],
  [
    // Its test binary exited (log.Fatal in the code under test) before it reported a test: no "no tests ran".
    'go: a failed package without test lines',
    'go',
    'FAIL\texample.com/m\t0.010s\n',
    {
      cannotRun: {
        what: 'the test binary of example.com/m exited before its tests reported: the code under test ended the process (a log.Fatal, an os.Exit or a crash); its last output',
        line: 'FAIL\texample.com/m\t0.010s',
        next: '`go test -v example.com/m` names the test that was running (its last `=== RUN` line)',
        stopped: { package: 'example.com/m' },
      },
      summary: { line: 'FAIL\texample.com/m\t0.010s', failed: 0, passed: 0, total: 0 },
    },
  ],
  [
    'cargo: unit and doc tests',
    'cargo',
    'test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n\ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n   Doc-tests m\ntest result: ok. 0 passed; 0 failed; 0 ignored\n',
    {
      summary: {
        line: 'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out',
        failed: 2,
        passed: 4,
        total: 7,
        skipped: 1,
      },
    },
  ],
  [
    'cargo: all ok',
    'cargo',
    'test result: ok. 2 passed; 0 failed; 0 ignored\ntest result: ok. 1 passed; 0 failed; 2 ignored\n',
    { summary: { line: 'test result: ok. 1 passed; 0 failed; 2 ignored', failed: 0, passed: 3, total: 5, skipped: 2 } },
  ],
  [
    'cargo: a compile error names the first error',
    'cargo',
    'error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:5\nerror: could not compile `m` (lib test) due to 1 previous error\n',
    { cannotRun: { what: 'a compile error', line: 'src/lib.rs:3:5: error[E0425]: cannot find value `x` in this scope' } },
  ],
  [
    'cargo: a compile error alone',
    'cargo',
    'error: could not compile `m` due to previous error\n',
    { cannotRun: { what: 'a compile error', line: 'error: could not compile `m` due to previous error' } },
  ],
  [
    'cargo: a usage error',
    'cargo',
    'error: no test target named `x`\n',
    { cannotRun: { what: 'a cargo usage error', line: 'error: no test target named `x`' } },
  ],
  [
    'cargo: no Cargo.toml',
    'cargo',
    'error: could not find `Cargo.toml` in `/x` or any parent directory\n',
    { cannotRun: { what: 'a cargo usage error', line: 'error: could not find `Cargo.toml` in `/x` or any parent directory' } },
  ],
  [
    'nextest: failed and timed out',
    'nextest',
    '        FAIL [   0.004s] c tests::a\n     Summary [   0.010s] 4 tests run: 1 passed, 2 failed, 1 timed out, 0 skipped\n',
    { summary: { line: 'Summary [   0.010s] 4 tests run: 1 passed, 2 failed, 1 timed out, 0 skipped', failed: 3, passed: 1, total: 4 } },
  ],
  [
    'nextest: one test',
    'nextest',
    '     Summary [   0.010s] 1 test run: 1 passed, 0 skipped\n',
    { summary: { line: 'Summary [   0.010s] 1 test run: 1 passed, 0 skipped', failed: 0, passed: 1, total: 1 } },
  ],
  ['nextest: no tests', 'nextest', 'error: no tests to run\n', { noTests: { line: 'error: no tests to run' } }],
  [
    'nextest: a compile error',
    'nextest',
    'error[E0308]: mismatched types\nerror: could not compile `m`\n',
    { cannotRun: { what: 'a compile error', line: 'error[E0308]: mismatched types' } },
  ],
  [
    'unittest: failures and errors, skips and expected failures',
    'unittest',
    'EF.ssxu\nRan 7 tests in 0.001s\n\nFAILED (failures=1, errors=1, skipped=2, expected failures=1, unexpected successes=1)\n',
    {
      summary: {
        line: 'FAILED (failures=1, errors=1, skipped=2, expected failures=1, unexpected successes=1)',
        failed: 3,
        passed: 1,
        total: 7,
        skipped: 2,
      },
    },
  ],
  [
    'unittest: all pass, some skipped',
    'unittest',
    '..s\nRan 3 tests in 0.000s\n\nOK (skipped=1)\n',
    { summary: { line: 'Ran 3 tests in 0.000s', failed: 0, passed: 2, total: 3, skipped: 1 } },
  ],
  [
    'unittest: a module that cannot import is not counted',
    'unittest',
    'E\n======================================================================\nERROR: test_a (unittest.loader._FailedTest.test_a)\n----------------------------------------------------------------------\nImportError: Failed to import test module: test_a\nTraceback (most recent call last):\n  File "/x/test_a.py", line 2, in <module>\n    import nope\nModuleNotFoundError: No module named \'nope\'\n\n\n----------------------------------------------------------------------\nRan 1 test in 0.000s\n\nFAILED (errors=1)\n',
    {
      cannotRun: { what: 'unittest could not load a test module', line: "ModuleNotFoundError: No module named 'nope'" },
      summary: { line: 'Ran 1 test in 0.000s', failed: 0, passed: 0, total: 0, skipped: 0 },
    },
  ],
  [
    'unittest: no tests (3.12)',
    'unittest',
    '\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n',
    { summary: { line: 'Ran 0 tests in 0.000s', failed: 0, passed: 0, total: 0, skipped: 0 }, noTests: { line: 'Ran 0 tests in 0.000s' } },
  ],
  [
    'unittest: a setUpClass error with no test run',
    'unittest',
    'Ran 0 tests in 0.000s\n\nFAILED (errors=1)\n',
    { summary: { line: 'FAILED (errors=1)', failed: 1, passed: 0, total: 1, skipped: 0 } },
  ],
];

for (const [title, runner, text, reading] of cases) {
  test(`${title}`, () => {
    assert.equal(PROFILES[runner].read(outputLines(text)), reading);
  });
}

test('every runner has a profile here', () => {
  assert.equal([...new Set(cases.map((c) => c[1]))].sort(), Object.keys(PROFILES).sort());
});

test('jest: a reason more than five lines below "failed to run" is not taken for it', () => {
  const text = `FAIL src/b.test.js\n  ● Test suite failed to run\n${'\n'.repeat(5)}    far below\n`;
  assert.equal(PROFILES.jest.read(outputLines(text)), {
    cannotRun: { what: 'a test file could not run (src/b.test.js)', line: '  ● Test suite failed to run' },
  });
  const near = `FAIL src/b.test.js\n  ● Test suite failed to run\n${'\n'.repeat(4)}    near enough\n`;
  assert.equal(PROFILES.jest.read(outputLines(near)).cannotRun?.line, '    near enough');
});

test('a load error is preferred to an earlier error of another kind; output without either reads as nothing', () => {
  assert.equal(
    PROFILES.mocha.read(outputLines("Error: boom\nError: Cannot find module './x'\n")).cannotRun?.line,
    "Error: Cannot find module './x'",
  );
  assert.equal(PROFILES.mocha.read(outputLines('some noise\n')), {});
  assert.equal(PROFILES.uvu.read(outputLines('some noise\n')), {});
});

test('outputLines: what a carriage-return redraw left on screen, CRLF endings dropped', () => {
  assert.equal(outputLines('a\rb\nx\r\ny\rz\r\n\x1b[32mok\x1b[39m'), ['b', 'x', 'z', 'ok']);
  assert.equal(outputLines('12\r3'), ['3']);
});

test("managerFailure: npx, a not-found command named by its path, and node's own missing entry point within eleven lines", () => {
  const words = new Set(['tape']);
  assert.equal(managerFailure(['npm error could not determine executable to run'], words), {
    what: 'npx: the command is not installed',
    line: 'npm error could not determine executable to run',
  });
  assert.equal(managerFailure(['sh: 1: /usr/bin/tape: not found'], words)?.what, 'command not found: /usr/bin/tape');
  assert.is(managerFailure(['sh: 1: other: not found'], words), undefined);
  const missing = (gap: number) =>
    managerFailure(
      ["Error: Cannot find module '/x/run.js'", ...Array.from({ length: gap }, (_, i) => `    at frame ${i}`), '  requireStack: []'],
      words,
    );
  assert.equal(missing(0), { what: 'the script to run does not exist: /x/run.js', line: "Error: Cannot find module '/x/run.js'" });
  assert.equal(missing(10)?.what, 'the script to run does not exist: /x/run.js');
  assert.is(missing(11), undefined);
  assert.is(managerFailure(["Error: Cannot find module '/x/run.js'"], words), undefined);
});

test("managerFailure: pnpm's own error as the first thing printed, not where it wraps up a script that failed", () => {
  // pnpm 10 refusing the version package.json's packageManager pins: what follows is pnpm's too, and read by no runner.
  const refused = [
    ' ERROR  Refusing to run pnpm@10.14.0-0: its npm registry signature could not be verified.',
    'This can indicate a tampered download or a malicious/unreachable registry.',
  ];
  const pnpm = new Set(['pnpm', 'biome']);
  assert.equal(managerFailure(refused, pnpm), {
    what: "pnpm stopped before it ran the command (fix pnpm's setup: run the tier's command in a terminal to see why)",
    line: refused[0]!,
  });
  assert.is(
    managerFailure(['', ' ERR_PNPM_BAD_PM_VERSION  This project is configured to use 9 of pnpm'], pnpm)?.line.trim().slice(0, 23),
    'ERR_PNPM_BAD_PM_VERSION',
  );
  // Not through pnpm, or after the script's own output: someone else's ERROR.
  assert.is(managerFailure(refused, new Set(['biome'])), undefined);
  assert.is(managerFailure(['> x@1.0.0 test /x', '> jest', ' ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  x@1.0.0 test: `jest`'], pnpm), undefined);
});

// More edges, one reading each.
const edges: [string, RunnerName, string, Reading][] = [
  [
    'jest: a config file error keeps its own line even when another follows',
    'jest',
    'Error: Could not find a config file based on provided values:\n  path: "/x"\n',
    { cannotRun: { what: 'a jest config error', line: 'Error: Could not find a config file based on provided values:' } },
  ],
  [
    'jest: "failed to run" as the last line',
    'jest',
    'FAIL src/b.test.js\n  ● Test suite failed to run',
    { cannotRun: { what: 'a test file could not run (src/b.test.js)', line: '  ● Test suite failed to run' } },
  ],
  [
    'jest: a config that cannot load names the file and its error',
    'jest',
    '/w/jest.config.js:2\n\n\n\nSyntaxError: Unexpected end of input\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)\n',
    { cannotRun: { what: 'jest could not load its config (jest.config.js)', line: 'SyntaxError: Unexpected end of input' } },
  ],
  [
    'jest: "Configuration error:" quotes what it says below, and the file',
    'jest',
    'FAIL ./test/ok.test.js\n  ● Test suite failed to run\n\n    Configuration error:\n\n    Could not locate module x mapped as:\n    /w/nope.js.\n',
    {
      cannotRun: { what: 'a test file could not run (test/ok.test.js)', line: 'Configuration error: Could not locate module x mapped as:' },
    },
  ],
  [
    'jest: a line of spaces is blank',
    'jest',
    '  ● Test suite failed to run\n   \n    the reason\n',
    { cannotRun: { what: 'a test file could not run', line: '    the reason' } },
  ],
  [
    'vitest: a config that cannot load keeps its line even with an error below',
    'vitest',
    "failed to load config from /x/vitest.config.ts\nError: Cannot find module 'vite'\n",
    { cannotRun: { what: 'a vitest config error', line: 'failed to load config from /x/vitest.config.ts' } },
  ],
  [
    'vitest: a startup error names the error after it, not one before',
    'vitest',
    "Error: earlier\nStartup Error\nError: Cannot find module 'vite'\n",
    { cannotRun: { what: 'a vitest config error', line: "Error: Cannot find module 'vite'" } },
  ],
  [
    'vitest: a startup error names the load error after it, not an earlier one',
    'vitest',
    "Error: Cannot find module 'a'\nStartup Error\nError: Cannot find module 'vite'\n",
    { cannotRun: { what: 'a vitest config error', line: "Error: Cannot find module 'vite'" } },
  ],
  [
    'vitest: passed only',
    'vitest',
    '      Tests  3 passed (3)\n',
    { summary: { line: '      Tests  3 passed (3)', failed: 0, passed: 3, total: 3, skipped: 0 } },
  ],
  [
    'vitest: a Tests line without a total',
    'vitest',
    '      Tests  3 passed\n',
    { summary: { line: '      Tests  3 passed', failed: 0, passed: 3, total: 0, skipped: 0 } },
  ],
  ['uvu: a total alone', 'uvu', '  Total:     2\n', { summary: { line: '  Total:     2', failed: 2, passed: 0, total: 2, skipped: 0 } }],
  [
    'node: a missing path and an error, no summary',
    'node',
    "Could not find '/x/test'\nError: boom\n",
    { noTests: { line: "Could not find '/x/test'" } },
  ],
  [
    'node: TAP, a file without tests',
    'node',
    'ok 1 - /x/test/empty.test.js\n# tests 1\n# pass 1\n# fail 0\n',
    {
      summary: { line: '# tests 1', failed: 0, passed: 0, total: 0, skipped: 0 },
      noTests: { line: 'ok 1 - /x/test/empty.test.js (a test file that ran no test, or exited before its tests reported)' },
    },
  ],
  [
    'node: counts without pass and fail lines',
    'node',
    'ℹ tests 2\n',
    { summary: { line: 'ℹ tests 2', failed: 0, passed: 0, total: 2, skipped: 0 } },
  ],
  [
    'node: a failed file, a file without tests and two tests',
    'node',
    '✔ adds (1ms)\n✖ subtracts (1ms)\n✖ test/a.test.js (30ms)\n✔ test/empty.test.js (20ms)\nℹ tests 4\nℹ pass 2\nℹ fail 2\n',
    {
      summary: { line: 'ℹ fail 2', failed: 1, passed: 1, total: 2, skipped: 0 },
      cannotRun: { what: 'a test file failed outside any test', line: 'test/a.test.js failed outside any test' },
    },
  ],
  [
    'pytest: passed and one error',
    'pytest',
    '====== 3 passed, 1 error in 0.12s ======\n',
    { summary: { line: '3 passed, 1 error in 0.12s', failed: 1, passed: 3, total: 4, skipped: 0 } },
  ],
  [
    'go: many passed tests in one package',
    'go',
    '--- PASS: TestA (0.00s)\n--- PASS: TestB (0.00s)\n--- PASS: TestC (0.00s)\nok  \texample.com/m\t0.002s\n',
    { summary: { line: 'ok  \texample.com/m\t0.002s', failed: 0, passed: 3, total: 3 } },
  ],
  [
    'go: no test files after other output',
    'go',
    'go: downloading example.com/x v1.0.0\n?   \texample.com/o\t[no test files]\n',
    { noTests: { line: '?   \texample.com/o\t[no test files]' } },
  ],
  [
    'go: every package ran no tests',
    'go',
    'testing: warning: no tests to run\nok  \texample.com/m\t0.002s [no tests to run]\n',
    {
      summary: { line: 'ok  \texample.com/m\t0.002s [no tests to run]', failed: 0, passed: 0, total: 0 },
      noTests: { line: 'ok  \texample.com/m\t0.002s [no tests to run]' },
    },
  ],
  [
    'go: a failed test line alone',
    'go',
    '--- FAIL: TestX (0.00s)\n',
    { summary: { line: '--- FAIL: TestX (0.00s)', failed: 1, passed: 0, total: 1 } },
  ],
  ['go: nothing it knows', 'go', 'go: cannot find main module\n', {}],
  [
    'nextest: a compile error alone',
    'nextest',
    'error: could not compile `m`\n',
    { cannotRun: { what: 'a compile error', line: 'error: could not compile `m`' } },
  ],
];
for (const [title, runner, text, reading] of edges) {
  test(title, () => {
    assert.equal(PROFILES[runner].read(outputLines(text)), reading);
  });
}

test('the JavaScript runners and unittest always print a summary when their run ends: exit 0 without one is no pass', () => {
  assert.equal(
    Object.entries(PROFILES)
      .filter(([, p]) => p.needsSummary === true)
      .map(([n]) => n)
      .sort(),
    ['ava', 'jasmine', 'jest', 'mocha', 'node', 'tap', 'tape', 'unittest', 'uvu', 'vitest'],
  );
});

test("nextest's and pytest's failure exit codes prove a failure without a summary; the others' do not", () => {
  assert.equal(
    Object.entries(PROFILES)
      .filter(([, p]) => p.exitProves === true)
      .map(([n]) => n)
      .sort(),
    ['nextest', 'pytest'],
  );
});

/** What reaches the reading of a long output: the lines `keep` holds from before the last `max` bytes, then those bytes (as gate.ts's Tail does). */
function longOutput(runner: RunnerName, text: string, max = 64 * 1024): Reading {
  const keep = keepFor(runner);
  const cut = Buffer.byteLength(text) - max;
  let at = 0;
  const before: string[] = [];
  for (const line of text.split('\n')) {
    if (at < cut && keep?.(line)) before.push(line);
    at += Buffer.byteLength(line) + 1;
  }
  const tail = Buffer.from(text).subarray(Math.max(0, cut)).toString('utf8');
  return PROFILES[runner].read(outputLines(before.map((l) => `${l}\n`).join('') + tail));
}

const details = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i + 1)).join('\n');

test('long outputs: the lines a reading needs are kept wherever they fall (summaries before the failures, counts spread over the run)', () => {
  // mocha's spec reporter: counts, then each failure's details.
  const mocha = `  ✔ one\n\n  1069 passing (6s)\n  4 pending\n  187 failing\n\n${details(187, (i) => `  ${i}) app\n       should 404:\n     Error: expected 404 "Not Found", got 405 ${'x'.repeat(400)}\n      at Test._assertStatus (node_modules/supertest/lib/test.js:252:14)`)}\n`;
  assert.equal(longOutput('mocha', mocha).summary, { line: '  187 failing', failed: 187, passed: 1069, total: 1260, skipped: 4 });
  // node --test's spec reporter: the counts, then the failing tests again.
  const node = `✔ t0 (1ms)\nℹ tests 300\nℹ suites 0\nℹ pass 100\nℹ fail 200\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 184\n\n✖ failing tests:\n\n${details(200, (i) => `test at b.test.js:${i}:3\n✖ t${i} (1ms)\n  AssertionError [ERR_ASSERTION]: ${'y'.repeat(400)}`)}\n`;
  assert.equal(longOutput('node', node).summary, { line: 'ℹ fail 200', failed: 200, passed: 100, total: 300, skipped: 0 });
  // cargo: a failed binary's result, then a long run of another binary's passing tests.
  const cargo = `     Running unittests src/lib.rs (target/debug/deps/a-1)\ntest t1 ... FAILED\ntest result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n     Running tests/big.rs (target/debug/deps/big-2)\n${details(3000, (i) => `test case_${i} ... ok`)}\ntest result: ok. 3000 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.00s\nerror: 1 target failed:\n`;
  assert.equal(longOutput('cargo', cargo).summary, {
    line: 'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
    failed: 1,
    passed: 3003,
    total: 3004,
    skipped: 0,
  });
  // go: a failed package early, many passing packages after.
  const go = `--- FAIL: TestA (0.00s)\nFAIL\tex/a\t0.01s\n${details(3000, (i) => `ok  \tex/p${i}\t0.01s`)}\nFAIL\n`;
  assert.is(longOutput('go', go).summary?.failed, 1);
  // jasmine: a suite error among the failures' details counts as no failed spec, however far above the counts.
  const jasmine = `Failures:\nSuite error: top\n  Message:\n    Error: afterAll failed\n${details(300, (i) => `${i + 1}) spec ${i}\n  Message:\n    Expected 1 to be 2. ${'z'.repeat(400)}`)}\n\n3000 specs, 301 failures\n`;
  assert.is(longOutput('jasmine', jasmine).summary?.failed, 300);
  // tap's raw TAP: read by its nesting, every subtest and result line kept however long the failures' YAML.
  const yaml = (i: number) =>
    `          ---\n          compare: ===\n          diff: |\n            --- expected\n            +++ actual\n            -a${'q'.repeat(400)}\n            +b${i}\n          ...\n`;
  const files = details(
    300,
    (f) =>
      `# Subtest: tests/t${f}.js\n    # Subtest: case ${f}\n        not ok 1 - should be equal\n${yaml(f)}        ok 2 - fine\n        1..2\n    not ok 1 - case ${f} # time=1ms\n    1..1\nnot ok ${f} - tests/t${f}.js # time=5ms`,
  );
  const tapOut = `TAP version 14\n1..300\n${files}\n# { total: 600, pass: 300, fail: 300 }\n`;
  const tapRead = longOutput('tap', tapOut);
  assert.equal([tapRead.summary?.failed, tapRead.cannotRun], [300, undefined]);
  // tape: a failure early, then thousands of passing assertions; the failed test is still named.
  const tapeOut = `TAP version 13\n# first\nnot ok 1 should be strictly equal\n  ---\n    operator: equal\n  ...\n${details(3000, (i) => `# t${i}\nok ${i + 1} fine ${'p'.repeat(40)}`)}\n\n1..3001\n# tests 3001\n# pass  3000\n# fail  1\n`;
  assert.equal(longOutput('tape', tapeOut).summary, {
    line: 'not ok 1 should be strictly equal',
    failed: 1,
    passed: 3000,
    total: 3001,
    skipped: 0,
  });
  // A runner with nothing to keep reads the tail only.
  assert.is(keepFor(undefined), undefined);
});

test('long outputs: jest\'s "Test suite failed to run" keeps the reason below it (a real jest 30 run, 80 kB of passing tests after the suite)', () => {
  const text = readFileSync(
    resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/jest/long-import.txt'),
    'utf8',
  );
  assert.equal(longOutput('jest', text).cannotRun, {
    what: 'a test file could not run (a.test.js)',
    line: "    Cannot find module './nope' from 'a.test.js'",
  });
  // The reason is the first non-blank line within five below: one further down is not kept for it.
  const far = `  ● Test suite failed to run\n${'\n'.repeat(5)}    far below\n${details(2000, (i) => `  ✓ case ${i} ${'w'.repeat(40)}`)}\n`;
  assert.equal(longOutput('jest', far).cannotRun, { what: 'a test file could not run', line: '  ● Test suite failed to run' });
  const validation = `● Validation Error:\n\n  Module ./setup.js in the setupFiles option was not found.\n${details(2000, (i) => `noise ${i} ${'v'.repeat(40)}`)}\n`;
  assert.equal(longOutput('jest', validation).cannotRun?.line, '  Module ./setup.js in the setupFiles option was not found.');
});

test.run();
