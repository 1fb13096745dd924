/** jest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  count,
  type FailedTest,
  firstFrame,
  firstMatch,
  firstMessageLine,
  jsErrorLine,
  lastMatch,
  nextLine,
  type Reading,
  type RunnerProfile,
  type Summary,
} from '../read.js';
import { defineRunner } from '../record.js';

/**
 * jest's `--json` results (vitest's `--reporter=json` writes the same fields), for a run whose own
 * summary is not in the output: the counts, and the field that decides as the line to quote.
 */
/** jest's `--json` results line (vitest's `--reporter=json` too). */
export const JEST_JSON = /"numTotalTests":/;

export function jestJson(lines: readonly string[]): Summary | undefined {
  const text = lines.find((l) => JEST_JSON.test(l));
  if (text === undefined) return undefined;
  const field = (k: string) => new RegExp(`"${k}":\\s*(\\d+)`).exec(text);
  const total = field('numTotalTests');
  if (!total) return undefined;
  const failed = field('numFailedTests');
  const n = (m: RegExpExecArray | null) => Number(m?.[1] ?? 0);
  return {
    line: n(failed) > 0 ? failed![0] : total[0],
    failed: n(failed),
    passed: n(field('numPassedTests')),
    total: n(total),
    skipped: n(field('numPendingTests')) + n(field('numTodoTests')),
  };
}

const JEST_FAILED_TO_RUN = /●\s+Test suite failed to run/;
const JEST_VALIDATION = /●\s+Validation Error/;
const JEST_EXIT = /^\s*●\s+process\.exit called with/;
const JEST_SUMMARY = /^Tests:\s+(.*\d+ total.*)$/;
/** The first line of node's crash in a jest config file: its path and line number. */
const JEST_CONFIG_CRASH = /^\S*?([^/\s]*jest\.config\.[cm]?[jt]s):\d+$/;
/** The file a suite's result is for (`FAIL test/a.test.js`): the one that could not run, named in the reason. */
const JEST_FAIL_FILE = /^\s*FAIL\s+(\S+)/;

/** A failed test's heading: `  ● math › adds` (not a suite that failed to run, nor jest's own notices). */
const JEST_FAILED_TEST = /^\s*●\s+(?!Test suite failed to run|Validation Error|process\.exit called)(.+)$/;
/** A suite's result line: `PASS test/a.test.js`, `FAIL test/a.test.js (5 s)`. */
const JEST_SUITE = /^\s*(?:FAIL|PASS)\s+(\S+)/;

/**
 * jest's failed tests: each `● suite › test` heading under its suite's `FAIL file` line (again in the
 * `Summary of all failing tests`, read once), the first line below it as the message, the first stack
 * frame in the project's code as the place.
 */
function jestFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  const seen = new Set<string>();
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const suite = JEST_SUITE.exec(lines[i]!);
    if (suite) file = suite[1]!.replace(/^\.\//, '');
    const m = JEST_FAILED_TEST.exec(lines[i]!);
    if (!m) continue;
    let end = i + 1;
    while (
      end < lines.length &&
      !JEST_FAILED_TEST.test(lines[end]!) &&
      !JEST_SUITE.test(lines[end]!) &&
      !/^(?:Test Suites|Tests):/.test(lines[end]!)
    )
      end++;
    const title = m[1]!.split(' › ').map((t) => t.trim());
    const key = `${file}\0${title.join('\0')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const frame = firstFrame(lines, i + 1, end);
    const message = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    out.push({
      title,
      ...(frame ? { file: frame.file, line: frame.line } : file !== undefined && { file }),
      message: firstMessageLine(message ?? 'failed'),
    });
  }
  return out;
}

const jest: RunnerProfile = {
  failures: jestFailures,
  // `Tests:` too: jest prints its summary on stderr, which may be read before the last 64 kB of a test's own stdout.
  keep: anyOf(JEST_FAILED_TO_RUN, JEST_JSON, JEST_EXIT, JEST_SUMMARY, JEST_FAIL_FILE, JEST_CONFIG_CRASH),
  // The reason quoted is the line below these.
  keepNext: anyOf(JEST_FAILED_TO_RUN, JEST_VALIDATION),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    // `--passWithNoTests` prints the same line with code 0.
    const noTests = firstMatch(lines, /^No tests found, exiting with code \d|^No tests found related to files/);
    if (noTests) out.noTests = { line: noTests.line };
    const failedToRun = firstMatch(lines, JEST_FAILED_TO_RUN);
    if (failedToRun) {
      const why = nextLine(lines, failedToRun.index) ?? failedToRun.line;
      if (/Your test suite must contain at least one test/.test(why)) out.noTests = { line: why };
      else {
        const file = lastMatch(lines.slice(0, failedToRun.index), JEST_FAIL_FILE)?.m[1]?.replace(/^\.\//, '');
        // `Configuration error:` says what only on a line below it (the module a moduleNameMapper entry maps to).
        const at = lines.indexOf(why, failedToRun.index);
        const said = /^\s*Configuration error:\s*$/.test(why) && at >= 0 ? `${why.trim()} ${(nextLine(lines, at) ?? '').trim()}` : why;
        out.cannotRun = { what: file ? `a test file could not run (${file})` : 'a test file could not run', line: said };
      }
    }
    // A jest config that cannot load: node prints its path and line (`/repo/jest.config.js:2`), then the error.
    const configCrash = firstMatch(lines, JEST_CONFIG_CRASH);
    if (configCrash && !out.cannotRun) {
      const name = JEST_CONFIG_CRASH.exec(configCrash.line)![1]!;
      out.cannotRun = {
        what: `jest could not load its config (${name})`,
        line: jsErrorLine(lines.slice(configCrash.index)) ?? configCrash.line,
      };
    }
    const config = firstMatch(
      lines,
      /●\s+Validation Error|^Error: Could not find a config file|^Error: Can't find a root directory|^Error: Jest: /,
    );
    if (config)
      out.cannotRun = {
        what: 'a jest config error',
        line: config.line.includes('Validation Error') ? (nextLine(lines, config.index) ?? config.line) : config.line,
      };
    const tests = lastMatch(lines, JEST_SUMMARY);
    if (tests) {
      const t = tests.m[1]!;
      out.summary = {
        line: tests.line,
        failed: count(t, 'failed'),
        passed: count(t, 'passed'),
        total: count(t, 'total'),
        skipped: count(t, 'skipped') + count(t, 'todo'),
      };
    } else if (jestJson(lines)) {
      out.summary = jestJson(lines)!;
    } else {
      // jest stops where a test calls process.exit, before its summary (whatever the code).
      const exited = firstMatch(lines, JEST_EXIT);
      if (exited) out.cannotRun = { what: 'a test called process.exit, so jest stopped before its summary', line: exited.line };
    }
    // jest 30 "Jest: Coverage for lines (50%) does not meet "global" threshold (90%)"; jest 29 "Jest: "global" coverage threshold for lines (90%) not met: 50%".
    const coverage = firstMatch(lines, /^Jest: (?:Coverage for .* does not meet .*threshold|.*coverage threshold for .* not met)/);
    const obsolete = firstMatch(lines, /^\s*›\s+\d+ snapshots? obsolete from/);
    if (coverage) out.failedBesides = { what: 'coverage is below its threshold', line: coverage.line };
    else if (obsolete) out.failedBesides = { what: 'obsolete snapshots (jest --ci fails on them)', line: obsolete.line };
    return out;
  },
};

/** A file that cannot load: `FAIL  file [ file ]`, then the error. */

export const record = defineRunner({
  name: 'jest',
  ambiguousExit: 'jest exits 1 for failed tests and for config errors, no tests, or a suite that cannot load',
  junitHint: 'JEST_JUNIT_OUTPUT_FILE=PATH JEST_JUNIT_ADD_FILE_ATTRIBUTE=true jest --reporters=default --reporters=jest-junit',
  profile: jest,
});
