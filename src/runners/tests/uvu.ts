/** uvu: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, type FailedTest, firstFrame, firstMessageLine, jsErrorLine, lastMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

/** A failed test: `  FAIL  math  "adds"` (a suite's name, then the test's in quotes), or `  FAIL  "adds"` outside a suite. */
const UVU_FAILED = /^\s*FAIL\s+(?:(.*?)\s+)?"(.*)"\s*$/;

/** uvu's failed tests: each ` FAIL ` heading, the line below it as the message, the first frame in the project's code as the place. */
function uvuFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  const heads = lines.flatMap((l, i) => (UVU_FAILED.test(l) ? [i] : []));
  for (const [k, h] of heads.entries()) {
    const m = UVU_FAILED.exec(lines[h]!)!;
    const end = Math.min(heads[k + 1] ?? lines.length, lines.findIndex((l, i) => i > h && /^\s*Total:\s+\d+/.test(l)) >>> 0);
    const frame = firstFrame(lines, h + 1, end);
    const message = lines.slice(h + 1, end).find((l) => l.trim() !== '');
    out.push({
      title: [...(m[1] ? [m[1].trim()] : []), m[2]!],
      ...(frame && { file: frame.file, line: frame.line }),
      // `Expected values to be strictly equal:  (is)`: the assertion's name, in brackets, is uvu's.
      message: firstMessageLine((message ?? 'failed').replace(/\s+\(\w+\)\s*$/, '')),
    });
  }
  return out;
}

const uvu: RunnerProfile = {
  failures: uvuFailures,
  // Its summary's counts: a workspaces run prints one per workspace, the early ones long before the output's last 64 kB.
  keep: anyOf(/^\s*Total:\s+\d/, /^\s*Passed:\s+\d/, /^\s*Skipped:\s+\d/),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const total = lastMatch(lines, /^\s*Total:\s+(\d+)/);
    if (total) {
      const passed = Number(lastMatch(lines, /^\s*Passed:\s+(\d+)/)?.m[1] ?? 0);
      const skipped = Number(lastMatch(lines, /^\s*Skipped:\s+(\d+)/)?.m[1] ?? 0);
      // uvu's Total counts the tests it ran; the skipped ones (and those left out by .only) are apart.
      const n = Number(total.m[1]);
      out.summary = { line: total.line, failed: Math.max(0, n - passed), passed, total: n + skipped, skipped };
    } else {
      const err = jsErrorLine(lines);
      if (err) out.cannotRun = { what: 'uvu could not load the tests', line: err };
    }
    return out;
  },
};

/**
 * node --test, read through the reporter that writes to stdout: TAP (the default into a pipe on Node
 * 20), spec (the default on later ones), junit (its counts in `<!-- tests 2 -->` comments) or dot. A
 * test file that fails to load is reported as a failed test named by the file's path (absolute on Node
 * 20, relative on later ones when run without paths), and a file without tests as a passed one:
 * neither is a test. A file whose process exits 0 before its tests report (`process.exit(0)` in a
 * test) looks exactly like a file without tests (Node 20 to 24): a passed "test" named by the file,
 * its tests lost. Several reporters writing to stdout interleave: a dot may lead a spec line (`X✔ ok`).
 *
 * The dot reporter prints a `.` for each test, suite or file that passed (skipped ones and todos too)
 * and an `X` for each that failed, then, when any failed, `Failed tests:` and each failure again
 * (a suite's as `'1 subtest failed'`, a failed todo with `# TODO`, a file that could not run named by
 * its path with `'test failed'`, no error of its own). It prints no counts and no names for what
 * passed: a test file without tests, one that exited 0 early, and a skipped test are each a `.` like
 * a passing test, and a run that found no test file prints nothing, as does one whose process exited
 * (`process.exit(0)` under `--test-isolation=none`).
 */
/** A count line: spec `ℹ tests 2`, TAP `# tests 2`, junit `<!-- tests 2 -->` (an interleaved dot reporter's `.`/`X` may lead it). */

export const record = defineRunner({
  name: 'uvu',
  ambiguousExit: 'uvu exits 1 for failed tests and for a test file that cannot load',
  junitHint: 'a JUnit reporter for uvu writing PATH',
  profile: uvu,
});
