/** unittest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { firstMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

/**
 * python -m unittest (its TextTestRunner): `Ran N tests in Xs`, then `OK`, `FAILED (failures=1,
 * errors=1, skipped=2, expected failures=1, unexpected successes=1)` or, on Python 3.12 and later,
 * `NO TESTS RAN`. A test module that cannot import (or whose load_tests raises, or a test name that
 * does not exist) is counted as a test that errored: `ERROR: test_a (unittest.loader._FailedTest...)`.
 * Those are not tests: they make the run an error. An exception inside a test, its setUp, or a
 * setUpClass / setUpModule fixture is the test failing on the patch (as pytest's `1 error`); so is an
 * unexpected success (the run is FAILED). Read off Python 3.10 to 3.13.
 */
const UNITTEST_LOAD_FAILURE = /^ERROR: \S+ \(unittest\.loader\.(?:_FailedTest|ModuleImportFailure|LoadTestsFailure)\b/;
/** The exception a Python traceback ends with: `ModuleNotFoundError: No module named 'nope'`, `SyntaxError: ...`. */
const PY_EXCEPTION = /^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)(?::|$)/;

/** The last exception line of the traceback that starts at `from` (before the next block's `====`/`----` rule). */
function pythonException(lines: readonly string[], from: number): string | undefined {
  let found: string | undefined;
  for (let i = from + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(?:=|-){20,}$/.test(l) && found !== undefined) break;
    if (PY_EXCEPTION.test(l)) found = l;
  }
  return found;
}

const unittest: RunnerProfile = {
  keep: UNITTEST_LOAD_FAILURE,
  failedExits: [5],
  // unittest prints `Ran N tests` at the end of every run, quiet or not: an exit 0 without it stopped early (os._exit).
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    let ranAt = -1;
    for (let i = lines.length - 1; i >= 0; i--)
      if (/^Ran \d+ tests? in [\d.]+s$/.test(lines[i]!)) {
        ranAt = i;
        break;
      }
    const loads: number[] = [];
    lines.forEach((l, i) => {
      if (UNITTEST_LOAD_FAILURE.test(l)) loads.push(i);
    });
    if (loads.length > 0) {
      out.cannotRun = { what: 'unittest could not load a test module', line: pythonException(lines, loads[0]!) ?? lines[loads[0]!]! };
    }
    if (ranAt !== -1) {
      const ranLine = lines[ranAt]!;
      const status = firstMatch(lines, /^(?:OK|FAILED|NO TESTS RAN)\b/, ranAt + 1);
      const detail = status ? (/\((.*)\)\s*$/.exec(status.line)?.[1] ?? '') : '';
      const n = (key: string) => Number(new RegExp(`(?:^|, )${key}=(\\d+)`).exec(detail)?.[1] ?? 0);
      const failures = n('failures');
      const errors = n('errors');
      const skipped = n('skipped');
      const expected = n('expected failures');
      const unexpected = n('unexpected successes');
      const ran = Math.max(0, Number(/^Ran (\d+)/.exec(ranLine)![1]) - loads.length);
      const failed = Math.max(0, failures + errors + unexpected - loads.length);
      // A setUpClass that failed runs no test but is counted; tests that were all skipped still exist.
      const total = Math.max(ran === 0 ? skipped : ran, failed);
      const passed = Math.max(0, ran - failed - skipped - expected);
      out.summary = { line: failed > 0 && status ? status.line : ranLine, failed, passed, total, skipped };
      if (total === 0 && loads.length === 0) out.noTests = { line: ranLine };
    } else if (!out.cannotRun) {
      // No summary: unittest stopped before running (a start folder that cannot be imported, a bad option).
      const usage = firstMatch(lines, /^\S*python[\d.]* -m unittest(?: discover)?: error: /);
      const crash = firstMatch(lines, /^Traceback \(most recent call last\):/);
      if (usage) out.cannotRun = { what: 'a unittest usage error', line: usage.line };
      else if (crash) out.cannotRun = { what: 'unittest could not start', line: pythonException(lines, crash.index) ?? crash.line };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'unittest',
  exits: {
    2: 'unittest usage error (a bad option)',
    5: 'unittest ran no tests (Python 3.12 and later)',
  },
  noTestsExits: [5],
  ambiguousExit: 'python -m unittest exits 1 for failed tests and for a test module that cannot import',
  junitHint: 'python -m pytest --junitxml=PATH (pytest runs unittest test cases too)',
  profile: unittest,
});
