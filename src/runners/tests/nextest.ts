/** nextest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { cargoCannotBuild, count, firstMatch, lastMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

const nextest: RunnerProfile = {
  exitProves: true,
  read(lines) {
    const out: Reading = {};
    const s = lastMatch(lines, /^\s*Summary \[.*\] (\d+) tests? run: (.*)$/);
    if (s)
      out.summary = {
        line: s.line.trim(),
        failed: count(s.m[2]!, 'failed') + count(s.m[2]!, 'timed out'),
        passed: count(s.m[2]!, 'passed'),
        total: Number(s.m[1]),
      };
    const none = firstMatch(lines, /error: no tests to run/);
    if (none) out.noTests = { line: none.line };
    const build = cargoCannotBuild(lines);
    if (build) out.cannotRun = build;
    return out;
  },
};

export const record = defineRunner({
  name: 'nextest',
  exits: {
    4: 'nextest found no tests',
    94: 'nextest setup error',
    96: 'nextest setup error',
    101: 'nextest could not build the tests',
    102: 'nextest setup error',
    104: 'nextest setup error',
    105: 'nextest setup error',
  },
  noTestsExits: [4],
  junitHint: 'cargo nextest run --profile NAME, with [profile.NAME.junit] path = "PATH"',
  profile: nextest,
});
