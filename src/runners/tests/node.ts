/** node: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  type FailedTest,
  firstFrame,
  firstMatch,
  firstMessageLine,
  jsErrorLine,
  lastMatch,
  type Reading,
  type RunnerProfile,
  tapFailures,
} from '../read.js';
import { defineRunner } from '../record.js';

const NODE_COUNT = String.raw`^(?:[.X]*(?:# |ℹ )|\s*<!-- )`;
const nodeCount = (word: string) => new RegExp(`${NODE_COUNT}${word} (\\d+)(?: -->)?$`);
/** A test file's path as node names it: absolute (Node 20), or relative with a script's extension (later ones). */
const NODE_FILE = String.raw`\/\S.*?|[^\s/][^\s]*\.[cm]?[jt]sx?`;
/** A result named by a test file: TAP `not ok 1 - a.test.js`, spec and dot `✖ a.test.js (30ms)`, after an interleaved dot. */
const NODE_FILE_RESULT = new RegExp(String.raw`^(?:(not ok|ok) \d+ - |[.X]*([✖✔]) )(${NODE_FILE})(?: \([\d.]+m?s\))?$`);
/** junit on stdout: `<testcase name="a.test.js" time="0.04" classname="test" failure="test failed">` (Node 24 adds `file="..."`). */
const NODE_FILE_CASE = new RegExp(
  String.raw`^\s*<testcase name="(${NODE_FILE})"(?: (?!failure=)[\w-]+="[^"]*")*( failure="[^"]*")?\s*/?>$`,
);
const NODE_FILE_NAME = new RegExp(`^(?:${NODE_FILE})$`);
/** A line of the dot reporter's marks (wrapped at the terminal's width, 20 into a pipe). */
const NODE_DOTS = /^[.X]+$/;
const NODE_DOT_FAILED = /^Failed tests:$/;
/** A failure listed under `Failed tests:` (`⚠` for a failed todo on Node 24). */
const NODE_DOT_ENTRY = /^([✖⚠]) (.*?)(?: \([\d.]+m?s\))?( # (?:TODO|SKIP)\b.*)?$/;
/** Under a suite's entry: its error is its children's failure. */
const NODE_SUBTESTS_FAILED = /^\s+'\d+ subtests? failed'$/;
const NODE_MISSING = /^Could not find '/;
const NODE_FATAL = /^(?:#\s*)?FATAL ERROR: /;
const NODE_SIGNAL = /^\s*signal: '(SIG[A-Z0-9]+)'/;
const NODE_HOOK_FAILED = /^\s*failureType: 'hookFailed'/;

/** Test files named by a result line, each once (spec lists a failed one again under `failing tests`, several reporters each list it). */
function nodeFiles(lines: readonly string[]): {
  files: Map<string, boolean>;
  firstPassed?: string;
  firstFailed?: { name: string; line: string };
} {
  const files = new Map<string, boolean>();
  let firstPassed: string | undefined;
  let firstFailed: { name: string; line: string } | undefined;
  for (const l of lines) {
    const m = NODE_FILE_RESULT.exec(l);
    const c = m ? undefined : NODE_FILE_CASE.exec(l);
    if (!m && !c) continue;
    const name = m ? m[3]! : c![1]!;
    const failed = m ? m[1] === 'not ok' || m[2] === '✖' : c![2] !== undefined;
    if (!failed) firstPassed ??= l;
    else firstFailed ??= { name, line: l };
    files.set(name, (files.get(name) ?? false) || failed);
  }
  return { files, ...(firstPassed !== undefined && { firstPassed }), ...(firstFailed && { firstFailed }) };
}

/** The dot reporter's output: its marks counted, its `Failed tests:` read for what is no failed test. */
function nodeDots(lines: readonly string[]): Reading | undefined {
  const section = lines.findIndex((l) => NODE_DOT_FAILED.test(l));
  const marks = (section === -1 ? lines : lines.slice(0, section)).filter((l) => NODE_DOTS.test(l)).join('');
  if (marks === '') return undefined;
  const out: Reading = {};
  let others = 0;
  let firstTest: string | undefined;
  let file: string | undefined;
  if (section !== -1) {
    for (let i = section + 1; i < lines.length; i++) {
      const e = NODE_DOT_ENTRY.exec(lines[i]!);
      if (!e) continue;
      const isFile = NODE_FILE_NAME.test(e[2]!);
      if (e[3] !== undefined || NODE_SUBTESTS_FAILED.test(lines[i + 1] ?? '') || isFile) others++;
      else firstTest ??= lines[i]!;
      if (isFile && e[3] === undefined) file ??= lines[i]!;
    }
  }
  const x = marks.replace(/\./g, '').length;
  const passed = marks.length - x;
  const failed = Math.max(0, x - others);
  out.summary = {
    line: failed > 0 && firstTest !== undefined ? firstTest : lines.filter((l) => NODE_DOTS.test(l)).pop()!,
    failed,
    passed,
    total: failed + passed,
  };
  if (file !== undefined)
    out.cannotRun = {
      what: "a test file failed outside any test (it cannot load, or it exited non-zero; node's dot reporter does not say why, --test-reporter=spec does)",
      line: file,
    };
  out.passUnseen =
    "node's dot reporter names no test: a test file without tests, one that exited early (process.exit(0) in a test) and a skipped test each pass as a dot; --test-reporter=spec tells them apart";
  return out;
}

/**
 * node's failed tests. TAP (Node 20's and 22's default into a pipe): each leaf `not ok`, its place the
 * first frame of its `stack:` in the project's code, else its `location:`, its message the `error:`. Spec
 * (Node 23 and later; `--test-reporter=spec`) and dot: the `✖ failing tests:` (`Failed tests:`) list at the
 * end, each `test at file:line:col` and `✖ name (time)` and its error; the suites above a test are read
 * from the tree spec printed before (the same `✖ name (time)` line, under its `▶ suite` lines).
 */
function nodeFailures(lines: readonly string[]): FailedTest[] {
  if (firstMatch(lines, /^TAP version \d+$/)) return tapFailures(lines).filter((f) => !NODE_FILE_NAME.test(f.title.join(' > ')));
  const section = lines.findIndex((l) => /^(?:✖ failing tests:|Failed tests:)$/.test(l));
  if (section === -1) return [];
  const out: FailedTest[] = [];
  for (let i = section + 1; i < lines.length; i++) {
    const e = /^✖ (.*?)(?: \([\d.]+m?s\))?$/.exec(lines[i]!);
    if (!e || NODE_FILE_NAME.test(e[1]!) || NODE_SUBTESTS_FAILED.test(lines[i + 1] ?? '')) continue;
    let end = i + 1;
    while (end < lines.length && !/^(?:✖ |test at )/.test(lines[end]!)) end++;
    const at = /^test at (.*):(\d+):\d+$/.exec(lines[i - 1] ?? '');
    const frame = firstFrame(lines, i + 1, end);
    const where = frame ?? (at ? { file: at[1]!, line: Number(at[2]) } : undefined);
    const message = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    out.push({
      title: nodeSuites(lines, section, lines[i]!).concat(e[1]!),
      ...(where && { file: where.file, line: where.line }),
      message: firstMessageLine((message ?? 'failed').replace(/^'(.*)'$/, '$1')),
    });
  }
  return out;
}

/** The suites above a failed test in spec's tree: its own line (`  ✖ adds (2.3ms)`) found above `before`, then each `▶ suite` less indented above it. */
function nodeSuites(lines: readonly string[], before: number, entry: string): string[] {
  const at = lines.findIndex((l, i) => i < before && l.trim() === entry && l !== entry);
  if (at === -1) return [];
  const suites: string[] = [];
  let indent = lines[at]!.length - lines[at]!.trimStart().length;
  for (let i = at - 1; i >= 0 && indent > 0; i--) {
    const l = lines[i]!;
    const d = l.length - l.trimStart().length;
    const m = /^\s*▶ (.*)$/.exec(l);
    if (m && d < indent) {
      suites.unshift(m[1]!);
      indent = d;
    }
  }
  return suites;
}

const node: RunnerProfile = {
  failures: nodeFailures,
  keep: anyOf(
    nodeCount('\\w+'),
    NODE_FILE_RESULT,
    NODE_FILE_CASE,
    NODE_DOTS,
    NODE_DOT_FAILED,
    NODE_DOT_ENTRY,
    NODE_SUBTESTS_FAILED,
    NODE_MISSING,
    NODE_FATAL,
    NODE_SIGNAL,
    NODE_HOOK_FAILED,
  ),
  needsSummary: true,
  reporterHint:
    'run node --test with a reporter that writes its results to stdout (spec, tap, dot or junit; not a custom module), or write a JUnit report (--test-reporter=junit --test-reporter-destination=PATH) and give the tier that `report`',
  read(lines) {
    const out: Reading = {};
    const missing = firstMatch(lines, NODE_MISSING);
    if (missing) out.noTests = { line: missing.line };
    const num = (word: string) => lastMatch(lines, nodeCount(word));
    const tests = num('tests');
    if (!tests) {
      const dots = nodeDots(lines);
      if (dots) return { ...dots, ...out };
      const err = jsErrorLine(lines);
      if (err && !missing) out.cannotRun = { what: 'node could not run the tests', line: err };
      return out;
    }
    const { files: named, firstPassed: filePassed, firstFailed } = nodeFiles(lines);
    const files = named.size;
    const filesFailed = [...named.values()].filter(Boolean).length;
    const fileFailed = firstFailed?.name;
    const failed = Math.max(0, Number(num('fail')?.m[1] ?? 0) - filesFailed);
    const passed = Math.max(0, Number(num('pass')?.m[1] ?? 0) - (files - filesFailed));
    const failLine = num('fail');
    out.summary = {
      line: failed > 0 && failLine ? failLine.line : tests.line,
      failed,
      passed,
      total: Math.max(0, Number(tests.m[1]) - files),
      skipped: Number(num('skipped')?.m[1] ?? 0),
    };
    if (filePassed !== undefined && !out.noTests) {
      // Only such files: no tests ran. Beside real tests: one file's tests may have been cut short, unseen.
      if (out.summary.total === 0)
        out.noTests = { line: `${filePassed} (a test file that ran no test, or exited before its tests reported)` };
      else
        out.cannotRun = {
          what: 'a test file reported no test (it has none, or it exited before its tests reported, e.g. process.exit in a test)',
          line: filePassed,
        };
    }
    if (fileFailed !== undefined) {
      // A file whose process crashed: node's fatal error (out of memory), else the signal that ended it.
      const fatal = firstMatch(lines, NODE_FATAL)?.line.replace(/^#\s*/, '');
      const signal = NODE_SIGNAL.exec(firstMatch(lines, NODE_SIGNAL)?.line ?? '')?.[1];
      const line =
        jsErrorLine(lines)?.replace(/^#\s*/, '') ??
        fatal ??
        (signal ? `${fileFailed} was killed by ${signal}` : `${fileFailed} failed outside any test`);
      out.cannotRun = { what: 'a test file failed outside any test', line };
    }
    // Tests cancelled with none failed: a hook that failed (its error follows "failureType: 'hookFailed'"), or a parent that ended first.
    const cancelled = num('cancelled');
    if (cancelled && Number(cancelled.m[1]) > 0) {
      const hook = firstMatch(lines, NODE_HOOK_FAILED);
      const why = hook ? firstMatch(lines, /^\s*error: /, hook.index) : undefined;
      out.failedBesides = {
        what: `${cancelled.m[1]} tests were cancelled${why ? ' by a failing hook' : ''}`,
        line: why?.line ?? cancelled.line,
      };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'node',
  exits: {
    7: 'node could not run its exception handler (often an unwritable --test-reporter-destination)',
    9: 'node was given a bad option',
    13: 'node exited with an unsettled top-level await',
  },
  ambiguousExit: 'node --test exits 1 for failed tests and for a missing test file',
  junitHint: 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=PATH',
  profile: node,
});
