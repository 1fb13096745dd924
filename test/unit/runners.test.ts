/**
 * Runner profiles on output as the runners print it. The JavaScript runners and pytest are also run for
 * real (test/integration/runners.test.ts); go, playwright and nextest are not installed here, so their
 * samples follow their documented formats; cargo's were printed by cargo 1.x on this machine.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runnerCaught } from '../../src/config/runner-names.js';
import type { GateExit } from '../../src/gates/gate.js';
import { allProfiles, managerFailure, outputLines, stripAnsi } from '../../src/verdict/runner-output.js';
import { classify } from '../../src/verdict/verdict.js';
import type { RunnerName } from '../../src/types.js';

const PROFILES = await allProfiles();

const exit = (exitCode: number, tail: string): GateExit => ({
  exitCode,
  signal: null,
  timedOut: false,
  interrupted: false,
  seconds: 1,
  tail,
});
const judge = (
  runner: RunnerName | undefined,
  code: number,
  tail: string,
  opts: { allowNoTests?: boolean; words?: string[]; missingScript?: string } = {},
) =>
  classify(
    exit(code, tail),
    runner === 'mocha' ? Array.from({ length: 255 }, (_, i) => i + 1) : runner === 'cargo' ? [101] : runner === 'nextest' ? [100] : [1],
    30,
    {
      ...(runner && { runner }),
      output: {
        detection: {
          ...(runner && { runner }),
          words: opts.words ?? [],
          managers: ['npm'],
          ...(opts.missingScript && { missingScript: opts.missingScript }),
        },
        allowNoTests: opts.allowNoTests === true,
      },
    },
  );

const GO_FAIL = `--- FAIL: TestAdd (0.00s)
    add_test.go:8: got 3, want 4
FAIL
FAIL\texample.com/m\t0.002s
FAIL
`;
const GO_BUILD = `# example.com/m [example.com/m.test]
./add_test.go:8:2: undefined: foo
FAIL\texample.com/m [build failed]
FAIL
`;
const GO_PASS = 'ok  \texample.com/m\t0.002s\n';
const GO_NONE = '?   \texample.com/m\t[no test files]\n';
const GO_NO_RUN = 'testing: warning: no tests to run\nok  \texample.com/m\t0.002s [no tests to run]\n';

const CARGO_FAIL = `running 2 tests
test tests::ok ... ok
test tests::adds ... FAILED

failures:
    tests::adds

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.17s

error: test failed, to rerun pass \`--lib\`
`;
const CARGO_COMPILE = `error: this file contains an unclosed delimiter
 --> src/lib.rs:8:14
  |
8 | fn broken( {
  |          - -^

error: could not compile \`c\` (lib test) due to 1 previous error
`;
const CARGO_ZERO = `running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
const PW_FAIL = `Running 3 tests using 1 worker
  ✘  1 example.spec.ts:3:5 › has title (20ms)

  1) example.spec.ts:3:5 › has title

    Error: expect(received).toBe(expected)

  1 failed
    example.spec.ts:3:5 › has title
  2 passed (1.2s)
`;
const PW_NONE = 'Error: No tests found.\nMake sure that arguments are regular expressions matching test files.\n';
const NEXTEST_FAIL = `        FAIL [   0.004s] c tests::adds
────────────
     Summary [   0.010s] 2 tests run: 1 passed, 1 failed, 0 skipped
        FAIL [   0.004s] c tests::adds
error: test run failed
`;

// [title, runner, exit code, output, verdict, reason fragment]
const cases: [string, RunnerName | undefined, number, string, string, string | undefined][] = [
  ['go: a failed test', 'go', 1, GO_FAIL, 'caught', 'go: `--- FAIL: TestAdd (0.00s)`'],
  ['go: a build failure is no catch', 'go', 1, GO_BUILD, 'error', 'a compile error: `./add_test.go:8:2: undefined: foo`'],
  ['go: all pass', 'go', 0, GO_PASS, 'pass', undefined],
  ['go: no test files', 'go', 0, GO_NONE, 'error', 'no tests ran: `?   \\texample.com/m\\t[no test files]`'],
  ['go: no tests to run', 'go', 0, GO_NO_RUN, 'error', 'no tests ran'],
  ['go: no test files, allowed', 'go', 0, GO_NONE, 'pass', 'allowed by `allowNoTests`'],
  // mocha exits 1 for no test files as for one failure: with no test run, the code is not called a failure.
  [
    'mocha: no test files',
    'mocha',
    1,
    'Error: No test files found: "test"\n',
    'error',
    'no tests ran: `Error: No test files found: "test"`',
  ],
  ['cargo: a failed test (101)', 'cargo', 101, CARGO_FAIL, 'caught', 'cargo: `test result: FAILED. 1 passed; 1 failed'],
  [
    'cargo: a compile error (also 101)',
    'cargo',
    101,
    CARGO_COMPILE,
    'error',
    'a compile error: `src/lib.rs:8:14: error: this file contains an unclosed delimiter`',
  ],
  ['cargo: zero tests', 'cargo', 0, CARGO_ZERO, 'error', 'no tests ran'],
  ['playwright: a failed test', 'playwright', 1, PW_FAIL, 'caught', 'playwright: `1 failed`'],
  ['playwright: no tests found', 'playwright', 1, PW_NONE, 'error', 'no tests ran: `Error: No tests found.`'],
  ['nextest: a failed test (100)', 'nextest', 100, NEXTEST_FAIL, 'caught', '2 tests run: 1 passed, 1 failed'],
  ['nextest: exit 4 is no tests', 'nextest', 4, 'error: no tests to run\n', 'error', 'no tests ran'],
  ['pytest: exit 1 proves a failure even when -qq printed no summary', 'pytest', 1, '', 'caught', undefined],
  ['pytest: exit 5, allowed', 'pytest', 5, '\nno tests ran in 0.01s\n', 'pass', 'allowed by `allowNoTests`'],
  [
    'jest: exit 1 without a summary quotes the last line',
    'jest',
    1,
    'Segmentation fault\n',
    'error',
    'without a jest summary, so no test is known to have failed; last output: `Segmentation fault`',
  ],
  [
    'jest: exit 1, summary with no failed test (coverage threshold, jest 29)',
    'jest',
    1,
    'Jest: "global" coverage threshold for lines (90%) not met: 50%\nTests:       3 passed, 3 total\n',
    'error',
    'exit 1: jest says coverage is below its threshold: `Jest: "global" coverage threshold for lines (90%) not met: 50%`; no test failed (`Tests:       3 passed, 3 total`)',
  ],
  [
    'jest: exit 1, coverage threshold (jest 30)',
    'jest',
    1,
    'Test Suites: 1 passed, 1 total\nTests:       1 passed, 1 total\nJest: Coverage for statements (40%) does not meet "global" threshold (100%)\n',
    'error',
    'exit 1: jest says coverage is below its threshold: `Jest: Coverage for statements (40%) does not meet "global" threshold (100%)`; no test failed',
  ],
  [
    'jest: exit 1 with --ci and an obsolete snapshot',
    'jest',
    1,
    'Snapshot Summary\n › 1 snapshot obsolete from 1 test suite. To remove it, run `npm test -- -u`.\n\nTests:       1 passed, 1 total\nSnapshots:   1 obsolete, 1 passed, 1 total\n',
    'error',
    'exit 1: jest says obsolete snapshots (jest --ci fails on them): `› 1 snapshot obsolete from 1 test suite.',
  ],
  [
    'jest: an obsolete snapshot without --ci exits 0: a pass',
    'jest',
    0,
    'Snapshot Summary\n › 1 snapshot obsolete from 1 test suite. To remove it, run `npm test -- -u`.\n\nTests:       1 passed, 1 total\n',
    'pass',
    undefined,
  ],
  [
    'vitest: exit 0 but failures counted: they disagree',
    'vitest',
    0,
    ' Tests  1 failed | 1 passed (2)\n',
    'error',
    'exit 0 but vitest reports failed tests',
  ],
  ['mocha: exit 3 with 3 failing', 'mocha', 3, '  1 passing\n  3 failing\n', 'caught', 'mocha: `3 failing`'],
  [
    'colours are stripped before reading',
    'uvu',
    1,
    '\x1b[1m  Total:     2\x1b[22m\n  Passed:    1\x1b[39m\n  Skipped:   0\n',
    'caught',
    'uvu: `Total:     2`',
  ],
  ['no runner: exit 1 is a catch by its exit code, as before', undefined, 1, 'whatever\n', 'caught', undefined],
  [
    'no runner: a missing npm script is an error',
    undefined,
    1,
    'npm error Missing script: "test:quick"\n',
    'error',
    'npm: missing script "test:quick": `npm error Missing script: "test:quick"`',
  ],
];

// Printed by the real runners on this machine (jest 30, vitest 3, mocha 11, uvu 0.5, Node 20), trimmed.
const JEST_EXIT0 = `
  ●  process.exit called with "0"

      1 | test('a', () => {});
    > 2 | test('b', () => { process.exit(0); });
        |                           ^

      at Object.exit (cases/exit0/a.test.js:2:27)
`;
const JEST_ALL_SKIPPED =
  'Test Suites: 1 skipped, 0 of 1 total\nTests:       2 skipped, 2 total\nSnapshots:   0 total\nTime:        0.361 s\n';
const VITEST_UNHANDLED = ` ✓ a.test.js (2 tests) 55ms
⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯

Vitest caught 1 unhandled error during the test run.
This might cause false positive tests. Resolve unhandled errors to make sure your tests are not affected.

⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯
Error: late boom
 ❯ Timeout._onTimeout a.test.js:2:44

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯


 Test Files  1 passed (1)
      Tests  2 passed (2)
     Errors  1 error
`;
const VITEST_ALL_SKIPPED = ' ↓ a.test.js (2 tests | 2 skipped)\n\n Test Files  1 skipped (1)\n      Tests  2 skipped (2)\n';
const MOCHA_EXIT0 = '\n\n  ✔ a\n';
const MOCHA_TWO = '\n\n  1) a\n  2) b\n\n  0 passing (5ms)\n  2 failing\n\n  1) a:\n     AssertionError [ERR_ASSERTION]: 1 == 2\n';
const MOCHA_TAP =
  'not ok 1 a\n  1 == 2\n  AssertionError [ERR_ASSERTION]: 1 == 2\n      at Context.<anonymous> (cases/color/a.test.js:2:24)\nok 2 b\n# tests 2\n# pass 1\n# fail 1\n1..2\n';
const MOCHA_JSON =
  '{\n  "stats": {\n    "suites": 0,\n    "tests": 2,\n    "passes": 1,\n    "pending": 0,\n    "failures": 1,\n    "duration": 3\n  },\n  "tests": [],\n  "failures": [\n    {\n      "title": "a",\n      "err": { "message": "1 == 2" }\n    }\n  ]\n}\n';
const MOCHA_OOM =
  '<--- Last few GCs --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n----- Native stack trace -----\n\nAborted\n';
const UVU_FAIL_AND_SKIP = 'a.test.js\n✘   (1 / 2)\n\n  Total:     2\n  Passed:    1\n  Skipped:   1\n  Duration:  4.99ms\n';
const UVU_ONLY = 'a.test.js\n•   (1 / 1)\n\n  Total:     1\n  Passed:    1\n  Skipped:   1\n  Duration:  0.87ms\n';
// Two files; a.test.js called process.exit(0) in its second test: its tests' reports are lost, the file reads as a passed "test".
const NODE_EXIT0_BESIDE = `TAP version 13
# Subtest: /x/cases/exit0b/a.test.js
ok 1 - /x/cases/exit0b/a.test.js
  ---
  duration_ms: 142.125613
  ...
# Subtest: other
ok 2 - other
  ---
  duration_ms: 1.341833
  ...
1..2
# tests 2
# suites 0
# pass 2
# fail 0
# cancelled 0
# skipped 0
# todo 0
`;
const NODE_ALL_SKIPPED =
  '# Subtest: a\nok 1 - a # SKIP\n# Subtest: b\nok 2 - b # SKIP\n1..2\n# tests 2\n# suites 0\n# pass 0\n# fail 0\n# cancelled 0\n# skipped 2\n# todo 0\n';
const NO_SUMMARY_EXIT0 = 'TAP version 13\n# Subtest: a\nok 1 - a\n';

// Wrong verdicts found on the real runners: each was a pass, a catch or an error it should not have been.
const found: [string, RunnerName, number, string, string, string][] = [
  [
    'jest: a test that calls process.exit(0) stops jest before its summary (was pass)',
    'jest',
    0,
    JEST_EXIT0,
    'error',
    'a test called process.exit, so jest stopped before its summary: `●  process.exit called with "0"`',
  ],
  [
    'jest: --passWithNoTests with no tests (was pass)',
    'jest',
    0,
    'No tests found, exiting with code 0\n',
    'error',
    'no tests ran: `No tests found, exiting with code 0`',
  ],
  [
    'jest: every test skipped (was pass)',
    'jest',
    0,
    JEST_ALL_SKIPPED,
    'error',
    'no tests ran (every test was skipped): `Tests:       2 skipped, 2 total`',
  ],
  [
    'vitest: --passWithNoTests with no test files (was pass)',
    'vitest',
    0,
    '\n RUN  v3.2.7 /x\n\nNo test files found, exiting with code 0\n',
    'error',
    'no tests ran: `No test files found, exiting with code 0`',
  ],
  [
    'vitest: an error thrown after every test passed names the error',
    'vitest',
    1,
    VITEST_UNHANDLED,
    'error',
    'vitest caught an error outside the tests: `Error: late boom`',
  ],
  [
    'vitest: a file without a suite beside tests that ran says so',
    'vitest',
    1,
    ' FAIL  test/zz.spec.ts [ test/zz.spec.ts ]\nError: No test suite found in file /x/test/zz.spec.ts\n\n Test Files  1 failed | 2 passed (3)\n      Tests  387 passed (387)\n',
    'error',
    'a test file holds no tests (387 others ran): `Error: No test suite found in file /x/test/zz.spec.ts`',
  ],
  ['vitest: every test skipped (was pass)', 'vitest', 0, VITEST_ALL_SKIPPED, 'error', 'no tests ran (every test was skipped)'],
  [
    'vitest: a worker killed by a signal',
    'vitest',
    1,
    "\n RUN  v3.2.7 /x\n\n\n⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯\nError: Channel closed\n ❯ target.send ../node:internal/child_process:753:16\n\n⎯⎯⎯⎯⎯⎯⎯⎯\nSerialized Error: { code: 'ERR_IPC_CHANNEL_CLOSED' }\n",
    'error',
    'a vitest worker died (a crash, process.abort(), or out of memory): `Error: Channel closed`',
  ],
  [
    'vitest: a worker out of memory',
    'vitest',
    1,
    "<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n\n⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯\nError: Channel closed\nSerialized Error: { code: 'ERR_IPC_CHANNEL_CLOSED' }\n",
    'error',
    'a vitest worker died (a crash, process.abort(), or out of memory): `FATAL ERROR: Reached heap limit',
  ],
  [
    'vitest: --reporter=json, all passed (no summary line, its JSON counts)',
    'vitest',
    0,
    '{"numTotalTestSuites":1,"numPassedTestSuites":1,"numFailedTestSuites":0,"numPendingTestSuites":0,"numTotalTests":2,"numPassedTests":1,"numFailedTests":0,"numPendingTests":1,"numTodoTests":0,"testResults":[]}\n',
    'pass',
    '',
  ],
  [
    'vitest: --reporter=json, a failed test',
    'vitest',
    1,
    '{"numTotalTestSuites":1,"numTotalTests":2,"numPassedTests":1,"numFailedTests":1,"numPendingTests":0,"numTodoTests":0,"testResults":[]}\n',
    'caught',
    'vitest: `"numFailedTests":1`',
  ],
  [
    'jest: --json without its summary, every test skipped',
    'jest',
    0,
    '{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTests":0,"numPendingTests":2,"numTodoTests":0,"numTotalTests":2}\n',
    'error',
    'no tests ran (every test was skipped): `"numTotalTests":2`',
  ],
  ['mocha: a test that calls process.exit(0): no summary (was pass)', 'mocha', 0, MOCHA_EXIT0, 'error', 'exit 0 without a mocha summary'],
  ['mocha: --reporter tap, a failed test (was error)', 'mocha', 1, MOCHA_TAP, 'caught', 'mocha: `# fail 1`'],
  ['mocha: --reporter json, a failed test (was error)', 'mocha', 1, MOCHA_JSON, 'caught', 'mocha: `"failures": 1,`'],
  ["mocha: out of memory quotes node's fatal error", 'mocha', 134, MOCHA_OOM, 'error', 'out of memory: `FATAL ERROR: Reached heap limit'],
  [
    'a fatal error that is not memory is not called out of memory',
    'uvu',
    134,
    '\n#\n# Fatal error in , line 0\nFATAL ERROR: v8::ToLocalChecked Empty MaybeLocal\nAborted\n',
    'error',
    'exit 134: node died of a fatal error: `FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal`',
  ],
  ['uvu: a failed test beside a skipped one (was error)', 'uvu', 1, UVU_FAIL_AND_SKIP, 'caught', 'uvu: `Total:     2`'],
  ['uvu: .only leaves the others skipped; the one that ran passed', 'uvu', 0, UVU_ONLY, 'pass', ''],
  [
    'node: a file that exited 0 early beside another file (was pass)',
    'node',
    0,
    NODE_EXIT0_BESIDE,
    'error',
    'a test file reported no test (it has none, or it exited before its tests reported, e.g. process.exit in a test): `ok 1 - /x/cases/exit0b/a.test.js`',
  ],
  [
    'node: a test file killed by a signal names it',
    'node',
    1,
    "# Subtest: /x/a.test.js\nnot ok 1 - /x/a.test.js\n  ---\n  failureType: 'testCodeFailure'\n  exitCode: ~\n  signal: 'SIGABRT'\n  error: 'test failed'\n  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n",
    'error',
    'a test file failed outside any test: `/x/a.test.js was killed by SIGABRT`',
  ],
  [
    "node: a test file out of memory quotes node's fatal error",
    'node',
    1,
    "# FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\nnot ok 1 - /x/a.test.js\n  signal: 'SIGABRT'\n# tests 1\n# pass 0\n# fail 1\n",
    'error',
    'a test file failed outside any test: `FATAL ERROR: Reached heap limit',
  ],
  [
    "node: a failing before hook cancels its tests: the hook's error is named",
    'node',
    1,
    "not ok 1 - s\n  ---\n  type: 'suite'\n  failureType: 'hookFailed'\n  error: 'setup broke'\n  ...\n1..1\n# tests 2\n# suites 1\n# pass 0\n# fail 0\n# cancelled 2\n",
    'error',
    "exit 1: node says 2 tests were cancelled by a failing hook: `error: 'setup broke'`; no test failed",
  ],
  ['node: every test skipped (was pass)', 'node', 0, NODE_ALL_SKIPPED, 'error', 'no tests ran (every test was skipped): `# tests 2`'],
  [
    'node: exit 0 with no summary (a file run without --test that exited early) (was pass)',
    'node',
    0,
    NO_SUMMARY_EXIT0,
    'error',
    'exit 0 without a node summary',
  ],
];
/** One test per row: the runner's output judged, its verdict, and a fragment of its reason. */
function judgedRows(rows: readonly (readonly [string, RunnerName, number, string, string, string])[]): void {
  for (const [title, runner, code, tail, verdict, reason] of rows) {
    test(title, () => {
      const c = judge(runner, code, tail);
      assert.is(c.verdict, verdict, c.reason);
      assert.ok((c.reason ?? '').includes(reason), `reason: ${c.reason}`);
    });
  }
}
judgedRows(found);

test('mocha: two failing tests exit 2, a catch under the codes a detected (not named) mocha gets when the tier lists no caught (was error); under an explicit caught [1], an error that says how to count it', () => {
  const judged = (code: number, caught: number[]) =>
    classify(exit(code, MOCHA_TWO), caught, 30, {
      runner: 'mocha',
      output: { detection: { runner: 'mocha', words: ['mocha'], managers: ['npm'] } },
    });
  // ladder.ts hands a tier with no `caught` of its own the detected runner's codes: runnerCaught('mocha').
  const c = judged(2, runnerCaught('mocha')!);
  assert.is(c.verdict, 'caught', c.reason);
  assert.match(c.reason ?? '', 'mocha: `2 failing`');
  // The tier's own caught [1]: something else ended the run, and the reason does not deny the failures.
  const odd = judged(2, [1]);
  assert.is(odd.verdict, 'error');
  assert.match(
    odd.reason ?? '',
    'exit 2 (what mocha exits with when tests fail), which this tier does not count as a test failure (`caught`: 1), though mocha counts failed tests: `2 failing`',
  );
});

test('every test skipped, with allowNoTests: a pass that says so', () => {
  const c = judge('jest', 0, JEST_ALL_SKIPPED, { allowNoTests: true });
  assert.is(c.verdict, 'pass');
  assert.match(c.reason ?? '', 'no tests ran (every test was skipped) (allowed by `allowNoTests`)');
});

test('pytest: exit 0 without a summary is still a pass (-qq prints none; its exit codes say what happened)', () => {
  assert.is(judge('pytest', 0, '.                                                                        [100%]\n').verdict, 'pass');
});

test("npm init's placeholder test script is an error, not a catch", () => {
  const c = classify(exit(1, '\n> test\n> echo "Error: no test specified" && exit 1\n\nError: no test specified\n'), [1], 30, {
    output: { detection: { words: ['echo', 'exit'], managers: ['npm'], placeholderScript: 'test' }, allowNoTests: false },
  });
  assert.is(c.verdict, 'error');
  assert.is(c.inapplicable, true);
  assert.match(c.reason ?? '', 'npm: package.json\'s "test" script is npm init\'s placeholder');
  assert.match(c.reason ?? '', 'put your test command in the "test" script');
});

for (const [title, runner, code, tail, verdict, reason] of cases) {
  test(title, () => {
    const c = judge(runner, code, tail, { allowNoTests: title.includes('allowed') });
    assert.is(c.verdict, verdict, c.reason);
    if (reason === undefined) assert.ok(c.reason === undefined || c.verdict === 'caught', c.reason);
    else assert.ok((c.reason ?? '').includes(reason), `reason: ${c.reason}`);
  });
}

// Package managers and the shell, whatever the runner: [output, what].
const managers: [string, string][] = [
  ['npm error Missing script: "test:quick"', 'npm: missing script "test:quick"'],
  ['npm ERR! Missing script: "lint"', 'npm: missing script "lint"'],
  [
    "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/x/package.json'",
    'npm: no package.json',
  ],
  [' ERR_PNPM_NO_SCRIPT  Missing script: test:quick', 'pnpm: missing script "test:quick"'],
  [' ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "test:quick" not found', 'pnpm: no script or command "test:quick"'],
  [' ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND  No package.json (or package.yaml, or package.json5) was found in "/x".', 'pnpm: no package.json'],
  ['error Command "test:quick" not found.', 'yarn: no script or command "test:quick"'],
  ['error Couldn\'t find a package.json file in "/x"', 'yarn: no package.json'],
  ['Usage Error: Couldn\'t find a script named "test:quick".', 'yarn: missing script "test:quick"'],
  ['error: Script not found "test:quick"', 'bun: missing script "test:quick"'],
  ['sh: 1: tape: not found', 'command not found: tape'],
  [
    '> echo "Error: no test specified" && exit 1',
    'npm: a test script is npm init\'s placeholder, which runs no test; put the test command in that package\'s "test" script',
  ],
  [
    "Error: Cannot find module '/x/node_modules/uvu/bin.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}",
    'the script to run does not exist: /x/node_modules/uvu/bin.js',
  ],
];
for (const [text, what] of managers) {
  test(`managerFailure: ${what}`, () => {
    assert.is(managerFailure(outputLines(text), new Set(['tape']))?.what, what);
    // Whatever the runner, and whatever a profile would say.
    const c = judge('jest', 1, `${text}\nTests:       1 failed, 1 total\n`, { words: ['tape'] });
    assert.is(c.verdict, 'error');
    assert.is(c.inapplicable, true);
  });
}

test('a shell "not found" for a word the command does not run is not the command\'s own', () => {
  assert.is(managerFailure(['sh: 1: git-lfs: not found'], new Set(['jest'])), undefined);
  // A test's own import that is missing has a require stack: not the entry point.
  assert.is(
    managerFailure(
      ["Error: Cannot find module 'tape'", 'Require stack:', '- /x/test/a.js', "  requireStack: [ '/x/test/a.js' ]"],
      new Set(),
    ),
    undefined,
  );
});

test('npm run -s prints nothing of a missing script: package.json says it', () => {
  const c = judge('jest', 1, '', { missingScript: 'test:quick' });
  assert.is(c.verdict, 'error');
  assert.match(c.reason ?? '', 'npm: missing script "test:quick" (package.json here has no such script)');
});

test('reasons quote the deciding line with control characters escaped', () => {
  const c = judge('jest', 1, 'boom\x07 \x1b[31mred\x1b[39m\r\n');
  assert.match(c.reason ?? '', '`boom\\x07 red`');
});

test('stripAnsi and progress redraws', () => {
  assert.is(stripAnsi('\x1b[32m✓\x1b[39m ok \x1b]8;;http://x\x07link\x1b]8;;\x07'), '✓ ok link');
  assert.equal(outputLines('10%\r50%\r100%\ndone\r\n'), ['100%', 'done', '']);
});

// python -m unittest, as Python 3.10 to 3.13 printed it (tracebacks trimmed): [title, exit code, output, verdict, reason fragment].
const UT_RULE = '-'.repeat(70);
const UT_BLOCK = '='.repeat(70);
const UT_FAIL = `F.
${UT_BLOCK}
FAIL: test_adds (test_a.T.test_adds)
${UT_RULE}
Traceback (most recent call last):
  File "/tmp/ut/caught/test_a.py", line 3, in test_adds
    def test_adds(self): self.assertEqual(1+1, 3)
AssertionError: 2 != 3

${UT_RULE}
Ran 2 tests in 0.001s

FAILED (failures=1)
`;
const UT_IMPORT = `E
${UT_BLOCK}
ERROR: test_a (unittest.loader._FailedTest.test_a)
${UT_RULE}
ImportError: Failed to import test module: test_a
Traceback (most recent call last):
  File "/usr/lib/python3.11/unittest/loader.py", line 419, in _find_test_path
    module = self._get_module_from_name(name)
  File "/tmp/ut/import/test_a.py", line 2, in <module>
    import nope
ModuleNotFoundError: No module named 'nope'


${UT_RULE}
Ran 1 test in 0.000s

FAILED (errors=1)
`;
const UT_RAISES = `E.
${UT_BLOCK}
ERROR: test_adds (test_a.T.test_adds)
${UT_RULE}
Traceback (most recent call last):
  File "/tmp/ut/raises/test_a.py", line 3, in test_adds
    def test_adds(self): raise KeyError('k')
KeyError: 'k'

${UT_RULE}
Ran 2 tests in 0.001s

FAILED (errors=1)
`;
const UT_SETUP_CLASS = `E
${UT_BLOCK}
ERROR: setUpClass (test_a.T)
${UT_RULE}
Traceback (most recent call last):
  File "/tmp/ut/setupclass/test_a.py", line 4, in setUpClass
    def setUpClass(cls): raise RuntimeError('db down')
RuntimeError: db down

${UT_RULE}
Ran 0 tests in 0.000s

FAILED (errors=1)
`;
const UT_MIXED = `EF.ssxu
${UT_BLOCK}
UNEXPECTED SUCCESS: test_xpass (test_a.T.test_xpass)
${UT_RULE}
Ran 7 tests in 0.001s

FAILED (failures=1, errors=1, skipped=2, expected failures=1, unexpected successes=1)
`;
const UT_CASES: [string, number, string, string, string | undefined][] = [
  ['all pass', 0, `..\n${UT_RULE}\nRan 2 tests in 0.000s\n\nOK\n`, 'pass', undefined],
  ['a failed assertion', 1, UT_FAIL, 'caught', 'unittest: `FAILED (failures=1)`'],
  [
    'a test module that cannot import is no test',
    1,
    UT_IMPORT,
    'error',
    "unittest could not load a test module: `ModuleNotFoundError: No module named 'nope'`",
  ],
  [
    'a syntax error in a test module',
    1,
    `E\n${UT_BLOCK}\nERROR: test_a (unittest.loader._FailedTest)\n${UT_RULE}\nImportError: Failed to import test module: test_a\nTraceback (most recent call last):\n  File "/tmp/ut/syntax/test_a.py", line 3\n    def test_a(self) pass\n                     ^^^^\nSyntaxError: expected ':'\n\n\n${UT_RULE}\nRan 1 test in 0.000s\n\nFAILED (errors=1)\n`,
    'error',
    "`SyntaxError: expected ':'`",
  ],
  [
    'a module that cannot import beside a failed test: the failure is a catch',
    1,
    UT_IMPORT.replace('FAILED (errors=1)', 'FAILED (failures=1, errors=1)').replace('Ran 1 test', 'Ran 3 tests'),
    'caught',
    'FAILED (failures=1, errors=1)',
  ],
  ['an exception inside a test is the test failing', 1, UT_RAISES, 'caught', 'unittest: `FAILED (errors=1)`'],
  ['a setUpClass that raises is the tests failing (3.11: exit 1)', 1, UT_SETUP_CLASS, 'caught', 'unittest: `FAILED (errors=1)`'],
  ['a setUpClass that raises is the tests failing (3.12 and later: exit 5)', 5, UT_SETUP_CLASS, 'caught', 'unittest: `FAILED (errors=1)`'],
  ['failures, errors, skips, expected failures, unexpected successes', 1, UT_MIXED, 'caught', 'unexpected successes=1)'],
  [
    'an unexpected success alone fails the run',
    1,
    UT_MIXED.replace('failures=1, errors=1, skipped=2, ', ''),
    'caught',
    'FAILED (expected failures=1, unexpected successes=1)',
  ],
  [
    'every test skipped is no test run (as for every runner)',
    0,
    `ss\n${UT_RULE}\nRan 2 tests in 0.000s\n\nOK (skipped=2)\n`,
    'error',
    'no tests ran (every test was skipped)',
  ],
  ['a test that ended the process (os._exit(0)) before the summary is no pass', 0, '..', 'error', 'exit 0 without a unittest summary'],
  [
    'no tests before Python 3.12 (exit 0)',
    0,
    `\n${UT_RULE}\nRan 0 tests in 0.000s\n\nOK\n`,
    'error',
    'no tests ran: `Ran 0 tests in 0.000s`; if that is expected, set `allowNoTests: true`',
  ],
  [
    'no tests on Python 3.12 and later (exit 5)',
    5,
    `\n${UT_RULE}\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n`,
    'error',
    'no tests ran (exit 5: unittest ran no tests (Python 3.12 and later)): `Ran 0 tests in 0.000s`',
  ],
  ['no tests (exit 5), allowed', 5, `\n${UT_RULE}\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n`, 'pass', 'allowed by `allowNoTests`'],
  [
    'a start folder that cannot be imported',
    1,
    `Traceback (most recent call last):\n  File "/usr/lib/python3.11/unittest/loader.py", line 332, in discover\n    raise ImportError('Start directory is not importable: %r' % start_dir)\nImportError: Start directory is not importable: 'nope'\n`,
    'error',
    "unittest could not start: `ImportError: Start directory is not importable: 'nope'`",
  ],
  [
    'a bad option (exit 2)',
    2,
    'usage: python3 -m unittest [-h] [-v] [-q] [--locals] [-f] [-c] [-b]\npython3 -m unittest: error: unrecognized arguments: --bogus\n',
    'error',
    'a unittest usage error: `python3 -m unittest: error: unrecognized arguments: --bogus`',
  ],
  ['exit 1 without a summary is no catch', 1, 'Segmentation fault\n', 'error', 'without a unittest summary'],
];
for (const [title, code, tail, verdict, reason] of UT_CASES) {
  test(`unittest: ${title}`, () => {
    const c = classify(exit(code, tail), [1], 30, {
      runner: 'unittest',
      output: { detection: { runner: 'unittest', words: [], managers: [] }, allowNoTests: title.includes('allowed') },
    });
    assert.is(c.verdict, verdict, c.reason);
    if (reason === undefined) assert.is(c.reason, undefined);
    else assert.ok((c.reason ?? '').includes(reason), `reason: ${c.reason}`);
  });
}

test('unittest: os._exit(0) in the code under test (real output: one dot, exit 0) is an error that speaks python, not node', () => {
  const tail = readFileSync(new URL('../../../test/fixtures/runners/unittest/exit.txt', import.meta.url), 'utf8');
  const c = classify(exit(0, tail), [1], 30, {
    runner: 'unittest',
    output: { detection: { runner: 'unittest', words: [], managers: [] } },
  });
  assert.equal(c, {
    verdict: 'error',
    runWide: true,
    reason:
      'exit 0 without a unittest summary, so nothing shows the tests ran to the end (os._exit in a test or the code it ran, or sys.exit outside a test, ended python before unittest printed it); last output: `.`; run `python -m unittest -v` to see the last test started, and mend it',
  });
});

test("pytest with a JUnit report: a collection error's reason keeps its cause, as without the report (real output, exit 2)", () => {
  const tail = readFileSync(new URL('../../../test/fixtures/runners/pytest/collect-junit.txt', import.meta.url), 'utf8');
  const opts = (reportDecides: boolean) => ({
    runner: 'pytest' as const,
    output: { detection: { runner: 'pytest' as const, words: [], managers: [] }, reportDecides },
  });
  const reason = "pytest could not collect the tests (tests/test_core.py): `SyntaxError: expected ':'`";
  assert.equal(classify(exit(2, tail), [1], 30, opts(true)), { verdict: 'error', reason });
  assert.equal(classify(exit(2, tail), [1], 30, opts(false)), { verdict: 'error', reason });
  // A catch is still the report's to decide.
  assert.is(classify(exit(1, tail), [1], 30, opts(true)).verdict, 'caught');
});

test('unittest: a reason quoting a test module escapes its control characters', () => {
  const c = classify(exit(1, UT_IMPORT.replace("named 'nope'", "named 'no\x07pe'")), [1], 30, {
    runner: 'unittest',
    output: { detection: { runner: 'unittest', words: [], managers: [] } },
  });
  assert.is(c.verdict, 'error');
  assert.ok((c.reason ?? '').includes("named 'no\\x07pe'") && !(c.reason ?? '').includes('\x07'), c.reason);
});

// cargo test as cargo 1.95 printed it on real crates here (cargo is not on the CI machine): [title, exit code, output, verdict, reason fragment].
const CARGO_NO_FAIL_FAST = `     Running unittests src/lib.rs (target/debug/deps/multi-b979ca4821cd2c4f)

running 1 test
test tests::unit_ok ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/b.rs (target/debug/deps/b-8cd136700b92481b)

running 2 tests
test b_fails ... FAILED
test b_ok ... ok

failures:
    b_fails

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--test b\`
   Doc-tests multi

running 1 test
test src/lib.rs - add (line 2) ... FAILED

failures:
    src/lib.rs - add (line 2)

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s

all doctests ran in 1.57s; merged doctests compilation took 1.52s
error: doctest failed, to rerun pass \`--doc\`
error: 2 targets failed:
    \`--test b\`
    \`--doc\`
`;
const CARGO_HARNESS_PANIC = `     Running unittests src/lib.rs (target/debug/deps/panicmain-3ccab60687a6f195)

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/custom.rs (target/debug/deps/custom-55af6e914648893a)

thread 'main' (30136) panicked at tests/custom.rs:1:13:
setup exploded
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace
error: test failed, to rerun pass \`--test custom\`
`;
const CARGO_ABORT = `     Running unittests src/lib.rs (target/debug/deps/abort-268ca3fa4df4c43a)

running 2 tests
test fine ... ok
error: test failed, to rerun pass \`--lib\`

Caused by:
  process didn't exit successfully: \`/tmp/cr/abort/target/debug/deps/abort-268ca3fa4df4c43a\` (signal: 6, SIGABRT: process abort signal)
`;
const CARGO_BUILD_SCRIPT = `   Compiling buildrs v0.1.0 (/tmp/cr/buildrs)
error: failed to run custom build command for \`buildrs v0.1.0 (/tmp/cr/buildrs)\`

Caused by:
  process didn't exit successfully: \`/tmp/cr/buildrs/target/debug/build/buildrs-dd713ab8d04f19cd/build-script-build\` (exit status: 101)
  --- stderr

  thread 'main' (30323) panicked at build.rs:1:13:
  build script exploded
`;
const CARGO_TEST_COMPILE = `   Compiling compile v0.1.0 (/tmp/cr/compile)
error[E0308]: mismatched types
 --> src/lib.rs:5:41
  |
5 |     #[test] fn adds() { let x: String = add(1, 1); assert_eq!(x, "2"); }
  |                                ------   ^^^^^^^^^ expected \`String\`, found \`i32\`

For more information about this error, try \`rustc --explain E0308\`.
error: could not compile \`compile\` (lib test) due to 1 previous error
`;
const CARGO_NONE = `     Running unittests src/lib.rs (target/debug/deps/none-e47336771d824168)

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests none

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
const CARGO_REAL: [string, number, string, string, string][] = [
  [
    '--no-fail-fast: an integration test and a doc-test failed',
    101,
    CARGO_NO_FAIL_FAST,
    'caught',
    'cargo: `test result: FAILED. 1 passed; 1 failed;',
  ],
  [
    'a harness = false test whose main panicked is no test result',
    101,
    CARGO_HARNESS_PANIC,
    'error',
    "the test binary for tests/custom.rs panicked before its test result: the code under test (or the test) ended the process (its own main, a `harness = false` test, panicked or exited with a code); it says: `thread 'main' (30136) panicked at tests/custom.rs:1:13:`; `cargo test --test custom` runs it alone",
  ],
  [
    'a test that aborts the process is a crash',
    101,
    CARGO_ABORT,
    'error',
    'the test binary for src/lib.rs (unittests) aborted before its test result: the code under test (or the test) ended the process (std::process::abort, a panic that cannot unwind (panic = "abort", a panic in a drop or an extern "C" fn), or a crash); it says: `process didn\'t exit successfully:',
  ],
  ['a build script that panics', 101, CARGO_BUILD_SCRIPT, 'error', 'a build script failed: `error: failed to run custom build command for'],
  ['a compile error in a test', 101, CARGO_TEST_COMPILE, 'error', 'a compile error: `src/lib.rs:5:41: error[E0308]: mismatched types`'],
  ['a crate with no tests (lib and doc-tests: 0 each)', 0, CARGO_NONE, 'error', 'no tests ran: `test result: ok. 0 passed;'],
];
judgedRows(CARGO_REAL.map(([title, ...rest]) => [`cargo (real output): ${title}`, 'cargo', ...rest] as const));

test('a failure exit the tier does not count, with failed tests counted: says so and how to count it', () => {
  const c = classify(exit(101, CARGO_NO_FAIL_FAST), [1], 30, {
    runner: 'cargo',
    output: { detection: { runner: 'cargo', words: [], managers: [] } },
  });
  assert.is(c.verdict, 'error');
  assert.match(
    c.reason ?? '',
    'exit 101 (what cargo exits with when tests fail), which this tier does not count as a test failure (`caught`: 1), though cargo counts failed tests',
  );
  assert.match(c.reason ?? '', "add it to the tier's `caught`");
});

// pytest 9 on real projects here, trimmed: [title, exit code, output, verdict, reason fragment].
const PYTEST_NO_FIXTURE = `test_a.py E.                                                             [100%]

==================================== ERRORS ====================================
___________________________ ERROR at setup of test_a ___________________________
file /tmp/pt/nofix/test_a.py, line 1
  def test_a(mocker): pass
E       fixture 'mocker' not found
>       available fixtures: capfd, capsys, monkeypatch, tmp_path
>       use 'pytest --fixtures [testpath]' for help on them.

/tmp/pt/nofix/test_a.py:1
=========================== short test summary info ============================
ERROR test_a.py::test_a
========================== 1 passed, 1 error in 1.40s ==========================
`;
const PYTEST_REAL: [string, number, string, string, string][] = [
  [
    '-x stops after the first failure',
    1,
    'FAILED test_a.py::test_a - assert 1 == 2\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n============================== 1 failed in 1.48s ===============================\n',
    'caught',
    'pytest: `1 failed in 1.48s`',
  ],
  [
    'a fixture that raises is the test failing (1 error)',
    1,
    '_____________ ERROR at setup of test_a _____________\nE       RuntimeError: db down\n=========================== short test summary info ============================\nERROR test_a.py::test_a - RuntimeError: db down\n1 passed, 1 error in 1.99s\n',
    'caught',
    'pytest: `1 passed, 1 error in 1.99s`',
  ],
  [
    'a fixture no one defines is no test run',
    1,
    PYTEST_NO_FIXTURE,
    'error',
    "a test asks for a fixture that does not exist (a pytest plugin that is not installed?): `fixture 'mocker' not found`",
  ],
  [
    'a fixture no one defines beside a failed test: the failure is a catch',
    1,
    PYTEST_NO_FIXTURE.replace('1 passed, 1 error', '1 failed, 1 passed, 1 error'),
    'caught',
    '1 failed, 1 passed, 1 error',
  ],
  [
    '-qq: no summary line, the short summary names the failed test',
    1,
    "E       fixture 'mocker' not found\n=========================== short test summary info ============================\nFAILED test_a.py::test_c - assert 0\nERROR test_a.py::test_a\n",
    'caught',
    'pytest: `FAILED test_a.py::test_c - assert 0`',
  ],
  [
    '--strict-markers with an unknown marker',
    2,
    "__________________________ ERROR collecting test_a.py __________________________\n'slowish' not found in `markers` configuration option\n=========================== short test summary info ============================\nERROR test_a.py - Failed: 'slowish' not found in `markers` configuration option\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 2.37s\n",
    'error',
    "pytest could not collect the tests (test_a.py): `ERROR test_a.py - Failed: 'slowish' not found in `markers` configuration option`",
  ],
  [
    'a strict xfail that passes fails the run',
    1,
    'FAILED test_a.py::test_xpass_strict - [XPASS(strict)] \n1 failed, 1 xfailed, 1 xpassed in 1.44s\n',
    'caught',
    'pytest: `1 failed, 1 xfailed, 1 xpassed in 1.44s`',
  ],
];
judgedRows(PYTEST_REAL.map(([title, ...rest]) => [`pytest (real output): ${title}`, 'pytest', ...rest] as const));

test('pytest: a bad option and a conftest.py that cannot import (exit 4) say so', () => {
  const bad = judge(
    'pytest',
    4,
    'ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]\n__main__.py: error: unrecognized arguments: --bogus\n  inifile: None\n  rootdir: /tmp/pt/x\n',
  );
  assert.is(bad.verdict, 'error');
  assert.match(bad.reason ?? '', 'a pytest usage error: `__main__.py: error: unrecognized arguments: --bogus`');
  const conftest = judge(
    'pytest',
    4,
    "ImportError while loading conftest '/tmp/pt/conf/conftest.py'.\nconftest.py:1: in <module>\n    import nope\nE   ModuleNotFoundError: No module named 'nope'\n",
  );
  assert.is(conftest.verdict, 'error');
  assert.match(conftest.reason ?? '', "pytest could not load a conftest.py: `ModuleNotFoundError: No module named 'nope'`");
});

test('pytest: python -m pytest where that python has no pytest is an error saying so; a test printing the same words is not', () => {
  const words = ['python3', '-m', 'pytest'];
  const absent = judge('pytest', 1, '/root/.pyenv/versions/3.11.7/bin/python3: No module named pytest\n', { words });
  assert.is(absent.verdict, 'error');
  assert.is(
    absent.reason,
    "this python cannot import pytest, so no test ran (install pytest for that python, or push where the project's virtualenv that has it is active): `/root/.pyenv/versions/3.11.7/bin/python3: No module named pytest`",
  );
  assert.is(judge('pytest', 1, 'x: No module named pytest\n=========== 1 failed in 0.10s ===========\n', { words }).verdict, 'caught');
});

test('pytest: a non-strict xpass alone passes', () => {
  assert.is(judge('pytest', 0, '1 xpassed, 1 xfailed in 0.05s\n').verdict, 'pass');
});

test('every runner has a profile', () => {
  for (const r of ['jest', 'vitest', 'mocha', 'uvu', 'node', 'playwright', 'pytest', 'go', 'cargo', 'nextest'] as const)
    assert.type(PROFILES[r].read, 'function');
});

test.run();
