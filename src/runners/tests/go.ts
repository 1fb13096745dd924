/** go: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, firstMatch, lastMatch, type Reading, type RunnerProfile } from '../read.js';
import { base } from '../command-words.js';
import { defineRunner } from '../record.js';

const GO_BUILD_FAILED = /^FAIL\s+\S+ \[(?:build|setup) failed\]/;
const GO_FAILED_TEST = /^\s*--- FAIL: /;
const GO_PASSED_TEST = /^\s*--- PASS: /;
const GO_OK_PACKAGE = /^ok\s+\S+/;
const GO_FAILED_PACKAGE = /^FAIL\s+\S+\s+[\d.]+s/;
const GO_NO_FILES = /^\?\s+\S+\s+\[no test files\]/;

const go: RunnerProfile = {
  // Counts spread over the run: every test's and package's result.
  keep: anyOf(GO_BUILD_FAILED, GO_FAILED_TEST, GO_PASSED_TEST, GO_OK_PACKAGE, GO_FAILED_PACKAGE, GO_NO_FILES),
  read(lines) {
    const out: Reading = {};
    const build = firstMatch(lines, GO_BUILD_FAILED);
    if (build) {
      const why = firstMatch(lines, /^\S+\.go:\d+(?::\d+)?: /)?.line ?? build.line;
      out.cannotRun = { what: 'a compile error', line: why };
    }
    const failedTests = lines.filter((l) => GO_FAILED_TEST.test(l));
    const passedTests = lines.filter((l) => GO_PASSED_TEST.test(l)).length;
    const okPkgs = lines.filter((l) => GO_OK_PACKAGE.test(l));
    const failPkg = lastMatch(lines, GO_FAILED_PACKAGE);
    const noFiles = lines.filter((l) => GO_NO_FILES.test(l));
    const ranNone = okPkgs.length > 0 && okPkgs.every((l) => /\[no tests to run\]/.test(l));
    if (failedTests.length > 0 || failPkg || okPkgs.length > 0) {
      const line = failedTests[0]?.trim() ?? failPkg?.line ?? okPkgs[okPkgs.length - 1]!;
      const passed = Math.max(passedTests, okPkgs.filter((l) => !/\[no tests to run\]/.test(l)).length);
      out.summary = { line, failed: failedTests.length, passed, total: ranNone ? 0 : failedTests.length + passed };
    }
    if (!out.summary && noFiles.length > 0 && !build) out.noTests = { line: noFiles[0]! };
    if (ranNone) out.noTests = { line: okPkgs[0]! };
    return out;
  },
};

export const record = defineRunner({
  name: 'go',
  command: {
    looks: '`go test`',
    is: (words) => base(words[0] ?? '') === 'go' && words[1] === 'test',
  },
  exits: {
    2: 'go test usage error',
  },
  ambiguousExit: 'go test exits 1 for failed tests and for a build failure',
  junitHint: 'gotestsum --junitfile PATH -- ./...',
  scriptSummary: 10,
  profile: go,
});
