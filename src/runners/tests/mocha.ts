/** mocha: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  type FailedTest,
  firstFrame,
  frameOf,
  firstMatch,
  firstMessageLine,
  jsErrorLine,
  lastMatch,
  type Reading,
  type RunnerProfile,
  tapFailures,
} from '../read.js';
import { defineRunner } from '../record.js';

const mochaCount = (word: string) => new RegExp(`^\\s*(\\d+) ${word}\\b`);
const mochaTap = (word: string) => new RegExp(`^# ${word} (\\d+)$`);
const mochaJson = (key: string) => new RegExp(`^\\s*"${key}": (\\d+),?$`);
const MOCHA_JSON_STATS = /^\s*"stats": \{$/;
const MOCHA_NO_FILES = /^\s*Error: No test files found/;
/** A count node's TAP reporter prints beside `# tests`, `# pass` and `# fail` and mocha's does not: such TAP is node's. */
const NODE_TAP_COUNT = /^# (?:suites|cancelled|todo|duration_ms) \d/;
/** mocha's TAP summary (`# tests N`), not node's (which prints the same three counts and more). */
const mochaTapTests = (lines: readonly string[]) => (firstMatch(lines, NODE_TAP_COUNT) ? undefined : lastMatch(lines, mochaTap('tests')));

/** The frame of the test's own function in a stack (`at Context.<anonymous> (file:line:col)`, `at Context.named (...)`), in the project's code. */
function testFrame(lines: readonly string[], from: number, to: number): { file: string; line: number } | undefined {
  for (let i = from; i < to && i < lines.length; i++) {
    if (!/^\s*at Context\.\S+ \(/.test(lines[i]!)) continue;
    const f = frameOf(lines[i]!);
    if (f) return f;
  }
  return undefined;
}

/**
 * mocha's failed tests. The spec reporter's (and dot's, list's) failure list below `N failing`: `  1) suite`
 * and the test's title on the lines below it, up to the one ending in `:`, then the error's first line and
 * its stack: the place is the test's own frame (`at Context.<anonymous> (test/a.js:297:5)`: mocha runs
 * each test as a method of its Context), where an assertion in a helper it called put the helper's
 * frame first; else the stack's first frame in the project's code. `--reporter tap`: its `not ok` lines.
 */
function mochaFailures(lines: readonly string[]): FailedTest[] {
  const failing = lastMatch(lines, mochaCount('failing'));
  if (!failing) return mochaTapTests(lines) ? tapFailures(lines) : [];
  const from = lines.lastIndexOf(failing.line);
  const out: FailedTest[] = [];
  const heads: number[] = [];
  for (let i = from + 1; i < lines.length; i++) if (/^\s+\d+\) \S/.test(lines[i]!)) heads.push(i);
  for (const [k, h] of heads.entries()) {
    const end = heads[k + 1] ?? lines.length;
    const title: string[] = [];
    let i = h;
    for (; i < end; i++) {
      const part = (i === h ? lines[i]!.replace(/^\s+\d+\)\s/, '') : lines[i]!).trim();
      if (part === '' && title.length > 0) break;
      if (part.endsWith(':')) {
        title.push(part.slice(0, -1));
        break;
      }
      title.push(part);
    }
    const message = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    const frame = testFrame(lines, i + 1, end) ?? firstFrame(lines, i + 1, end);
    out.push({ title, ...(frame && { file: frame.file, line: frame.line }), message: firstMessageLine(message ?? 'failed') });
  }
  return out;
}

const mocha: RunnerProfile = {
  failures: mochaFailures,
  keep: anyOf(
    mochaCount('(?:passing|failing|pending)'),
    MOCHA_NO_FILES,
    mochaTap('(?:tests|pass|fail)'),
    MOCHA_JSON_STATS,
    mochaJson('(?:tests|passes|pending|failures)'),
  ),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const noFiles = firstMatch(lines, MOCHA_NO_FILES);
    if (noFiles) out.noTests = { line: noFiles.line };
    const passing = lastMatch(lines, mochaCount('passing'));
    // --reporter tap: "# tests", "# pass", "# fail" (pending tests count as passed there); --reporter json: its "stats".
    const tap = passing ? undefined : mochaTapTests(lines);
    const json = passing || tap ? undefined : lastMatch(lines, mochaJson('failures'));
    if (tap) {
      const failLine = lastMatch(lines, mochaTap('fail'));
      const failed = Number(failLine?.m[1] ?? 0);
      out.summary = {
        line: failed > 0 && failLine ? failLine.line : tap.line,
        failed,
        passed: Number(lastMatch(lines, mochaTap('pass'))?.m[1] ?? 0),
        total: Number(tap.m[1]),
      };
    } else if (json && firstMatch(lines, MOCHA_JSON_STATS)) {
      const stat = (k: string) => Number(lastMatch(lines, mochaJson(k))?.m[1] ?? 0);
      const failed = Number(json.m[1]);
      out.summary = { line: json.line, failed, passed: stat('passes'), total: stat('tests'), skipped: stat('pending') };
    } else if (passing) {
      const failing = lastMatch(lines, mochaCount('failing'));
      const pending = lastMatch(lines, mochaCount('pending'));
      const passed = Number(passing.m[1]);
      const failed = failing ? Number(failing.m[1]) : 0;
      const skipped = pending ? Number(pending.m[1]) : 0;
      out.summary = { line: failing?.line ?? passing.line, failed, passed, total: passed + failed + skipped, skipped };
    } else if (!noFiles) {
      const err = jsErrorLine(lines);
      if (err) out.cannotRun = { what: 'mocha could not load the tests', line: err };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'mocha',
  ambiguousExit: 'mocha exits with the number of failures, and 1 for harness errors too',
  junitHint: 'mocha --reporter mocha-junit-reporter --reporter-options mochaFile=PATH',
  profile: mocha,
});
