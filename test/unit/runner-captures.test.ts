/**
 * ava, jasmine and node-tap (and node --test's reporters and pytest's verbosities, below) judged on what they printed here, one file per case in
 * test/fixtures/runners/<runner>/ (captured from ava 6.4, jasmine 7.0 and 5.13 (the same lines), tap
 * 21.8 on Node 20; node --test on Node 20, 22 and 24; pytest 9), through a pipe as a hook runs them; `color-*` and tap's `base-*` with colours
 * forced; stack frames, temp folders and random seeds trimmed). Each case: the exit code the runner
 * gave, the verdict, and a fragment of the reason. Before these profiles the three were judged by
 * exit code alone: ava's and tap's exit 1 was `caught` for a file that cannot load or no tests at all,
 * and jasmine's exit 3 for failed specs was an `error` (only 1 counted).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runnerCaught } from '../../src/config/runner-names.js';
import { allProfiles, outputLines } from '../../src/verdict/runner-output.js';
import { classify } from '../../src/verdict/verdict.js';
import type { RunnerName } from '../../src/types.js';

const PROFILES = await allProfiles();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners');
const output = (runner: RunnerName, name: string) => readFileSync(resolve(FIXTURES, runner, `${name}.txt`), 'utf8');

/** As a tier that lists no `caught` judges it: the runner's own failure codes (jasmine's 3), else [1]. */
function judge(runner: RunnerName, code: number, tail: string, allowNoTests = false) {
  const caught = runnerCaught(runner) ?? [1];
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, caught, 30, {
    runner,
    output: { detection: { runner, words: [], managers: [] }, allowNoTests },
  });
}

// [fixture, exit code, verdict, reason fragment ('' for a pass without a reason)]
type Row = [string, number, 'pass' | 'caught' | 'error', string];

const AVA: Row[] = [
  ['pass', 0, 'pass', ''],
  ['caught', 1, 'caught', 'ava: `1 test failed`'],
  ['mixed', 1, 'caught', 'ava: `2 tests failed`'],
  ['color-mixed', 1, 'caught', 'ava: `2 tests failed`'],
  ['never', 1, 'caught', 'ava: `1 test failed`'],
  ['failing', 1, 'caught', 'ava: `1 test failed`'],
  ['fail-fast', 1, 'caught', 'ava: `1 test failed`'],
  // A failing before hook: ava counts it, as mocha does; its file's tests stay unrun.
  ['hook', 1, 'caught', 'ava: `1 hook failed`'],
  // A failed test beside a file that cannot load: the failure is a catch.
  ['two-files', 1, 'caught', 'ava: `1 test failed`'],
  ['import', 1, 'error', "an uncaught exception in cases/import/a.test.js, outside any test: `Error: Cannot find module './nope'`"],
  ['esm', 1, 'error', "outside any test: `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/cases/esm/nope.js'"],
  ['syntax', 1, 'error', 'an uncaught exception in cases/syntax/a.test.js, outside any test: `SyntaxError: Unexpected end of input`'],
  ['toplevel', 1, 'error', 'outside any test: `Error: top boom`'],
  ['late', 1, 'error', 'an uncaught exception in cases/late/a.test.js, outside any test: `Error: late boom`'],
  ['reject', 1, 'error', 'an unhandled rejection in cases/reject/a.test.js, outside any test: `Error: unhandled boom`'],
  [
    'exit',
    1,
    'error',
    "process.exit was called (in a test, or by the file itself), so ava stopped before the file's tests finished: `✘ Exiting due to process.exit() when running cases/exit/a.test.js`",
  ],
  [
    'timeout',
    1,
    'error',
    "ava's timeout ended the run: a test never finished (ava --timeout, 10 s by default): `1 test remained pending after a timeout`",
  ],
  ['abort', 1, 'error', "a test file's process died: `✘ cases/abort/a.test.js exited due to SIGABRT`"],
  ['no-files', 1, 'error', 'no tests ran: `✘ Couldn’t find any files to test`; if that is expected, set `allowNoTests: true` on the tier'],
  ['filtered', 1, 'error', 'no tests ran: `✘ Based on your configuration, 24 test files were found, but did not match the filters:`'],
  ['match-none', 1, 'error', 'no tests ran: `✘ Couldn’t find any matching tests`'],
  ['zero', 1, 'error', 'no tests ran: `✘ No tests found in cases/zero/a.test.js, make sure to import "ava" at the top of your test file`'],
  ['skipped', 0, 'error', 'no tests ran (every test was skipped): `2 tests skipped`'],
  ['todo', 0, 'error', 'no tests ran (every test was skipped): `1 test todo`'],
  ['only', 0, 'pass', ''],
  ['usage', 1, 'error', 'ava could not start: `✘ The --concurrency or -c flag must be provided with a non-negative integer.`'],
  ['config', 1, 'error', "ava could not start: `✘ Error loading ava.config.mjs: Unexpected token ';'`"],
  // --tap
  ['tap-pass', 0, 'pass', ''],
  ['tap-caught', 1, 'caught', 'ava: `# fail 1`'],
  ['tap-noassert', 1, 'caught', 'ava: `# fail 1`'],
  ['tap-hook', 1, 'caught', 'ava: `not ok 1 - before hook`'],
  ['tap-two-files', 1, 'caught', 'ava: `not ok 1 - a › adds`'],
  ['tap-import', 1, 'error', "a test file failed outside any test: `Error: Cannot find module './nope'`"],
  ['tap-syntax', 1, 'error', 'a test file failed outside any test: `SyntaxError: Unexpected end of input (/x/cases/syntax/a.test.js:3)`'],
  ['tap-late', 1, 'error', 'a test file failed outside any test: `Error: late boom`'],
  ['tap-zero', 1, 'error', 'no tests ran: `not ok 1 - No tests found in cases/zero/a.test.js'],
  // ava's TAP reporter itself throws on process.exit in a test (and on a timeout): no summary.
  ['tap-exit', 1, 'error', "ava stopped before its summary: `TypeError: Cannot set properties of undefined (setting 'name')`"],
];

const JASMINE: Row[] = [
  ['pass', 0, 'pass', ''],
  ['caught', 3, 'caught', 'jasmine: `2 specs, 1 failure`'],
  ['mixed', 3, 'caught', 'jasmine: `4 specs, 2 failures, 1 pending spec`'],
  ['color-mixed', 3, 'caught', 'jasmine: `4 specs, 2 failures, 1 pending spec`'],
  ['parallel-caught', 3, 'caught', 'jasmine: `6 specs, 3 failures, 1 pending spec`'],
  ['fail-fast', 3, 'caught', 'jasmine: `2 specs, 1 failure`'],
  ['timeout', 3, 'caught', 'jasmine: `1 spec, 1 failure`'],
  // A failing beforeAll fails its specs (jasmine counts them, as jest does): 2 specs and the suite error.
  ['hook', 3, 'caught', 'jasmine: `2 specs, 3 failures`'],
  // An uncaught exception or unhandled rejection while a spec runs is that spec's failure (as in mocha).
  ['uncaught', 3, 'caught', 'jasmine: `2 specs, 1 failure`'],
  ['reject', 3, 'caught', 'jasmine: `2 specs, 1 failure`'],
  ['import', 1, 'error', "jasmine could not load a spec file, a helper or its config: `Error: Cannot find module './nope'`"],
  [
    'esm',
    1,
    'error',
    "jasmine could not load a spec file, a helper or its config: `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/cases/esm/nope.js'",
  ],
  ['syntax', 1, 'error', '`SyntaxError: Unexpected end of input`'],
  ['toplevel', 1, 'error', '`Error: top boom`'],
  ['config', 1, 'error', 'jasmine could not load a spec file, a helper or its config: `SyntaxError: /x/spec/support/jasmine.json:'],
  ['usage', 1, 'error', 'a jasmine usage error: `Unknown options: --bogus`'],
  // Counted among the failures, yet no spec failed.
  [
    'after-all',
    3,
    'error',
    'an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load): `Error: teardown broke`',
  ],
  [
    'describe-throws',
    3,
    'error',
    'an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load): `Error: describe boom`',
  ],
  [
    'parallel-import',
    3,
    'error',
    "an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load): `Error loading /x/cases/import/a.spec.js: Cannot find module './nope'`",
  ],
  [
    'no-specs',
    2,
    'error',
    'no tests ran (exit 2: jasmine called the run incomplete (no specs found, or a focused fit/fdescribe)): `No specs found`',
  ],
  ['filter-none', 0, 'error', 'no tests ran: `0 specs, 0 failures`'],
  ['pending', 0, 'error', 'no tests ran (every test was skipped): `2 specs, 0 failures, 2 pending specs`'],
  [
    'focused',
    2,
    'error',
    'exit 2: jasmine says a focused spec (fit or fdescribe) makes the run incomplete (make it it or describe again): `Incomplete: fit() or fdescribe() was found`; no test failed (`1 spec, 0 failures`)',
  ],
  ['exit', 4, 'error', 'exit 4 (jasmine exited early: process.exit was called while the specs ran) without a jasmine summary'],
  ['abort', 134, 'error', 'exit 134 (aborted (SIGABRT): a crash, process.abort(), or node out of memory) without a jasmine summary'],
];

const TAP: Row[] = [
  ['pass', 0, 'pass', ''],
  ['caught', 1, 'caught', 'tap: `# { total: 2, pass: 1, fail: 1 }`'],
  ['mixed', 1, 'caught', 'tap: `# { total: 4, pass: 1, fail: 2, skip: 1 }`'],
  ['nested', 1, 'caught', 'tap: `# { total: 1, pass: 0, fail: 1 }`'],
  ['bare', 1, 'caught', 'tap: `# { total: 2, pass: 1, fail: 1 }`'],
  ['plan', 1, 'caught', 'tap: `# { total: 2, pass: 1, fail: 1 }`'],
  ['bail', 1, 'caught', 'tap: `# { total: 1, pass: 0, fail: 1 }`'],
  // A failed assertion beside a file that cannot load: the failure is a catch.
  ['two-files', 1, 'caught', 'tap: `# { total: 2, pass: 0, fail: 2 }`'],
  [
    'import',
    1,
    'error',
    "a test file failed before any test (it cannot load, or it threw before its tests): `Error: Cannot find module './nope'`",
  ],
  [
    'esm',
    1,
    'error',
    "a test file failed before any test (it cannot load, or it threw before its tests): `Error: Cannot find module '/x/cases/esm/nope.js'",
  ],
  [
    'syntax',
    1,
    'error',
    'a test file failed before any test (it cannot load, or it threw before its tests): `SyntaxError: Unexpected end of input`',
  ],
  // t.before's throw ends the process before any test: tap reports the file with no tests.
  ['hook', 1, 'error', 'a test file failed before any test (it cannot load, or it threw before its tests): `Error: setup broke`'],
  ['toplevel', 1, 'error', 'an error thrown outside any test: `not ok 2 - top boom`'],
  [
    'exit',
    1,
    'error',
    'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles): `not ok 1 - test unfinished`',
  ],
  ['never', 1, 'error', 'a test file ended while a test was unfinished'],
  [
    'late',
    1,
    'error',
    'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles): `Error: late boom`',
  ],
  [
    'reject',
    1,
    'error',
    'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles): `Error: unhandled boom`',
  ],
  ['timeout', 1, 'error', "tap's timeout ended a test file: a test never finished (tap --timeout, 30 s by default): `not ok 1 - timeout!`"],
  ['abort', 1, 'error', 'a test file was killed by SIGABRT: `not ok 1 - cases/abort/a.test.js # time=1488.093ms`'],
  ['no-files', 1, 'error', 'no tests ran: `No valid test files found matching "cases/no-files"`'],
  ['nothing', 1, 'error', 'no tests ran: `No test files found`'],
  ['zero', 0, 'error', 'no tests ran: `ok 1 - cases/zero/a.test.js # SKIP no tests found`'],
  ['skipped', 0, 'error', 'no tests ran (every test was skipped): `# { total: 2, pass: 0, skip: 2 }`'],
  ['todo', 0, 'error', 'no tests ran (every test was skipped): `# { total: 1, pass: 0, todo: 1 }`'],
  ['usage', 1, 'error', "a tap usage error: `Error: Unknown option '--bogus'."],
  ['bad-value', 1, 'error', "a tap usage error: `Error: Invalid value 'abc' provided for '--jobs' option, expected number`"],
  // Every test passed, yet tap failed the run on coverage: no catch.
  [
    'no-coverage',
    1,
    'error',
    'exit 1: tap says no coverage was generated (tap fails such a run unless --allow-empty-coverage or --disable-coverage): `# No coverage generated`; no test failed (`# { total: 1, pass: 1 }`)',
  ],
  [
    'partial-coverage',
    1,
    'error',
    'exit 1: tap says coverage is below its threshold (tap wants 100% unless --allow-incomplete-coverage): `All files |     100 |      100 |      50 |     100 |`',
  ],
  // The base reporter (colours), its frames redrawn one below the other once the cursor moves are stripped.
  ['base-caught', 1, 'caught', 'tap: `# { total: 2, pass: 1, fail: 1 }`'],
  ['base-mixed', 1, 'caught', 'tap: `# { total: 4, pass: 1, fail: 2, skip: 1 }`'],
  [
    'base-import',
    1,
    'error',
    "a test file failed before any test (it cannot load, or it threw before its tests): `Error: Cannot find module './nope'`",
  ],
  [
    'base-exit',
    1,
    'error',
    'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles): `✖ b > test unfinished`',
  ],
  ['base-toplevel', 1, 'error', 'an error thrown outside any test: `✖ TAP > top boom`'],
  ['base-abort', 1, 'error', 'a test file was killed by SIGABRT: `✖  SIGABRT`'],
  ['base-zero', 0, 'error', 'no tests ran: `# { total: 1, pass: 0, skip: 1 }`'],
];

/**
 * tape 5.10 on Node 20, through a pipe as a hook runs it; `tap-spec-*` and `faucet-*` piped into
 * tap-spec 5.0 and faucet 0.0.4 (the pipe's exit code is the reporter's), `nyc-*` under nyc 17.
 * Before this profile tape was detected as no runner: exit 0 was a pass, so no test file matched, a
 * file without tests and every test skipped (`# tests 0`) passed; exit 1 was a catch, so a file that
 * throws at its top level, a test that called process.exit and, piped into tap-spec, no tests at all
 * were caught patches.
 */
const TAPE: Row[] = [
  ['pass', 0, 'pass', ''],
  ['only', 0, 'pass', ''],
  ['caught', 1, 'caught', 'tape: `not ok 1 should be strictly equal`'],
  ['mixed', 1, 'caught', 'tape: `not ok 1 should be strictly equal`'],
  // tape's own failures: a plan that does not match, an async test that rejects, a test that never ends.
  ['plan', 1, 'caught', 'tape: `not ok 2 plan != count`'],
  ['reject', 1, 'caught', 'tape: `not ok 1 Error: async boom`'],
  ['never', 1, 'caught', 'tape: `not ok 3 test exited without ending: never`'],
  // tape catches no throw: node's crash ends the run. Once a test runs, that test failed (as mocha counts it).
  ['throw', 1, 'caught', "tape: `TypeError: Cannot read properties of null (reading 'x')`"],
  ['late', 1, 'caught', 'tape: `Error: late boom`'],
  ['nyc-caught', 1, 'caught', 'tape: `not ok 1 should be strictly equal`'],
  ['import', 1, 'error', "tape could not load a test file (or it threw before any test ran): `Error: Cannot find module './nope'`"],
  [
    'esm',
    1,
    'error',
    "tape could not load a test file (or it threw before any test ran): `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/c/esm/nope.mjs'",
  ],
  ['syntax', 1, 'error', 'tape could not load a test file (or it threw before any test ran): `SyntaxError: Unexpected end of input`'],
  ['toplevel', 1, 'error', 'tape could not load a test file (or it threw before any test ran): `Error: top boom`'],
  // A failed assertion in one file, a file that cannot load beside it: tape loads every file first, so no test ran.
  ['two', 1, 'error', "tape could not load a test file (or it threw before any test ran): `Error: Cannot find module './nope'`"],
  [
    'exit',
    1,
    'error',
    'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended): `not ok 2 test exited without ending: b`',
  ],
  // A real run (resolve's suite under nyc, through a pipe as a hook runs it): process.exit cut tape's output short of its summary,
  // the last test's report with it; every test after the one that called process.exit is reported as never ended.
  [
    'nyc-exit-cut',
    1,
    'error',
    'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended): `not ok 10 test exited without ending: exits`',
  ],
  ['zero', 0, 'error', 'no tests ran: `# tests 0`'],
  ['no-files', 0, 'error', 'no tests ran: `# tests 0`'],
  ['skipped', 0, 'error', 'no tests ran: `# tests 0`'],
  ['nyc-zero', 0, 'error', 'no tests ran: `# tests 0`'],
  ['tap-spec-pass', 0, 'pass', ''],
  ['tap-spec-caught', 1, 'caught', 'tape: `✖ should be strictly equal`'],
  ['tap-spec-never', 1, 'caught', 'tape: `✖ test exited without ending: never`'],
  ['tap-spec-throw', 1, 'caught', "tape: `TypeError: Cannot read properties of null (reading 'x')`"],
  [
    'tap-spec-import',
    1,
    'error',
    "tape could not load a test file (or it threw before any test ran): `Error: Cannot find module './nope'`",
  ],
  ['tap-spec-zero', 1, 'error', 'no tests ran: `✖ No tests found`'],
  // A real run (can-merge's `nyc tape 'test/**/*.js' | tap-spec`): tap-spec shows the stack that passes through process.exit.
  [
    'tap-spec-nyc-exit',
    1,
    'error',
    'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended): `✖ test exited without ending: exits`',
  ],
  // faucet redraws its lines: what is left on screen is tape's own counts.
  ['faucet-pass', 0, 'pass', ''],
  ['faucet-caught', 1, 'caught', 'tape: `not ok 1 should be strictly equal`'],
  ['faucet-never', 1, 'caught', 'tape: `not ok 3 test exited without ending: never`'],
  ['faucet-throw', 1, 'caught', "tape: `TypeError: Cannot read properties of null (reading 'x')`"],
  ['faucet-import', 1, 'error', "tape could not load a test file (or it threw before any test ran): `Error: Cannot find module './nope'`"],
  ['faucet-zero', 0, 'error', 'no tests ran: `# tests 0`'],
];

/**
 * node --test on Node 20 and 24 (`-20`, `-24`; `-22` where it differs from neither), through a pipe:
 * the dot reporter, junit writing to stdout, two reporters writing to stdout at once, and spec and
 * TAP. Before the dot reading, every dot run that passed was an error ("exit 0 without a node
 * summary"); before files were counted once, spec's `failing tests` list (Node 22 and later) counted
 * a file that cannot load twice, and a failed test beside it was no catch.
 */
const UNSEEN = "node's dot reporter names no test";
const NODE: Row[] = [
  ...(['20', '24'] as const).flatMap((v): Row[] => [
    [`dot-pass-${v}`, 0, 'pass', UNSEEN],
    [`dot-caught-${v}`, 1, 'caught', 'node: `✖ adds ('],
    [`dot-mixed-${v}`, 1, 'caught', 'node: `✖ adds ('],
    // A failing test inside a describe: the suite's own `X` is no test.
    [`dot-suite-${v}`, 1, 'caught', 'node: `✖ x ('],
    [
      `dot-import-${v}`,
      1,
      'error',
      "a test file failed outside any test (it cannot load, or it exited non-zero; node's dot reporter does not say why, --test-reporter=spec does): `✖ ",
    ],
    [`dot-syntax-${v}`, 1, 'error', 'a test file failed outside any test'],
    // A failed todo is an `X` too, and no failure.
    [`dot-todo-${v}`, 0, 'pass', UNSEEN],
    // What the dot reporter cannot tell: a file without tests, a file that exited 0 in a test, are each a `.`.
    [`dot-zero-${v}`, 0, 'pass', UNSEEN],
    [`dot-exit-${v}`, 0, 'pass', UNSEEN],
    // No test file: the dot reporter prints nothing, as a reporter writing elsewhere would.
    [
      `dot-nofiles-${v}`,
      0,
      'error',
      'exit 0 without a node summary, so nothing shows the tests ran to the end (a test that called process.exit, or a reporter that prints no counts); last output: (none); run node --test with a reporter that writes its results to stdout (spec, tap, dot or junit; not a custom module), or write a JUnit report',
    ],
    [`junit-pass-${v}`, 0, 'pass', ''],
    [`junit-caught-${v}`, 1, 'caught', 'node: `<!-- fail 1 -->`'],
    [`junit-mixed-${v}`, 1, 'caught', 'node: `<!-- fail 2 -->`'],
    [`junit-import-${v}`, 1, 'error', 'a test file failed outside any test: `'],
    [`junit-zero-${v}`, 0, 'error', 'no tests ran: `<testcase name="'],
    [`dot-spec-mixed-${v}`, 1, 'caught', 'node: `ℹ fail 2`'],
  ]),
  [
    'dot-import-22',
    1,
    'error',
    "a test file failed outside any test (it cannot load, or it exited non-zero; node's dot reporter does not say why, --test-reporter=spec does): `✖ a.test.js (",
  ],
  ['spec-mixed-22', 1, 'caught', 'node: `ℹ fail 2`'],
  ['tap-mixed-22', 1, 'caught', 'node: `# fail 2`'],
  // process.exit(0) in a test without process isolation: nothing printed at all.
  ['dot-exit-none-24', 0, 'error', 'exit 0 without a node summary'],
];

/**
 * pytest 9 on Python 3.11: a test that calls os._exit(0) mid-run (`exit-*`; before, every one was a
 * pass) beside runs that end, at each verbosity. pytest prints its summary line at -q and louder, none
 * at -qq and quieter, and nothing at all with -p no:terminal; a run that ended ends its output with a
 * newline, one cut short stops mid-line. Then pytest 7.2 with Debian's pytest-xdist 3.1, pytest-timeout
 * 2.1 and pytest-cov 4.0 (the rows below `exit-no-terminal`).
 */
const CUT = 'exit 0 without a pytest summary, so nothing shows the tests ran to the end (a test that called os._exit); last output: ';
const PYTEST: Row[] = [
  ['pass', 0, 'pass', ''],
  ['pass-q', 0, 'pass', ''],
  ['pass-qq', 0, 'pass', ''],
  ['pass-qqq', 0, 'pass', ''],
  ['pass-s-qq', 0, 'pass', ''],
  ['pass-no-terminal', 0, 'pass', ''],
  ['caught-qq', 1, 'caught', 'pytest: `FAILED test_bad.py::test_a - assert 1 == 2`'],
  ['exit', 0, 'error', `${CUT}\`test_exit.py .\`; run pytest -v to see the test that was running when it stopped`],
  ['exit-q', 0, 'error', `${CUT}\`.\``],
  ['exit-qq', 0, 'error', `${CUT}\`.\``],
  ['exit-s-qq', 0, 'error', `${CUT}\`.\``],
  // Nothing printed: nothing to tell a run cut short from one that ended.
  ['exit-no-terminal', 0, 'pass', ''],
  // pytest 7.2 (Debian's) with its plugins. os._exit(1) in a test: exit 1 mid-line, no summary (was `caught`).
  [
    'exit1-q',
    1,
    'error',
    'exit 1 without a pytest summary, so no test is known to have failed (the run was cut short: a test that called os._exit); last output: `..`; run pytest -v',
  ],
  // pytest-cov's --cov-fail-under not met, every test passed (was `caught`: exit 1 alone).
  [
    'cov-under',
    1,
    'error',
    "exit 1: pytest says coverage is below its threshold (pytest-cov's --cov-fail-under): `FAIL Required test coverage of 100% not reached. Total coverage: 50.00%`; no test failed (`2 passed in 0.04s`): cover the new code with a test",
  ],
  // pytest-xdist: a worker that died in a test is counted failed; a crash is no failed assertion (was `caught`).
  [
    'xdist-crash',
    1,
    'error',
    "a pytest-xdist worker died while running a test (os._exit, a segfault, out of memory), so that test gave no verdict (run it alone, without -n, to see why): `worker 'gw0' crashed while running 'tests/test_crash.py::test_crash'`",
  ],
  ['xdist-crash-and-fail', 1, 'caught', 'pytest: `2 failed, 2 passed in 1.99s`'],
  ['xdist-caught', 1, 'caught', 'pytest: `1 failed, 2 passed in 1.67s`'],
  ['xdist-pass', 0, 'pass', ''],
  ['x-caught', 1, 'caught', 'pytest: `1 failed in 0.05s`'],
  // pytest-timeout: a test over its time fails (signal method); the thread method ends the process in it.
  ['timeout-signal', 1, 'caught', 'pytest: `1 failed, 2 passed in 1.06s`'],
  ['timeout-thread', 1, 'caught', 'pytest: `pytest-timeout stopped the run in File "/x/tests/test_slow.py", line 3, in test_slow`'],
];

for (const [runner, rows] of [
  ['ava', AVA],
  ['jasmine', JASMINE],
  ['tap', TAP],
  ['tape', TAPE],
  ['node', NODE],
  ['pytest', PYTEST],
] as const) {
  for (const [name, code, verdict, reason] of rows) {
    test(`${runner}: ${name} (exit ${code}) is ${verdict}`, () => {
      const c = judge(runner, code, output(runner, name));
      assert.is(c.verdict, verdict, c.reason);
      if (reason === '') assert.is(c.reason, undefined);
      else assert.ok((c.reason ?? '').includes(reason), `reason: ${c.reason}`);
      if (verdict === 'caught') assert.is(c.proven, true);
    });
  }
}

test('no tests, with allowNoTests: a pass that says so', () => {
  for (const [runner, name, code] of [
    ['ava', 'zero', 1],
    ['jasmine', 'no-specs', 2],
    ['tap', 'zero', 0],
    ['tap', 'no-files', 1],
    ['tape', 'zero', 0],
    ['tape', 'tap-spec-zero', 1],
  ] as const) {
    const c = judge(runner, code, output(runner, name), true);
    assert.is(c.verdict, 'pass', `${runner}/${name}: ${c.reason}`);
    assert.match(c.reason ?? '', 'allowed by `allowNoTests`');
  }
});

test('jasmine: a failure exit the tier does not count (caught [1]) says how to count it', () => {
  const c = classify(
    { exitCode: 3, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: output('jasmine', 'caught') },
    [1],
    30,
    {
      runner: 'jasmine',
      output: { detection: { runner: 'jasmine', words: [], managers: [] } },
    },
  );
  assert.is(c.verdict, 'error');
  assert.match(
    c.reason ?? '',
    "exit 3 (what jasmine exits with when tests fail), which this tier does not count as a test failure (`caught`: 1), though jasmine counts failed tests: `2 specs, 1 failure`; if exit 3 means a test failed, add it to the tier's `caught`",
  );
});

test('the summary is what a run that ends prints: exit 0 without one is no pass (ava --tap cut short, tap -R dot, a jasmine --reporter, tape piped into a reporter that prints no counts)', () => {
  for (const runner of ['ava', 'jasmine', 'tap', 'tape'] as const) {
    const c = judge(runner, 0, 'something else\n');
    assert.is(c.verdict, 'error');
    assert.match(c.reason ?? '', `exit 0 without ${runner === 'ava' ? 'an' : 'a'} ${runner} summary`);
  }
});

test('node with a reporter it cannot read (a custom module): the error says which reporters are read, at exit 0 and at a failure exit', () => {
  for (const code of [0, 1]) {
    const c = judge('node', code, 'my reporter: 3 ok\n');
    assert.is(c.verdict, 'error');
    assert.match(
      c.reason ?? '',
      'run node --test with a reporter that writes its results to stdout (spec, tap, dot or junit; not a custom module), or write a JUnit report (--test-reporter=junit --test-reporter-destination=PATH)',
    );
  }
  // pytest's next step is its own, and only where its exit 0 was cut short.
  assert.match(
    judge('pytest', 0, output('pytest', 'exit-q')).reason ?? '',
    '; run pytest -v to see the test that was running when it stopped',
  );
  assert.not.match(judge('pytest', 3, 'INTERNALERROR> boom\n').reason ?? '', 'pytest -v');
});

test('a reason quoting a file name escapes its control characters', () => {
  const text = output('ava', 'import').replaceAll('cases/import/a.test.js', 'cases/im\x07port/a.test.js');
  const c = judge('ava', 1, text);
  assert.is(c.verdict, 'error');
  assert.ok((c.reason ?? '').includes('cases/im\\x07port/a.test.js') && !(c.reason ?? '').includes('\x07'), c.reason);
});

test('readings: counts from the real summaries', () => {
  const read = (runner: RunnerName, name: string) => PROFILES[runner].read(outputLines(output(runner, name))).summary;
  // ava prints no `N tests passed` beside a failure: its `✔` lines are the passes.
  assert.equal(read('ava', 'mixed'), { line: '  2 tests failed', failed: 2, passed: 1, total: 4, skipped: 1 });
  assert.equal(read('ava', 'failing'), { line: '  1 test failed', failed: 1, passed: 2, total: 3, skipped: 0 });
  assert.equal(read('ava', 'hook'), { line: '  1 hook failed', failed: 1, passed: 0, total: 1, skipped: 0 });
  assert.equal(read('ava', 'tap-caught'), { line: '# fail 1', failed: 1, passed: 1, total: 2, skipped: 0 });
  // jasmine counts a suite error among its failures: the beforeAll's error and its two specs.
  assert.equal(read('jasmine', 'hook'), { line: '2 specs, 3 failures', failed: 2, passed: 0, total: 2, skipped: 0 });
  assert.equal(read('jasmine', 'mixed'), { line: '4 specs, 2 failures, 1 pending spec', failed: 2, passed: 1, total: 4, skipped: 1 });
  // tap counts a file that cannot load as a failed test of its own; three failed assertions in one test are one test.
  assert.equal(read('tap', 'two-files'), { line: '# { total: 2, pass: 0, fail: 2 }', failed: 1, passed: 0, total: 1, skipped: 0 });
  assert.equal(read('tap', 'mixed'), { line: '# { total: 4, pass: 1, fail: 2, skip: 1 }', failed: 2, passed: 1, total: 4, skipped: 1 });
  assert.equal(read('tap', 'zero'), { line: '# { total: 1, pass: 0, skip: 1 }', failed: 0, passed: 0, total: 0, skipped: 0 });
  // node's dot reporter: a mark for each test, suite and file; the suite's, the todo's and the file's `X` are no failed test.
  assert.equal(read('node', 'dot-suite-24'), { line: '✖ x (0.757455ms)', failed: 1, passed: 1, total: 2 });
  assert.equal(read('node', 'dot-todo-20'), { line: 'X..', failed: 0, passed: 2, total: 2 });
  assert.equal(read('node', 'dot-mixed-24')?.failed, 1);
  // A file that cannot load, listed twice by spec (its run and its `failing tests`), three times beside the dot reporter: one file.
  assert.equal(read('node', 'spec-mixed-22'), { line: 'ℹ fail 2', failed: 1, passed: 1, total: 2, skipped: 0 });
  assert.equal(read('node', 'dot-spec-mixed-20'), { line: 'ℹ fail 2', failed: 1, passed: 1, total: 2, skipped: 0 });
  assert.equal(read('node', 'junit-mixed-24'), { line: '\t<!-- fail 2 -->', failed: 1, passed: 1, total: 2, skipped: 0 });
});

test.run();
