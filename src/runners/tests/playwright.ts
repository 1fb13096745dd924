/** playwright: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { count, firstMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

const playwright: RunnerProfile = {
  read(lines) {
    const out: Reading = {};
    const noTests = firstMatch(lines, /^\s*Error: No tests found/);
    if (noTests) out.noTests = { line: noTests.line };
    const config = firstMatch(lines, /Error: .*playwright\.config|^\s*Error: Cannot find module|^\s*SyntaxError: /);
    if (config) out.cannotRun = { what: 'playwright could not load the tests', line: config.line };
    const counts = lines.filter((l) => /^\s+\d+ (?:failed|passed|flaky|skipped|did not run|interrupted)\b/.test(l));
    if (counts.length > 0) {
      const t = counts.join('\n');
      const failed = count(t, 'failed') + count(t, 'interrupted');
      const passed = count(t, 'passed') + count(t, 'flaky');
      out.summary = {
        line: (counts.find((l) => /failed/.test(l)) ?? counts[counts.length - 1]!).trim(),
        failed,
        passed,
        total: failed + passed + count(t, 'skipped') + count(t, 'did not run'),
        skipped: count(t, 'skipped') + count(t, 'did not run'),
      };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'playwright',
  exits: {
    130: 'playwright was interrupted',
  },
  ambiguousExit: 'playwright exits 1 for failed tests and for config errors or no tests',
  junitHint: 'PLAYWRIGHT_JUNIT_OUTPUT_FILE=PATH playwright test --reporter=junit',
  profile: playwright,
});
