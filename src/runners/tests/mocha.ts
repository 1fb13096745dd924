/** mocha: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, firstMatch, jsErrorLine, lastMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

const mochaCount = (word: string) => new RegExp(`^\\s*(\\d+) ${word}\\b`);
const mochaTap = (word: string) => new RegExp(`^# ${word} (\\d+)$`);
const mochaJson = (key: string) => new RegExp(`^\\s*"${key}": (\\d+),?$`);
const MOCHA_JSON_STATS = /^\s*"stats": \{$/;
const MOCHA_NO_FILES = /^\s*Error: No test files found/;

const mocha: RunnerProfile = {
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
    const tap = passing ? undefined : lastMatch(lines, mochaTap('tests'));
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
  words: ['mocha', '_mocha'],
  packages: ['mocha'],
  caught: () => Array.from({ length: 255 }, (_, i) => i + 1),
  ambiguousExit: 'mocha exits with the number of failures, and 1 for harness errors too',
  junitHint: 'mocha --reporter mocha-junit-reporter --reporter-options mochaFile=PATH',
  scriptSummary: 1,
  profile: mocha,
});
