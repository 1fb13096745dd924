/** go: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, type FailedTest, firstMatch, firstMessageLine, lastMatch, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

const GO_BUILD_FAILED = /^FAIL\s+\S+ \[(?:build|setup) failed\]/;
const GO_FAILED_TEST = /^\s*--- FAIL: /;
const GO_PASSED_TEST = /^\s*--- PASS: /;
const GO_OK_PACKAGE = /^ok\s+\S+/;
const GO_FAILED_PACKAGE = /^FAIL\s+\S+\s+[\d.]+s/;
const GO_NO_FILES = /^\?\s+\S+\s+\[no test files\]/;

/** A test's own line: `    math_test.go:7: Add(1, 1) = 2, want 3` (t.Error, t.Fatal, t.Log). */
const GO_TEST_LINE = /^\s+(\S+\.go):(\d+): (.*)$/;

/**
 * go's failed tests: each `--- FAIL: TestX (0.00s)` whose subtests did not fail in its stead, in the
 * package the next `FAIL\t<package>` line names, with the first `file.go:line: message` the test printed
 * (below its `--- FAIL` line; under `-v`, below its `=== RUN` line). The file is relative to the package's folder.
 */
function goFailures(lines: readonly string[]): FailedTest[] {
  const failed: { name: string; at: number; indent: number }[] = [];
  lines.forEach((l, i) => {
    const m = /^(\s*)--- FAIL: (\S+) \(/.exec(l);
    if (m) failed.push({ name: m[2]!, at: i, indent: m[1]!.length });
  });
  const out: FailedTest[] = [];
  for (const f of failed) {
    if (failed.some((o) => o.name.startsWith(`${f.name}/`))) continue;
    let said: RegExpExecArray | null = null;
    for (let i = f.at + 1; i < lines.length && !said; i++) {
      const l = lines[i]!;
      const indent = l.length - l.trimStart().length;
      if (indent <= f.indent || /^\s*(?:---|===) /.test(l)) break;
      said = GO_TEST_LINE.exec(l);
    }
    const run = lines.indexOf(`=== RUN   ${f.name}`);
    for (let i = run + 1; run !== -1 && i < lines.length && !said; i++) {
      if (/^\s*(?:---|===) /.test(lines[i]!)) break;
      said = GO_TEST_LINE.exec(lines[i]!);
    }
    const pkg = lines
      .slice(f.at)
      .find((l) => GO_FAILED_PACKAGE.test(l))
      ?.split(/\s+/)[1];
    out.push({
      title: [f.name],
      ...(said && { file: said[1]!, line: Number(said[2]) }),
      message: firstMessageLine(said?.[3] ?? 'failed'),
      ...(pkg && { package: pkg }),
    });
  }
  return out;
}

const go: RunnerProfile = {
  failures: goFailures,
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
  exits: {
    2: 'go test usage error',
  },
  ambiguousExit: 'go test exits 1 for failed tests and for a build failure',
  junitHint: 'gotestsum --junitfile PATH -- ./...',
  profile: go,
});
