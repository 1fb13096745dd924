/** go: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, type FailedTest, firstMatch, firstMessageLine, lastMatch, type Reading, type RunnerProfile, stripAnsi } from '../read.js';
import { defineRunner } from '../record.js';

const GO_BUILD_FAILED = /^FAIL\s+\S+ \[(?:build|setup) failed\]/;
const GO_FAILED_TEST = /^\s*--- FAIL: /;
const GO_PASSED_TEST = /^\s*--- PASS: /;
const GO_SKIPPED_TEST = /^\s*--- SKIP: /;
const GO_OK_PACKAGE = /^ok\s+\S+/;
const GO_FAILED_PACKAGE = /^FAIL\s+\S+\s+[\d.]+s/;
const GO_NO_FILES = /^\?\s+\S+\s+\[no test files\]/;
/** A package's result line, which ends its part of the output. */
const GO_PACKAGE_END = anyOf(GO_OK_PACKAGE, GO_FAILED_PACKAGE, GO_NO_FILES, GO_BUILD_FAILED);
/** go's errors before any package is built or tested (`go list`'s): an import cycle, a package no module provides, two packages in one folder. */
const GO_SETUP_ERROR =
  /: import cycle not allowed$|^(?:\S+\.go:\d+:\d+: )?no required module provides package |^found packages \S+ \(\S+\) and \S+ \(\S+\) in |^(?:package|cannot find package) \S+ is not in (?:GOROOT|std)|: malformed import path /;
/** `go test -json`'s event lines (test2json): `{"Time":...,"Action":"output","Package":...,"Output":"..."}`. */
const GO_JSON_EVENT = /^\{.*"Action":"\w+"/;
/** The JSON events a reading needs kept from a long output: each test's and package's result, said in an `Output` field. */
const GO_JSON_RESULT = /"Output":"(?:\s*--- (?:FAIL|PASS|SKIP): |ok {2}\\t|FAIL\\t|\? {3}\\t)/;

/** A test's own line: `    math_test.go:7: Add(1, 1) = 2, want 3` (t.Error, t.Fatal, t.Log). */
const GO_TEST_LINE = /^\s+(\S+\.go):(\d+): (.*)$/;
/** A goroutine stack's file line: `\t/abs/math/math_test.go:13 +0x12`. */
const GO_FRAME_FILE = /^\s+(\/\S+\.go):(\d+)(?: \+0x[\da-f]+)?$/;

/**
 * go's output as lines to read: `go test -json`'s events (test2json) become the text go prints with
 * -v (each event's `Output`), each package's part in one piece (events of packages run at once can
 * interleave); lines that are no event (a build error on stderr) come first, as go prints them first.
 */
export function goLines(lines: readonly string[]): readonly string[] {
  if (!lines.some((l) => GO_JSON_EVENT.test(l))) return lines;
  const plain: string[] = [];
  const byPackage = new Map<string, string>();
  for (const l of lines) {
    if (!GO_JSON_EVENT.test(l)) {
      if (l.trim() !== '') plain.push(l);
      continue;
    }
    let e: { Action?: unknown; Package?: unknown; Output?: unknown };
    try {
      e = JSON.parse(l) as typeof e;
    } catch {
      plain.push(l);
      continue;
    }
    if (e.Action !== 'output' || typeof e.Output !== 'string') continue;
    const pkg = typeof e.Package === 'string' ? e.Package : '';
    byPackage.set(pkg, (byPackage.get(pkg) ?? '') + e.Output);
  }
  return [...plain, ...[...byPackage.values()].flatMap((text) => stripAnsi(text).replace(/\n$/, '').split('\n'))];
}

/** The line a failed test's block says why it failed: its last `file.go:line: message` (a t.Log before it says less), else its panic. */
function saidIn(lines: readonly string[], from: number, indent: number): { file: string; line: number; message: string } | undefined {
  let said: RegExpExecArray | null = null;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.length - l.trimStart().length <= indent || /^\s*(?:---|===) /.test(l)) break;
    said = GO_TEST_LINE.exec(l) ?? said;
  }
  return said ? { file: said[1]!, line: Number(said[2]), message: said[3]! } : undefined;
}

/**
 * A test's panic below its `--- FAIL` line: the `panic: ` line, and the stack frame in the test's own
 * package, its test file first (`/abs/math/math_test.go:13 +0x12`; go's own frames are not).
 */
function panicOf(
  lines: readonly string[],
  from: number,
  pkg: string | undefined,
): { file?: string; line?: number; message: string } | undefined {
  const at = firstMatch(lines, /^panic: /, from);
  if (!at || lines.slice(from, at.index).some((l) => GO_FAILED_TEST.test(l) || GO_PACKAGE_END.test(l))) return undefined;
  const frames: { fn: string; file: string; line: number }[] = [];
  for (let i = at.index + 1; i < lines.length && !GO_PACKAGE_END.test(lines[i]!); i++) {
    const f = GO_FRAME_FILE.exec(lines[i]!);
    if (f) frames.push({ fn: lines[i - 1]!, file: f[1]!, line: Number(f[2]) });
  }
  const own = frames.filter((f) => pkg !== undefined && f.fn.startsWith(`${pkg}.`));
  const frame = own.find((f) => f.file.endsWith('_test.go')) ?? own[0];
  return { ...(frame && { file: frame.file, line: frame.line }), message: at.line.replace(/ \[recovered\]$/, '') };
}

/** An Example's failure: `got:` and `want:` below its `--- FAIL` line, as one line. */
function exampleOf(lines: readonly string[], from: number): string | undefined {
  if (lines[from]?.trim() !== 'got:') return undefined;
  const want = lines.findIndex((l, i) => i > from && l.trim() === 'want:');
  if (want === -1) return undefined;
  const end = lines.findIndex((l, i) => i > want && (GO_PACKAGE_END.test(l) || /^(?:FAIL|---|===)/.test(l)));
  return `got ${lines.slice(from + 1, want).join('\\n')}, want ${lines.slice(want + 1, end === -1 ? undefined : end).join('\\n')}`;
}

/**
 * go's failed tests: each `--- FAIL: TestX (0.00s)` whose subtests did not fail in its stead, in the
 * package the next `FAIL\t<package>` line names, with the last `file.go:line: message` the test printed
 * (below its `--- FAIL` line; under `-v`, below its `=== RUN` line). The file is relative to the
 * package's folder. A test that panicked: the panic, at its stack's frame in the package's test file
 * (absolute). `go test -json`'s events are read as the text they hold.
 */
function goFailures(printed: readonly string[]): FailedTest[] {
  const lines = goLines(printed);
  const failed: { name: string; at: number; indent: number }[] = [];
  lines.forEach((l, i) => {
    const m = /^(\s*)--- FAIL: (\S+) \(/.exec(l);
    if (m) failed.push({ name: m[2]!, at: i, indent: m[1]!.length });
  });
  const out: FailedTest[] = [];
  for (const f of failed) {
    if (failed.some((o) => o.name.startsWith(`${f.name}/`))) continue;
    const run = lines.indexOf(`=== RUN   ${f.name}`);
    const said = saidIn(lines, f.at + 1, f.indent) ?? (run === -1 ? undefined : saidIn(lines, run + 1, -1));
    const pkg = lines
      .slice(f.at)
      .find((l) => GO_FAILED_PACKAGE.test(l))
      ?.split(/\s+/)[1];
    const why = said ?? panicOf(lines, f.at + 1, pkg);
    const example = why ? undefined : exampleOf(lines, f.at + 1);
    out.push({
      title: [f.name],
      ...(why?.file !== undefined && { file: why.file, line: why.line! }),
      message: firstMessageLine(why?.message ?? example ?? 'failed'),
      ...(pkg && { package: pkg }),
    });
  }
  return out;
}

/**
 * A package whose test binary exited before it reported a test's failure (`log.Fatal`, `os.Exit(1)`
 * in the code under test, a panic outside the tests' goroutines): its `FAIL\t<package>\t0.01s` with
 * no `--- FAIL` above it in its part of the output. The package, the last line it printed, and (under
 * -v, or in `go test -json`'s events) the test that was running: the last `=== RUN` that did not end.
 */
function stoppedPackage(lines: readonly string[]): { pkg: string; line: string; test?: string } | undefined {
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!GO_PACKAGE_END.test(lines[i]!)) continue;
    const part = lines.slice(start, i);
    start = i + 1;
    if (!GO_FAILED_PACKAGE.test(lines[i]!) || part.some((l) => GO_FAILED_TEST.test(l))) continue;
    const said = part.filter((l) => l.trim() !== '' && !/^(?:FAIL|PASS)$|^\s*(?:---|===) /.test(l));
    const line = said.find((l) => /^panic: /.test(l)) ?? said[said.length - 1] ?? lines[i]!;
    const test = runningTest(part);
    return { pkg: lines[i]!.split(/\s+/)[1]!, line, ...(test !== undefined && { test }) };
  }
  return undefined;
}

/** The test a package's part of the output started last and never ended (`=== RUN   TestNeg` without its `--- PASS`). */
function runningTest(part: readonly string[]): string | undefined {
  const ended = new Set(part.flatMap((l) => /^\s*--- (?:PASS|FAIL|SKIP): (\S+) \(/.exec(l)?.[1] ?? []));
  for (let i = part.length - 1; i >= 0; i--) {
    const m = /^=== (?:RUN|CONT) +(\S+)$/.exec(part[i]!);
    if (m && !ended.has(m[1]!)) return m[1]!;
  }
  return undefined;
}

/** A stopped package as what could not run: the package and its test, that the code under test ended it, and how to see where. */
function stopped(s: { pkg: string; line: string; test?: string }): NonNullable<Reading['cannotRun']> {
  const top = s.test?.split('/')[0];
  return {
    what: `the test binary of ${s.pkg} exited${s.test !== undefined ? ` in ${s.test}` : ''} before its tests reported: the code under test ended the process (a log.Fatal, an os.Exit or a crash); its last output`,
    line: s.line,
    next:
      top !== undefined
        ? `\`go test -v -run '^${top}$' ${s.pkg}\` runs that test alone, to find where it exits`
        : `\`go test -v ${s.pkg}\` names the test that was running (its last \`=== RUN\` line)`,
    stopped: { package: s.pkg, ...(s.test !== undefined && { test: s.test }) },
  };
}

const go: RunnerProfile = {
  failures: goFailures,
  // Counts spread over the run: every test's and package's result (in `go test -json`'s events too).
  keep: anyOf(GO_BUILD_FAILED, GO_FAILED_TEST, GO_PASSED_TEST, GO_SKIPPED_TEST, GO_PACKAGE_END, GO_JSON_RESULT),
  read(printed) {
    const lines = goLines(printed);
    const out: Reading = {};
    const build = firstMatch(lines, GO_BUILD_FAILED);
    const setup = build ? undefined : firstMatch(lines, GO_SETUP_ERROR);
    if (build) {
      const why = firstMatch(lines, /^\S+\.go:\d+(?::\d+)?: /)?.line ?? build.line;
      out.cannotRun = { what: 'a compile error', line: why };
    } else if (setup) out.cannotRun = { what: 'go could not load the packages', line: setup.line };
    const exited = stoppedPackage(lines);
    if (exited && !out.cannotRun) out.cannotRun = stopped(exited);
    const failedTests = lines.filter((l) => GO_FAILED_TEST.test(l));
    const passedTests = lines.filter((l) => GO_PASSED_TEST.test(l)).length;
    const skippedTests = lines.filter((l) => GO_SKIPPED_TEST.test(l));
    const okPkgs = lines.filter((l) => GO_OK_PACKAGE.test(l));
    const failPkg = lastMatch(lines, GO_FAILED_PACKAGE);
    const noFiles = lines.filter((l) => GO_NO_FILES.test(l));
    const ranNone = okPkgs.length > 0 && okPkgs.every((l) => /\[no tests to run\]/.test(l));
    if (failedTests.length > 0 || failPkg || okPkgs.length > 0) {
      // Without -v go names no passed or skipped test: each package that passed counts as one.
      const named = passedTests + skippedTests.length > 0;
      const passed = named ? passedTests : okPkgs.filter((l) => !/\[no tests to run\]/.test(l)).length;
      const skipped = skippedTests.length;
      const allSkipped = skipped > 0 && passedTests === 0 && failedTests.length === 0;
      const line =
        failedTests[0]?.trim() ?? (allSkipped ? skippedTests[0]!.trim() : undefined) ?? failPkg?.line ?? okPkgs[okPkgs.length - 1]!;
      const total = ranNone ? 0 : failedTests.length + passed + skipped;
      out.summary = { line, failed: failedTests.length, passed, total, ...(skipped > 0 && { skipped }) };
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
