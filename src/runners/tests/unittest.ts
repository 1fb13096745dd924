/** unittest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, type FailedTest, firstMatch, firstMessageLine, PYTHON_LIBRARY, type Reading, type RunnerProfile } from '../read.js';
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

/**
 * A failure's heading: `FAIL: test_adds (unit.test_math.MathTest.test_adds)` (before Python 3.11 the
 * parentheses hold the class alone: `(unit.test_math.MathTest)`), `ERROR: ...` for an exception,
 * `UNEXPECTED SUCCESS: ...`; a subtest's description after it (`(i=2)`, `[msg]`). A fixture's is
 * `ERROR: setUpClass (unit.test_math.MathTest)`.
 */
const UNITTEST_HEADING = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([\w.]+)\)(?: (\S.*))?$/;
/** A block's end: the rule before the next heading (`====`), or before `Ran N tests` (`----`). */
const UNITTEST_RULE = /^(?:={20,}|-{20,})$/;
/** A traceback's frame: `  File "/p/unit/test_math.py", line 8, in test_adds`. */
const PY_FRAME = /^\s+File "(.+)", line (\d+)(?:, in .+)?$/;

/** The last frame of the project's own code in a failure's block, and the exception its last traceback ends with. */
function unittestBlock(lines: readonly string[], from: number): { file?: string; line?: number; message?: string } {
  let at: { file: string; line: number } | undefined;
  let message: string | undefined;
  let traceback = false;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (UNITTEST_RULE.test(l)) {
      if (i > from) break;
      continue;
    }
    if (/^Traceback \(most recent call last\):$/.test(l)) {
      traceback = true;
      message = undefined;
      continue;
    }
    const f = PY_FRAME.exec(l);
    if (f && !PYTHON_LIBRARY.test(f[1]!)) at = { file: f[1]!, line: Number(f[2]) };
    // The exception: the first line of the traceback that is not indented (a frame's source and carets are).
    if (traceback && message === undefined && l.trim() !== '' && !/^\s/.test(l)) message = l;
  }
  return { ...at, ...(message !== undefined && { message }) };
}

/**
 * unittest's failed tests: each `FAIL:` / `ERROR:` heading of its report (a module that could not load
 * is no test: left out), id the dotted name it gives (`unit.test_math.MathTest.test_adds`, a subtest's
 * description after it); the file and line of the last frame in the project's own code (the test's
 * line, or the code under test's that raised), and the exception its traceback ends with.
 */
function unittestFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = UNITTEST_HEADING.exec(lines[i]!);
    if (!h || UNITTEST_LOAD_FAILURE.test(lines[i]!)) continue;
    const [, kind, name, where, sub] = h;
    // Python 3.11 and later give the test's whole dotted name; before, its class's.
    const dotted = where!.endsWith(`.${name}`) ? where! : `${where}.${name}`;
    const id = sub !== undefined ? `${dotted} ${sub}` : dotted;
    const block = unittestBlock(lines, i + 1);
    out.push({
      title: [dotted.split('.').slice(-2).join('.') + (sub !== undefined ? ` ${sub}` : '')],
      id,
      ...(block.file !== undefined && { file: block.file, line: block.line! }),
      message: firstMessageLine(block.message ?? (kind === 'UNEXPECTED SUCCESS' ? 'unexpected success' : kind!.toLowerCase())),
    });
  }
  return out;
}

const unittest: RunnerProfile = {
  failures: unittestFailures,
  // A module that could not load, and the summary (`Ran N tests in Xs`, then its `OK`/`FAILED (...)` status), wherever a long output puts them.
  keep: anyOf(UNITTEST_LOAD_FAILURE, /^Ran \d+ tests? in [\d.]+s$/, /^(?:OK|FAILED|NO TESTS RAN)\b/),
  failedExits: [5],
  // unittest prints `Ran N tests` at the end of every run, quiet or not: an exit 0 without it stopped early (os._exit).
  needsSummary: true,
  // sys.exit in a test is that test's error (unittest catches SystemExit); os._exit, or sys.exit outside a test, ends python before the summary.
  cutShort: {
    cause: 'os._exit in a test or the code it ran, or sys.exit outside a test, ended python before unittest printed it',
    next: 'run `python -m unittest -v` to see the last test started, and mend it',
  },
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
