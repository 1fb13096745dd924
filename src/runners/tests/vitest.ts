/** vitest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
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
} from '../read.js';
import { JEST_JSON, jestJson } from './jest.js';
import { defineRunner } from '../record.js';

const VITEST_FAILED_FILE = /^\s*FAIL\s+\S.*\[ .+ \]\s*$/;
const VITEST_NO_SUITE = /^Error: No test suite found in file/;
/** Its summary's count of tests: `      Tests  2 failed | 1 passed (3)`. */
const VITEST_TESTS = /^\s*Tests\s{2,}(.+)$/;

/** A failed test in vitest's `Failed Tests` section: ` FAIL  test/a.test.js > math > adds` (a project's name may stand first: `|web| `). */
const VITEST_FAILED_TEST = /^\s*FAIL\s+(?:\|[^|]+\|\s+)?(\S[^>]*?) > (.+?)\s*$/;

/**
 * vitest's failed tests: each ` FAIL  file > suite > test` of its `Failed Tests` section, the line below it
 * as the message, its ` ❯ file:line:col` as the place.
 */
function vitestFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const m = VITEST_FAILED_TEST.exec(lines[i]!);
    if (!m || VITEST_FAILED_FILE.test(lines[i]!)) continue;
    const key = `${m[1]}\0${m[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let end = i + 1;
    while (end < lines.length && !VITEST_FAILED_TEST.test(lines[end]!) && !/^\s*⎯{3,}/.test(lines[end]!)) end++;
    const frame = firstFrame(lines, i + 1, end);
    const message = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    // A frame reads a path up to a space (`❯ test/sp ace.test.js:5:10` gives `ace.test.js`): the FAIL line's file, whose end it is, is the file.
    const named = m[1]!.trim();
    const cut = frame !== undefined && frame.file !== named && named.endsWith(` ${frame.file}`);
    out.push({
      title: m[2]!.split(' > ').map((t) => t.trim()),
      file: cut ? named : (frame?.file ?? m[1]!),
      ...(frame && { line: frame.line }),
      message: firstMessageLine(message ?? 'failed'),
    });
  }
  return out;
}

const vitest: RunnerProfile = {
  failures: vitestFailures,
  // Its summary too: a workspaces run prints one per workspace, the early ones long before the output's last 64 kB.
  keep: anyOf(VITEST_FAILED_FILE, VITEST_NO_SUITE, JEST_JSON, VITEST_TESTS),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    // `--passWithNoTests` prints the same line with code 0.
    const noFiles = firstMatch(lines, /No test files found, exiting with code \d/);
    if (noFiles) out.noTests = { line: noFiles.line };
    const noSuite = firstMatch(lines, VITEST_NO_SUITE);
    const failedFile = firstMatch(lines, VITEST_FAILED_FILE);
    if (failedFile) {
      const why = nextLine(lines, failedFile.index) ?? failedFile.line;
      if (/No test suite found in file/.test(why)) out.noTests = { line: why };
      else out.cannotRun = { what: 'a test file could not run', line: why };
    } else if (noSuite) out.noTests = { line: noSuite.line };
    const config = firstMatch(lines, /failed to load config from|Startup Error/);
    if (config)
      out.cannotRun = {
        what: 'a vitest config error',
        line: config.line.includes('Startup Error') ? (jsErrorLine(lines.slice(config.index)) ?? config.line) : config.line,
      };
    const tests = lastMatch(lines, VITEST_TESTS);
    if (tests) {
      const t = tests.m[1]!;
      const total = /no tests/.test(t) ? 0 : Number(/\((\d+)\)/.exec(t)?.[1] ?? 0);
      out.summary = {
        line: tests.line,
        failed: count(t, 'failed'),
        passed: count(t, 'passed'),
        total,
        skipped: count(t, 'skipped') + count(t, 'todo'),
      };
    } else {
      const json = jestJson(lines);
      if (json) out.summary = json;
    }
    // A worker that died (a crash, process.abort(), out of memory): its channel closes under vitest.
    const died = firstMatch(lines, /^Error: Channel closed$|^Error: Worker exited unexpectedly|ERR_IPC_CHANNEL_CLOSED/);
    if (died && !out.cannotRun) {
      const fatal = firstMatch(lines, /^FATAL ERROR: /);
      out.cannotRun = { what: 'a vitest worker died (a crash, process.abort(), or out of memory)', line: (fatal ?? died).line };
    }
    // Errors outside any test (a late throw, an unhandled rejection): vitest exits 1 with every test passed.
    const unhandled = firstMatch(lines, /^Vitest caught \d+ unhandled errors? during the test run/);
    if (unhandled && !out.cannotRun) {
      const why = firstMatch(lines, /^\s*⎯+ (?:Uncaught Exception|Unhandled Rejection|Unhandled Error) ⎯+\s*$/, unhandled.index);
      const line = why ? nextLine(lines, why.index) : undefined;
      out.cannotRun = { what: 'vitest caught an error outside the tests', line: line ?? unhandled.line };
    }
    return out;
  },
};

/** The spec reporter's counts (`  2 passing (5ms)`); `--reporter tap`'s (`# fail 1`); `--reporter json`'s stats (`  "failures": 1,`). */

export const record = defineRunner({
  name: 'vitest',
  ambiguousExit: 'vitest exits 1 for failed tests and for config errors or no tests',
  junitHint: 'vitest run --reporter=default --reporter=junit --outputFile.junit=PATH',
  profile: vitest,
});
