/**
 * Runner profiles: what each test runner prints when it ran tests (its summary line and counts), when
 * it could not run them (a module that cannot load, a syntax error before any test, no test files, a
 * config or compile error), and when it ran none. Pure: text in, a reading out. The signatures were
 * read off the runners themselves (docs/verdicts.md lists the cases the tests run).
 */
import type { RunnerName } from '../types.js';
import { shown } from '../util/escape.js';

/** The runner's own count, and the line that says it. */
export interface Summary {
  line: string;
  failed: number;
  passed: number;
  total: number;
  /** Of `total`, how many the runner skipped (skip, todo, pending, ignored), when it says. */
  skipped?: number;
}

export interface Reading {
  /** Proof that tests ran: the summary line and its counts (absent: the runner printed none). */
  summary?: Summary;
  /** The harness failed before or outside the tests: what, and the line that says so. */
  cannotRun?: { what: string; line: string };
  /** The runner said it found no test at all. */
  noTests?: { line: string };
  /**
   * Why the runner exits non-zero when no test failed (coverage below its threshold, obsolete
   * snapshots under `--ci`): read only for a failure exit, never to spoil an exit 0.
   */
  failedBesides?: { what: string; line: string; next?: string };
  /** On a pass: what this output cannot show (a reporter that names no test), said beside the pass. */
  passUnseen?: string;
}

export interface RunnerProfile {
  /** Reads a gate's output (ANSI codes already stripped), split into lines. */
  read: (lines: readonly string[]) => Reading;
  /**
   * The runner's failure exit code means a test failed and nothing else (pytest's 1, nextest's 100), so
   * a missing summary (a quiet flag, a cut output) does not make a catch an error.
   */
  exitProves?: boolean;
  /**
   * Exit codes, beyond the tier's `caught`, with which the runner also ends a run whose tests failed: a
   * catch only when the summary counts a failed test (unittest's 5 on Python 3.12 and later, when a
   * setUpClass or setUpModule failed before any test ran).
   */
  failedExits?: readonly number[];
  /**
   * The runner prints its summary whenever its run reaches the end, so an exit 0 without one is no
   * pass: the run was cut short (a test that called `process.exit(0)`) or the reporter prints no
   * counts, and nothing shows that the tests ran.
   */
  needsSummary?: boolean | ((lines: readonly string[]) => boolean);
  /** What to run instead when the output is none `read` knows (a custom reporter): the next step of the error. */
  reporterHint?: string;
  /** An exit 0 that `needsSummary` refuses: what most likely cut the run short, and the next step (default: process.exit, a reporter). */
  cutShort?: { cause: string; next: string };
  /**
   * The lines `read` needs that may be printed far from the end of a long output (a summary printed
   * before the failures' details, counts spread over the run): kept however long the output is (the
   * rest is read from its last TAIL_BYTES).
   */
  keep?: RegExp;
  /**
   * Lines whose next non-blank line (within five) `read` quotes as the reason (jest's `● Test suite
   * failed to run`, its error below it): kept with that line however long the output, so a long
   * output's reading does not quote whatever kept line happens to follow.
   */
  keepNext?: RegExp;
}

// CSI sequences (colours, cursor moves), OSC sequences (links, titles) and lone escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Removes terminal colour and cursor codes. */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

/** Output to lines: ANSI stripped, carriage-return progress redraws reduced to what was left on screen. */
export function outputLines(text: string): string[] {
  return stripAnsi(text).split('\n').map((l) => {
    const line = l.endsWith('\r') ? l.slice(0, -1) : l;
    const cr = line.lastIndexOf('\r');
    return cr === -1 ? line : line.slice(cr + 1);
  });
}

const count = (text: string, word: string): number => {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(text);
  return m ? Number(m[1]) : 0;
};

function lastMatch(lines: readonly string[], re: RegExp): { line: string; m: RegExpExecArray } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = re.exec(lines[i]!);
    if (m) return { line: lines[i]!, m };
  }
  return undefined;
}

function firstMatch(lines: readonly string[], re: RegExp, from = 0): { line: string; index: number } | undefined {
  for (let i = from; i < lines.length; i++) if (re.test(lines[i]!)) return { line: lines[i]!, index: i };
  return undefined;
}

/** One pattern that matches where any of `res` does (a profile's `keep`, from the patterns its `read` uses). */
function anyOf(...res: RegExp[]): RegExp {
  return new RegExp(res.map((r) => `(?:${r.source})`).join('|'));
}

/** The first non-blank line after `index`. */
function nextLine(lines: readonly string[], index: number): string | undefined {
  for (let i = index + 1; i < lines.length && i < index + 6; i++) if (lines[i]!.trim() !== '') return lines[i]!;
  return undefined;
}

/** A JavaScript error that stops a file from loading: a module not found, a syntax error, and the like. */
const JS_LOAD_ERROR =
  /^\s*(?:#\s*)?(?:Exception during run: )?(?:(?:Syntax|Reference|Type)Error|Error(?: \[ERR_[A-Z_]+\])?): (?:Cannot find (?:module|package)|Unexpected|Invalid or unexpected|missing \) after|Identifier '|Cannot use import|require\(\) of ES Module|Named export|The requested module|.*is not defined|.*is not a function|.*of undefined)/;
const ANY_ERROR = /^\s*(?:#\s*)?(?:Exception during run: )?(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;

/** The line that best says why a JavaScript harness failed: a load error, else any error line. */
function jsErrorLine(lines: readonly string[]): string | undefined {
  return (firstMatch(lines, JS_LOAD_ERROR) ?? firstMatch(lines, ANY_ERROR))?.line;
}

/**
 * jest's `--json` results (vitest's `--reporter=json` writes the same fields), for a run whose own
 * summary is not in the output: the counts, and the field that decides as the line to quote.
 */
/** jest's `--json` results line (vitest's `--reporter=json` too). */
const JEST_JSON = /"numTotalTests":/;

function jestJson(lines: readonly string[]): Summary | undefined {
  const text = lines.find((l) => JEST_JSON.test(l));
  if (text === undefined) return undefined;
  const field = (k: string) => new RegExp(`"${k}":\\s*(\\d+)`).exec(text);
  const total = field('numTotalTests');
  if (!total) return undefined;
  const failed = field('numFailedTests');
  const n = (m: RegExpExecArray | null) => Number(m?.[1] ?? 0);
  return { line: n(failed) > 0 ? failed![0] : total[0], failed: n(failed), passed: n(field('numPassedTests')), total: n(total), skipped: n(field('numPendingTests')) + n(field('numTodoTests')) };
}

const JEST_FAILED_TO_RUN = /●\s+Test suite failed to run/;
const JEST_VALIDATION = /●\s+Validation Error/;
const JEST_EXIT = /^\s*●\s+process\.exit called with/;
const JEST_SUMMARY = /^Tests:\s+(.*\d+ total.*)$/;
/** The first line of node's crash in a jest config file: its path and line number. */
const JEST_CONFIG_CRASH = /^\S*?([^/\s]*jest\.config\.[cm]?[jt]s):\d+$/;
/** The file a suite's result is for (`FAIL test/a.test.js`): the one that could not run, named in the reason. */
const JEST_FAIL_FILE = /^\s*FAIL\s+(\S+)/;

const jest: RunnerProfile = {
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
      out.cannotRun = { what: `jest could not load its config (${name})`, line: jsErrorLine(lines.slice(configCrash.index)) ?? configCrash.line };
    }
    const config = firstMatch(lines, /●\s+Validation Error|^Error: Could not find a config file|^Error: Can't find a root directory|^Error: Jest: /);
    if (config) out.cannotRun = { what: 'a jest config error', line: config.line.includes('Validation Error') ? (nextLine(lines, config.index) ?? config.line) : config.line };
    const tests = lastMatch(lines, JEST_SUMMARY);
    if (tests) {
      const t = tests.m[1]!;
      out.summary = { line: tests.line, failed: count(t, 'failed'), passed: count(t, 'passed'), total: count(t, 'total'), skipped: count(t, 'skipped') + count(t, 'todo') };
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
const VITEST_FAILED_FILE = /^\s*FAIL\s+\S.*\[ .+ \]\s*$/;
const VITEST_NO_SUITE = /^Error: No test suite found in file/;

const vitest: RunnerProfile = {
  keep: anyOf(VITEST_FAILED_FILE, VITEST_NO_SUITE, JEST_JSON),
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
    if (config) out.cannotRun = { what: 'a vitest config error', line: config.line.includes('Startup Error') ? (jsErrorLine(lines.slice(config.index)) ?? config.line) : config.line };
    const tests = lastMatch(lines, /^\s*Tests\s{2,}(.+)$/);
    if (tests) {
      const t = tests.m[1]!;
      const total = /no tests/.test(t) ? 0 : Number(/\((\d+)\)/.exec(t)?.[1] ?? 0);
      out.summary = { line: tests.line, failed: count(t, 'failed'), passed: count(t, 'passed'), total, skipped: count(t, 'skipped') + count(t, 'todo') };
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
const mochaCount = (word: string) => new RegExp(`^\\s*(\\d+) ${word}\\b`);
const mochaTap = (word: string) => new RegExp(`^# ${word} (\\d+)$`);
const mochaJson = (key: string) => new RegExp(`^\\s*"${key}": (\\d+),?$`);
const MOCHA_JSON_STATS = /^\s*"stats": \{$/;
const MOCHA_NO_FILES = /^\s*Error: No test files found/;

const mocha: RunnerProfile = {
  keep: anyOf(mochaCount('(?:passing|failing|pending)'), MOCHA_NO_FILES, mochaTap('(?:tests|pass|fail)'), MOCHA_JSON_STATS, mochaJson('(?:tests|passes|pending|failures)')),
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
      out.summary = { line: failed > 0 && failLine ? failLine.line : tap.line, failed, passed: Number(lastMatch(lines, mochaTap('pass'))?.m[1] ?? 0), total: Number(tap.m[1]) };
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

const uvu: RunnerProfile = {
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const total = lastMatch(lines, /^\s*Total:\s+(\d+)/);
    if (total) {
      const passed = Number(lastMatch(lines, /^\s*Passed:\s+(\d+)/)?.m[1] ?? 0);
      const skipped = Number(lastMatch(lines, /^\s*Skipped:\s+(\d+)/)?.m[1] ?? 0);
      // uvu's Total counts the tests it ran; the skipped ones (and those left out by .only) are apart.
      const n = Number(total.m[1]);
      out.summary = { line: total.line, failed: Math.max(0, n - passed), passed, total: n + skipped, skipped };
    } else {
      const err = jsErrorLine(lines);
      if (err) out.cannotRun = { what: 'uvu could not load the tests', line: err };
    }
    return out;
  },
};

/**
 * node --test, read through the reporter that writes to stdout: TAP (the default into a pipe on Node
 * 20), spec (the default on later ones), junit (its counts in `<!-- tests 2 -->` comments) or dot. A
 * test file that fails to load is reported as a failed test named by the file's path (absolute on Node
 * 20, relative on later ones when run without paths), and a file without tests as a passed one:
 * neither is a test. A file whose process exits 0 before its tests report (`process.exit(0)` in a
 * test) looks exactly like a file without tests (Node 20 to 24): a passed "test" named by the file,
 * its tests lost. Several reporters writing to stdout interleave: a dot may lead a spec line (`X✔ ok`).
 *
 * The dot reporter prints a `.` for each test, suite or file that passed (skipped ones and todos too)
 * and an `X` for each that failed, then, when any failed, `Failed tests:` and each failure again
 * (a suite's as `'1 subtest failed'`, a failed todo with `# TODO`, a file that could not run named by
 * its path with `'test failed'`, no error of its own). It prints no counts and no names for what
 * passed: a test file without tests, one that exited 0 early, and a skipped test are each a `.` like
 * a passing test, and a run that found no test file prints nothing, as does one whose process exited
 * (`process.exit(0)` under `--test-isolation=none`).
 */
/** A count line: spec `ℹ tests 2`, TAP `# tests 2`, junit `<!-- tests 2 -->` (an interleaved dot reporter's `.`/`X` may lead it). */
const NODE_COUNT = String.raw`^(?:[.X]*(?:# |ℹ )|\s*<!-- )`;
const nodeCount = (word: string) => new RegExp(`${NODE_COUNT}${word} (\\d+)(?: -->)?$`);
/** A test file's path as node names it: absolute (Node 20), or relative with a script's extension (later ones). */
const NODE_FILE = String.raw`\/\S.*?|[^\s/][^\s]*\.[cm]?[jt]sx?`;
/** A result named by a test file: TAP `not ok 1 - a.test.js`, spec and dot `✖ a.test.js (30ms)`, after an interleaved dot. */
const NODE_FILE_RESULT = new RegExp(String.raw`^(?:(not ok|ok) \d+ - |[.X]*([✖✔]) )(${NODE_FILE})(?: \([\d.]+m?s\))?$`);
/** junit on stdout: `<testcase name="a.test.js" time="0.04" classname="test" failure="test failed">` (Node 24 adds `file="..."`). */
const NODE_FILE_CASE = new RegExp(String.raw`^\s*<testcase name="(${NODE_FILE})"(?: (?!failure=)[\w-]+="[^"]*")*( failure="[^"]*")?\s*/?>$`);
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
function nodeFiles(lines: readonly string[]): { files: Map<string, boolean>; firstPassed?: string; firstFailed?: { name: string; line: string } } {
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
  out.summary = { line: failed > 0 && firstTest !== undefined ? firstTest : lines.filter((l) => NODE_DOTS.test(l)).pop()!, failed, passed, total: failed + passed };
  if (file !== undefined) out.cannotRun = { what: "a test file failed outside any test (it cannot load, or it exited non-zero; node's dot reporter does not say why, --test-reporter=spec does)", line: file };
  out.passUnseen = "node's dot reporter names no test: a test file without tests, one that exited early (process.exit(0) in a test) and a skipped test each pass as a dot; --test-reporter=spec tells them apart";
  return out;
}

const node: RunnerProfile = {
  keep: anyOf(nodeCount('\\w+'), NODE_FILE_RESULT, NODE_FILE_CASE, NODE_DOTS, NODE_DOT_FAILED, NODE_DOT_ENTRY, NODE_SUBTESTS_FAILED, NODE_MISSING, NODE_FATAL, NODE_SIGNAL, NODE_HOOK_FAILED),
  needsSummary: true,
  reporterHint: 'run node --test with a reporter that writes its results to stdout (spec, tap, dot or junit; not a custom module), or write a JUnit report (--test-reporter=junit --test-reporter-destination=PATH) and give the tier that `report`',
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
    out.summary = { line: failed > 0 && failLine ? failLine.line : tests.line, failed, passed, total: Math.max(0, Number(tests.m[1]) - files), skipped: Number(num('skipped')?.m[1] ?? 0) };
    if (filePassed !== undefined && !out.noTests) {
      // Only such files: no tests ran. Beside real tests: one file's tests may have been cut short, unseen.
      if (out.summary.total === 0) out.noTests = { line: `${filePassed} (a test file that ran no test, or exited before its tests reported)` };
      else out.cannotRun = { what: 'a test file reported no test (it has none, or it exited before its tests reported, e.g. process.exit in a test)', line: filePassed };
    }
    if (fileFailed !== undefined) {
      // A file whose process crashed: node's fatal error (out of memory), else the signal that ended it.
      const fatal = firstMatch(lines, NODE_FATAL)?.line.replace(/^#\s*/, '');
      const signal = NODE_SIGNAL.exec(firstMatch(lines, NODE_SIGNAL)?.line ?? '')?.[1];
      const line = jsErrorLine(lines)?.replace(/^#\s*/, '') ?? fatal ?? (signal ? `${fileFailed} was killed by ${signal}` : `${fileFailed} failed outside any test`);
      out.cannotRun = { what: 'a test file failed outside any test', line };
    }
    // Tests cancelled with none failed: a hook that failed (its error follows "failureType: 'hookFailed'"), or a parent that ended first.
    const cancelled = num('cancelled');
    if (cancelled && Number(cancelled.m[1]) > 0) {
      const hook = firstMatch(lines, NODE_HOOK_FAILED);
      const why = hook ? firstMatch(lines, /^\s*error: /, hook.index) : undefined;
      out.failedBesides = { what: `${cancelled.m[1]} tests were cancelled${why ? ' by a failing hook' : ''}`, line: why?.line ?? cancelled.line };
    }
    return out;
  },
};

/**
 * ava 6, its default reporter: a line per test (`✔ adds`, `✘ [fail]: adds ...`), then after a `─` rule
 * the summary (`2 tests failed`, `1 hook failed`, `3 tests passed`, `1 test skipped`, `1 uncaught
 * exception`, ...). ava exits 1 for a failed test and for everything else, so only the summary tells.
 * A failed hook counts as a failure, as mocha counts one (its file's tests stay unrun). An uncaught
 * exception or unhandled rejection `in <file>` is outside any test: the file cannot load (a missing
 * module, a syntax error) or code threw after its test ended. `process.exit` in a test, ava's own
 * timeout, a worker that died and a file without tests (`No tests found in`) are no test failing.
 * `N tests passed` is printed only when nothing failed; otherwise the `✔` lines are the passes.
 */
const AVA_COUNT = /^\s*(\d+) (tests? failed|hooks? failed|tests? passed|known failures?|tests? skipped|tests? todo|unhandled rejections?|uncaught exceptions?|tests? remained pending after a timeout)\b/;
const AVA_KINDS: readonly [RegExp, string][] = [
  [/^tests? failed/, 'failed'], [/^hooks? failed/, 'hooks'], [/^tests? passed/, 'passed'], [/^known/, 'known'],
  [/^tests? skipped/, 'skipped'], [/^tests? todo/, 'todo'], [/^unhandled/, 'rejections'], [/^uncaught/, 'exceptions'], [/^tests? remained/, 'pending'],
];

/** Every line of ava's own that the reading looks for outside its summary starts with a cross (`✘ Exiting due to process.exit()`, `✘ No tests found in`). */
const AVA_CROSS = /^\s*✘ /;
const AVA_UNCAUGHT = /^\s*(Uncaught exception|Unhandled rejection) in (\S.*?)\s*$/;

/** What stopped ava outside any test, in the order it matters: the first line that says so. */
function avaOutsideTests(lines: readonly string[], pending: string | undefined): { what: string; line: string } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const m = AVA_UNCAUGHT.exec(lines[i]!);
    if (!m) continue;
    // The error is printed below, before the next test or file line.
    let end = i + 1;
    while (end < lines.length && end < i + 40 && !/^\s*(?:[✘✔─]|Uncaught exception in |Unhandled rejection in )/.test(lines[end]!)) end++;
    const why = jsErrorLine(lines.slice(i + 1, end));
    return { what: `an ${m[1]!.toLowerCase()} in ${shown(m[2]!)}, outside any test`, line: why ?? lines[i]! };
  }
  const rules: readonly [RegExp, string][] = [
    [/^\s*✘ Exiting due to process\.exit\(\) when running /, 'process.exit was called (in a test, or by the file itself), so ava stopped before the file\'s tests finished'],
    [/^\s*✘ Timed out while running tests/, 'ava\'s timeout ended the run: a test never finished (ava --timeout, 10 s by default)'],
    [/^\s*✘ .* exited due to (?:SIG[A-Z0-9]+|an error:)/, 'a test file\'s process died'],
    [/^\s*✘ Internal error/, 'ava failed internally'],
    [/^\s*✘ Error in shared worker/, 'an ava shared worker failed'],
    [/^\s*✘ .* exited with a non-zero exit code: \d+$/, 'a test file exited outside any test'],
    [/^\s*✘ \d+ tests? remaining in /, 'tests of a file never ran'],
  ];
  for (const [re, what] of rules) {
    const hit = firstMatch(lines, re);
    if (hit) return { what, line: re.source.includes('Timed out') && pending ? pending : hit.line };
  }
  return undefined;
}

/** `ava --tap`: `# tests`, `# pass`, `# skip`, `# fail`; a crash is a `not ok` of its own (a file that exited, no tests found). */
function avaTap(lines: readonly string[]): Reading {
  const out: Reading = {};
  const num = (k: string) => lastMatch(lines, new RegExp(`^# ${k} (\\d+)$`));
  const tests = num('tests');
  const crash = firstMatch(lines, /^not ok \d+ - (?:.* exited (?:with a non-zero exit code: \d+|due to SIG[A-Z0-9]+)|No tests found in |Line numbers for )|^# \d+ tests? remaining in /);
  let failed = 0;
  let firstFailed: string | undefined;
  let todo = 0;
  // An uncaught exception's own `not ok`, named by its error: `Error: Cannot find module './nope'`.
  let thrown: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = /^not ok \d+ - (.*?)(?: # (TODO|SKIP)\b.*)?$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2] === 'TODO') {
      todo++;
      continue;
    }
    if (/ exited (?:with a non-zero exit code: \d+|due to SIG[A-Z0-9]+)$|^No tests found in |^Line numbers for /.test(m[1]!)) continue;
    // Beside a crash, an uncaught exception is a `not ok` too: only ava's own test failures (an
    // assertion, or an error thrown in a test, both AssertionError) count then.
    const yaml = lines.slice(i + 1, i + 6);
    const name = yaml.find((y) => /^\s+name: /.test(y))?.trim().slice('name: '.length);
    if (!crash || name === 'AssertionError') {
      failed++;
      firstFailed ??= lines[i]!;
    } else {
      const message = yaml.find((y) => /^\s+message: \S/.test(y) && !/: [|>]-?$/.test(y))?.trim().slice('message: '.length);
      thrown ??= ANY_ERROR.test(m[1]!) ? m[1]! : name && message ? `${name}: ${message} (${m[1]!})` : lines[i]!;
    }
  }
  if (tests) {
    const passed = Number(num('pass')?.m[1] ?? 0);
    const skipped = Number(num('skip')?.m[1] ?? 0) + todo;
    // `# fail` counts the crashes too: beside one, the first failed test is the line to quote.
    const failLine = crash ? firstFailed : num('fail')?.line;
    out.summary = { line: failed > 0 && failLine ? failLine : tests.line, failed, passed, total: failed + passed + skipped, skipped };
  } else {
    // ava stopped before its summary (its TAP reporter throws on process.exit in a test and on a timeout).
    const err = jsErrorLine(lines);
    if (err) out.cannotRun = { what: 'ava stopped before its summary', line: err };
  }
  if (crash) {
    const none = /No tests found in |Line numbers for /.test(crash.line);
    if (none && (out.summary?.total ?? 0) === 0) out.noTests = { line: crash.line };
    else out.cannotRun = { what: none ? 'a test file declares no test (ava fails the run for it)' : 'a test file failed outside any test', line: (none ? undefined : thrown) ?? crash.line };
  }
  return out;
}

const ava: RunnerProfile = {
  keep: anyOf(AVA_CROSS, AVA_UNCAUGHT),
  // ava prints its summary whenever a run ends (process.exit in a test is its own failure, exit 1).
  needsSummary: true,
  read(lines) {
    if (firstMatch(lines, /^TAP version \d+$/)) return avaTap(lines);
    const out: Reading = {};
    let rule = -1;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (/^\s*─\s*$/.test(lines[i]!)) {
        rule = i;
        break;
      }
    }
    const counts = new Map<string, { n: number; line: string }>();
    for (let i = rule === -1 ? lines.length : rule + 1; i < lines.length; i++) {
      const m = AVA_COUNT.exec(lines[i]!);
      const kind = m && AVA_KINDS.find(([re]) => re.test(m[2]!))?.[1];
      if (kind) counts.set(kind, { n: Number(m[1]), line: lines[i]! });
    }
    const n = (k: string) => counts.get(k)?.n ?? 0;
    const said = counts.get('failed') ?? counts.get('hooks') ?? counts.get('passed') ?? counts.get('known') ?? counts.get('skipped') ?? counts.get('todo');
    if (said) {
      const failed = n('failed') + n('hooks');
      // `N tests passed` is left out when anything failed: the `✔` lines are the passes then (known failures among them).
      const passed = counts.has('passed') ? n('passed') + n('known') : lines.filter((l) => /^\s*✔ /.test(l)).length;
      const skipped = n('skipped') + n('todo');
      out.summary = { line: said.line, failed, passed, total: failed + passed + skipped, skipped };
    }
    const noFiles = firstMatch(lines, /^\s*✘ (?:Couldn.t find any (?:files to test|matching tests)|Based on your configuration, \d+ test files? (?:was|were) found, but did not match the filters)/);
    if (noFiles) out.noTests = { line: noFiles.line };
    const empty = firstMatch(lines, /^\s*✘ (?:No tests found in |Line numbers for .* did not match any tests)/);
    if (empty && (out.summary?.total ?? 0) === 0) out.noTests ??= { line: empty.line };
    else if (empty) out.cannotRun = { what: 'a test file declares no test (ava fails the run for it)', line: empty.line };
    const outside = avaOutsideTests(lines, counts.get('pending')?.line);
    if (outside) out.cannotRun = outside;
    else if (!out.summary && !out.noTests && !out.cannotRun) {
      // ava stopped before any test: a config it cannot use, a bad flag value (`✘ The --concurrency or -c flag must be ...`).
      const stop = firstMatch(lines, /^\s*✘ (?!\[)\S/)?.line ?? jsErrorLine(lines);
      if (stop) out.cannotRun = { what: 'ava could not start', line: stop };
    }
    return out;
  },
};

/**
 * jasmine 5 and 7 (its default console reporter): `N specs, M failures[, K pending specs]`, or `No specs
 * found` (exit 2, "Incomplete"). jasmine exits 3 for failed specs, 1 when a spec file or its config
 * cannot load (the error alone, no summary), 2 for an incomplete run (no specs, a focused `fit`), 4
 * when `process.exit` is called mid-run (nothing more is printed). A `Suite error:` (a describe body
 * that throws, an `afterAll` that fails, a file that cannot load under `--parallel`) is counted among
 * the failures though no spec failed; a failing `beforeAll` fails its specs ("Not run because a
 * beforeAll function failed"), counted as failed as jest counts them. An uncaught exception or
 * unhandled rejection while a spec runs is that spec's failure, as mocha has it.
 */
const JASMINE_SUITE_ERROR = /^Suite error: /;

const jasmine: RunnerProfile = {
  // A suite error is counted among the failures: each is told apart by its line in the details above the counts.
  keep: JASMINE_SUITE_ERROR,
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const s = lastMatch(lines, /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/);
    const suiteErrors: number[] = [];
    lines.forEach((l, i) => { if (JASMINE_SUITE_ERROR.test(l)) suiteErrors.push(i); });
    if (s) {
      const failed = Math.max(0, Number(s.m[2]) - suiteErrors.length);
      const skipped = Number(s.m[3] ?? 0);
      const total = Number(s.m[1]);
      out.summary = { line: s.line, failed, passed: Math.max(0, total - failed - skipped), total, skipped };
    }
    const none = firstMatch(lines, /^No specs found$/);
    if (none) out.noTests = { line: none.line };
    if (suiteErrors.length > 0) {
      // Its message: the line after "Message:" (`Error: teardown broke`, `Error loading /x/a.spec.js: Cannot find module './nope'`).
      const at = suiteErrors[0]!;
      const message = firstMatch(lines.slice(at + 1, at + 4), /^\s+Message:$/);
      const why = message ? nextLine(lines, at + 1 + message.index) : undefined;
      out.cannotRun = { what: 'an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load)', line: why ?? lines[at]! };
    }
    const incomplete = firstMatch(lines, /^Incomplete: (?!No specs found)/);
    if (incomplete) out.failedBesides = { what: /fit\(\) or fdescribe\(\)/.test(incomplete.line) ? 'a focused spec (fit or fdescribe) makes the run incomplete (make it it or describe again)' : 'the run is incomplete', line: incomplete.line };
    if (!s && !none) {
      const usage = firstMatch(lines, /^Unknown options?: /);
      const err = usage ? undefined : jsErrorLine(lines);
      if (usage) out.cannotRun = { what: 'a jasmine usage error', line: usage.line };
      else if (err) out.cannotRun = { what: 'jasmine could not load a spec file, a helper or its config', line: err };
    }
    return out;
  },
};

/**
 * node-tap 18 to 21 (`tap`): raw TAP when it writes to no terminal (hooks), the `base` reporter with
 * colours (`FORCE_COLOR`, `--color`); both end with `# { total: N, pass: N, fail: N, skip: N, todo: N }`,
 * which counts each file's tests (or the file itself when it has none). tap exits 1 for a failed test
 * and for everything else, and counts as failures what is no test: a file that cannot load (its plan
 * `1..0 # no tests found`, then `not ok` for the file), `test unfinished` and `child test left in
 * queue` (process.exit in a test, a crash, a promise that never settles), `timeout!` (tap's own
 * timeout, 30 s by default), a throw outside any test (`test: TAP`, `tapCaught`), a file killed by a
 * signal. Only an assertion that failed inside the files (a leaf `not ok`, not a subtest's result)
 * is a test failing. A file with no tests is a skip (`# SKIP no tests found`). tap also fails a run
 * whose tests all passed when coverage is missing or below its thresholds (100% by default).
 */
const TAP_HARNESS: readonly [RegExp, string][] = [
  [/(?:^| > )timeout!$/, 'tap\'s timeout ended a test file: a test never finished (tap --timeout, 30 s by default)'],
  [/(?:^| > )test unfinished$|^child test left in queue: /, 'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles)'],
];

interface TapFailures {
  /** Assertions that failed inside a test file: tests failing. */
  genuine: number;
  harness?: { what: string; line: string };
  /** Test files without tests (skipped by tap), and those that failed before any test (could not load). */
  empty: string[];
  failedFiles: string[];
}

const TAP_VERSION = /^TAP version \d+$/;
const TAP_SUBTEST = /^( *)# Subtest: /;
const TAP_NO_TESTS_PLAN = /^ {4}1\.\.0 # no tests found$/;
const TAP_RESULT = /^( *)(not ok|ok) \d+(?: - (.*?))?(?: # ((?:time=|SKIP|TODO)\S*.*))?$/;
/** The YAML block after a result: `---` to `...`, at any indent. */
const TAP_YAML_START = /^\s*---\s*$/;
const TAP_YAML_END = /^\s*\.\.\.\s*$/;
const TAP_SIGNAL = /^\s+signal: (SIG[A-Z0-9]+)$/;
const TAP_TEST_TAP = /^\s+test: TAP$/;
const TAP_CAUGHT = /^\s+tapCaught: /;
const TAP_NO_FILES = /^No (?:valid )?test files found\b/;
/** The base reporter's frame for a file without tests: `SKIP  file 0 OK`, then ` ~ no tests found`. */
const TAP_BASE_SKIP = /^ SKIP {2}(\S.*?) 0 OK\b/;
const TAP_BASE_NONE = /^ ~ no tests found$/;

/** Raw TAP: subtests nest by four spaces; a `# Subtest: x` is closed by the result line at its own indent. */
function tapRawFailures(lines: readonly string[]): TapFailures {
  const out: TapFailures = { genuine: 0, empty: [], failedFiles: [] };
  const open: number[] = [];
  let planNone = false;
  const harness = (h: { what: string; line: string }) => (out.harness ??= h);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const sub = TAP_SUBTEST.exec(l);
    if (sub) {
      open.push(sub[1]!.length);
      if (sub[1] === '') planNone = false;
      continue;
    }
    if (TAP_NO_TESTS_PLAN.test(l)) planNone = true;
    const r = TAP_RESULT.exec(l);
    if (!r) continue;
    const indent = r[1]!.length;
    while (open.length > 0 && open[open.length - 1]! > indent) open.pop();
    const closes = open.length > 0 && open[open.length - 1] === indent;
    if (closes) open.pop();
    const name = r[3] ?? '';
    const failed = r[2] === 'not ok' && !/^TODO/.test(r[4] ?? '');
    // The YAML block after a result (until `...` at its indent + 2).
    const yaml: string[] = [];
    if (TAP_YAML_START.test(lines[i + 1] ?? '')) for (let j = i + 2; j < lines.length && j < i + 80 && !TAP_YAML_END.test(lines[j]!); j++) yaml.push(lines[j]!);
    if (indent === 0) {
      // A test file's result (or tap's own timeout of a file).
      if (planNone) (failed ? out.failedFiles : out.empty).push(name);
      const signal = yaml.map((y) => TAP_SIGNAL.exec(y)?.[1]).find((x) => x !== undefined);
      if (failed && signal && signal !== 'SIGALRM') harness({ what: `a test file was killed by ${signal}`, line: l });
    }
    if (!failed) continue;
    const known = TAP_HARNESS.find(([re]) => re.test(name));
    if (known) harness({ what: known[1], line: l });
    else if (indent > 0 && yaml.some((y) => TAP_TEST_TAP.test(y)) && yaml.some((y) => TAP_CAUGHT.test(y))) harness({ what: 'an error thrown outside any test', line: l });
    else if (indent > 0 && !closes) out.genuine++;
  }
  return out;
}

/** The `base` reporter: after its last frame (`TEST COMPLETE`), a `✖ path > name` line per failure. */
function tapBaseFailures(lines: readonly string[]): TapFailures {
  const out: TapFailures = { genuine: 0, empty: [], failedFiles: [] };
  let from = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/TEST COMPLETE/.test(lines[i]!)) {
      from = i + 1;
      break;
    }
  }
  // A file whose frame said `SKIP file 0 OK` and `~ no tests found`: empty, or, when its last word is `FAIL file 0`, it could not load.
  const none = new Set<string>();
  lines.forEach((l, i) => {
    const skip = TAP_BASE_NONE.test(l) ? TAP_BASE_SKIP.exec(lines[i - 1] ?? '') : null;
    if (skip) none.add(skip[1]!);
  });
  const failedNone = new Set(lines.slice(from).map((l) => / FAIL {2}(\S.*?) 0 [\d.]+m?s$/.exec(l)?.[1]).filter((f): f is string => f !== undefined && none.has(f)));
  for (const f of none) (failedNone.has(f) ? out.failedFiles : out.empty).push(f);
  for (const l of lines.slice(from)) {
    const signal = /^\s+✖\s+(SIG[A-Z0-9]+)$/.exec(l);
    if (signal && signal[1] !== 'SIGALRM') out.harness ??= { what: `a test file was killed by ${signal[1]}`, line: l };
    const f = /^✖ (.+?)(?: \S+:\d+:\d+)?$/.exec(l);
    if (!f) continue;
    const known = TAP_HARNESS.find(([re]) => re.test(f[1]!));
    if (known) out.harness ??= { what: known[1], line: l };
    else if (/^TAP > /.test(f[1]!)) out.harness ??= { what: 'an error thrown outside any test', line: l };
    else out.genuine++;
  }
  return out;
}

const tap: RunnerProfile = {
  // Raw TAP is read by its nesting: every subtest, result and plan line, and the YAML keys read after a result.
  keep: anyOf(TAP_VERSION, TAP_SUBTEST, TAP_RESULT, TAP_NO_TESTS_PLAN, TAP_YAML_START, TAP_YAML_END, TAP_SIGNAL, TAP_TEST_TAP, TAP_CAUGHT, TAP_NO_FILES, TAP_BASE_SKIP, TAP_BASE_NONE),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const noFiles = firstMatch(lines, TAP_NO_FILES);
    if (noFiles) out.noTests = { line: noFiles.line };
    const s = lastMatch(lines, /^# \{ total: (\d+)(.*)\}$/);
    if (!s) {
      const usage = firstMatch(lines, /^Error: (?:Unknown option|Invalid value) /);
      const err = usage ? undefined : jsErrorLine(lines);
      if (usage) out.cannotRun = { what: 'a tap usage error', line: usage.line };
      else if (err && !noFiles) out.cannotRun = { what: 'tap could not run the tests', line: err };
      return out;
    }
    const field = (k: string) => Number(new RegExp(`\\b${k}: (\\d+)`).exec(s.m[2]!)?.[1] ?? 0);
    const raw = firstMatch(lines, TAP_VERSION) !== undefined;
    const f = raw ? tapRawFailures(lines) : tapBaseFailures(lines);
    const fail = field('fail');
    const failed = Math.min(f.genuine, fail);
    // A file without tests, or one that failed before any, is counted as a test of its own.
    const files = f.empty.length + f.failedFiles.length;
    const total = Math.max(0, Number(s.m[1]) - files);
    const skipped = Math.max(0, field('skip') + field('todo') - f.empty.length);
    out.summary = { line: s.line, failed, passed: field('pass'), total, skipped };
    if (total === 0 && f.empty.length > 0 && !noFiles) out.noTests = { line: lines.find((l) => /^ok \d+ - .* # SKIP no tests found$/.test(l)) ?? s.line };
    if (f.failedFiles.length > 0) out.cannotRun = { what: 'a test file failed before any test (it cannot load, or it threw before its tests)', line: jsErrorLine(lines) ?? `${f.failedFiles[0]} failed before any test` };
    else if (f.harness) out.cannotRun = { ...f.harness, line: f.harness.what.startsWith('a test file ended') ? (jsErrorLine(lines) ?? f.harness.line) : f.harness.line };
    else if (fail > failed) out.cannotRun = { what: 'tap counts a failure that is no failed assertion (a test file that could not run?)', line: jsErrorLine(lines) ?? s.line };
    // Coverage: tap fails a run that covers nothing, or less than its thresholds (100% by default).
    const noCoverage = firstMatch(lines, /^# No coverage generated$/);
    const incomplete = firstMatch(lines, /^# ERROR: incomplete \w+ coverage/) ?? firstMatch(lines, /^All files\s*\|(?!(?:\s*100\s*\|){4})/);
    if (noCoverage) out.failedBesides = { what: 'no coverage was generated (tap fails such a run unless --allow-empty-coverage or --disable-coverage)', line: noCoverage.line };
    else if (incomplete) out.failedBesides = { what: 'coverage is below its threshold (tap wants 100% unless --allow-incomplete-coverage)', line: incomplete.line };
    return out;
  },
};

/**
 * tape (substack's, ljharb's): TAP on stdout, ending with `# tests N`, `# pass  N`, `# fail  N` (two
 * spaces) and `# ok` when none failed; exit 1 when any assertion failed. Each failed assertion is a
 * `not ok N name` line; so is a plan that does not match (`plan != count`), an async test that rejects,
 * and a test still open when the process exits (`test exited without ending: name`): tape counts them
 * as failed tests, and so do we, save one: a test that called `process.exit` (its stack, in the YAML
 * below, passes through `process.exit`), which also ends every test after it. tape catches no error
 * thrown by a test: node's own crash output ends the run, with no summary. A file that cannot load
 * (a module not found, a syntax error, a throw at its top level) crashes before any test starts, while
 * an error thrown once a test runs (`# name` printed) is that test failing. No test files matched, a
 * file without tests and every test skipped all print `# tests 0` and exit 0. Through a reporter pipe
 * the output is the reporter's: faucet's redrawn lines reduce to the same counts, tap-spec prints
 * `total: N`, `passing: N`, `failing: N` or `✖ No tests found`.
 */
const TAPE_VERSION = /^TAP version \d+$/;
const tapeCount = (word: string) => new RegExp(`^# ${word}\\s+(\\d+)$`);
const TAPE_COUNT = /^# (?:tests|pass|fail|todo)\s+\d+$/;
const TAPE_NOT_OK = /^\s*not ok \d+ (.*?)(?: # (TODO|SKIP)\b.*)?$/;
const TAPE_OK = /^ok \d+ /;
/** A test's header: `# name`, any comment that is not a count or tape's `# ok`. */
const TAPE_HEADER = /^# (?!(?:tests|pass|fail|todo)\s+\d+$|ok$)\S/;
/** tape's failure for a test still open at the process's exit, and the stack frame that says process.exit ended it. */
const TAPE_UNENDED = /^\s*(?:not ok \d+|✖) test exited without ending: /;
const TAPE_EXIT_FRAME = /^\s+at process\.exit \(/;
/** tap-spec's counts, and what it prints for no TAP tests at all. */
const TAP_SPEC_COUNT = /^ {2}(total|passing|failing):\s+(\d+)$/;
const TAP_SPEC_NONE = /^\s*✖ No tests found$/;
/** tap-spec's failure, under its test's name (listed again, further in, under `Failed Tests:`). */
const TAP_SPEC_FAILED = /^ {4}✖ (.*)$/;

/** Whether the not-ok line at `index` is a test that process.exit ended (the frame in its YAML block, before the next result). */
function tapeExited(lines: readonly string[], index: number): boolean {
  if (!TAPE_UNENDED.test(lines[index]!)) return false;
  for (let i = index + 1; i < lines.length && i < index + 40; i++) {
    if (TAPE_EXIT_FRAME.test(lines[i]!)) return true;
    if (/^\s*(?:not )?ok \d+ |^# |^\s+[✔✖] /.test(lines[i]!)) return false;
  }
  return false;
}

/** The first line of node's report of an uncaught error: at the start of a line (TAP's YAML quotes a stack indented). */
const NODE_CRASH = /^(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;

/** A node crash with no summary: the error line, and whether it came from loading code (a file, a module) rather than from a test that ran. */
function tapeCrash(lines: readonly string[]): { line: string; loading: boolean } | undefined {
  let err: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!NODE_CRASH.test(lines[i]!)) continue;
    err ??= lines[i]!;
    // Thrown by node's module loader: its first stack frame is `node:internal/modules/...`.
    let frame = i + 1;
    while (frame < lines.length && frame <= i + 20 && !/^\s+at /.test(lines[frame]!)) frame++;
    if (frame < lines.length && frame <= i + 20 && /^\s+at (?:.*\()?node:internal\/modules\//.test(lines[frame]!)) return { line: lines[i]!, loading: true };
  }
  if (err === undefined) return undefined;
  // Tests start only once every file has loaded: no test header, no test ran.
  const started = lines.some((l) => TAPE_HEADER.test(l) || /^\s+[✔✖] \S/.test(l));
  return { line: err, loading: !started };
}

/** The `not ok` lines (tap-spec's `✖` ones) that are failed tests (not TODO or SKIP), and those that process.exit ended. */
function tapeFailures(lines: readonly string[]): { failed: number; firstFailed?: string; exited: number; firstExited?: string } {
  const out: { failed: number; firstFailed?: string; exited: number; firstExited?: string } = { failed: 0, exited: 0 };
  lines.forEach((l, i) => {
    const m = TAPE_NOT_OK.exec(l) ?? TAP_SPEC_FAILED.exec(l);
    if (!m || m[2] !== undefined) return;
    // Once a test called process.exit, tape reports every test still to come as one that never ended.
    if (tapeExited(lines, i) || (out.exited > 0 && TAPE_UNENDED.test(l))) {
      out.exited++;
      out.firstExited ??= l;
    } else {
      out.failed++;
      out.firstFailed ??= l;
    }
  });
  return out;
}

const TAPE_EXITED = 'a test called process.exit, which ended it and every test after it (tape counts them as tests that never ended)';

const tape: RunnerProfile = {
  // Counts at the end, and from anywhere before: each failure (and the process.exit frame below it), each test's header (a crash's test).
  keep: anyOf(TAPE_VERSION, TAPE_COUNT, TAPE_NOT_OK, TAPE_EXIT_FRAME, TAPE_HEADER, TAP_SPEC_COUNT, TAP_SPEC_NONE, TAP_SPEC_FAILED),
  needsSummary: true,
  reporterHint: "run tape without a reporter pipe, or pipe its TAP into tap-spec or faucet (whose counts gate-ladder reads)",
  cutShort: { cause: 'a test file that called process.exit, or a reporter pipe that prints no counts', next: 'run tape without a reporter pipe, or pipe its TAP into tap-spec or faucet' },
  read(lines) {
    const out: Reading = {};
    const tests = lastMatch(lines, tapeCount('tests'));
    const f = tapeFailures(lines);
    if (f.firstExited !== undefined) out.cannotRun = { what: TAPE_EXITED, line: f.firstExited };
    if (tests) {
      const fail = lastMatch(lines, tapeCount('fail'));
      const todo = Number(lastMatch(lines, tapeCount('todo'))?.m[1] ?? 0);
      const failed = Math.max(0, Number(fail?.m[1] ?? 0) - f.exited);
      // The line quoted for a failure names the first test that failed (tape counts the tests a never-ending one kept from starting too).
      out.summary = { line: failed > 0 ? (f.firstFailed ?? fail?.line ?? tests.line) : tests.line, failed, passed: Number(lastMatch(lines, tapeCount('pass'))?.m[1] ?? 0), total: Number(tests.m[1]), skipped: todo };
      return out;
    }
    const spec = new Map<string, { line: string; n: number }>();
    for (const l of lines) {
      const m = TAP_SPEC_COUNT.exec(l);
      if (m) spec.set(m[1]!, { line: l, n: Number(m[2]) });
    }
    if (spec.has('total')) {
      const failed = Math.max(0, (spec.get('failing')?.n ?? 0) - f.exited);
      out.summary = { line: failed > 0 ? (f.firstFailed ?? spec.get('failing')!.line) : spec.get('total')!.line, failed, passed: spec.get('passing')?.n ?? 0, total: spec.get('total')!.n };
      return out;
    }
    // No summary: node's crash ended the run, or the output was cut (process.exit can lose what a pipe had not taken yet).
    const crash = tapeCrash(lines);
    if (crash?.loading) {
      out.cannotRun = { what: 'tape could not load a test file (or it threw before any test ran)', line: crash.line };
      return out;
    }
    if (f.failed > 0 || crash) {
      // A failed assertion printed, or an uncaught error once a test ran: that test failed (tape stopped there).
      const passed = lines.filter((l) => TAPE_OK.test(l) || /^\s+✔ \S/.test(l)).length;
      const failed = f.failed + (crash ? 1 : 0);
      out.summary = { line: f.firstFailed ?? crash!.line, failed, passed, total: passed + failed };
      return out;
    }
    const none = firstMatch(lines, TAP_SPEC_NONE);
    if (none && !out.cannotRun) out.noTests = { line: none.line };
    return out;
  },
};

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
      out.summary = { line: (counts.find((l) => /failed/.test(l)) ?? counts[counts.length - 1]!).trim(), failed, passed, total: failed + passed + count(t, 'skipped') + count(t, 'did not run'), skipped: count(t, 'skipped') + count(t, 'did not run') };
    }
    return out;
  },
};

const PYTEST_SUMMARY = /^=*\s*((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|subtests? \w+)(?:, )?)+|no tests ran)\b.* in [\d.]+s/;

const PYTEST_MISSING_FIXTURE = /^E\s+fixture '[^']+' not found$/;
const PYTEST_HEADER = /^=+ test session starts =+$/;
/** pytest-xdist, when a worker process dies in a test (os._exit, a segfault, out of memory): it counts that test as failed. */
const XDIST_CRASH = /^worker '[^']+' crashed while running '[^']+'/;
/** pytest-cov's `--cov-fail-under` not met: `FAIL Required test coverage of 100% not reached. Total coverage: 50.00%`. */
const PYTEST_COV_UNDER = /^FAIL Required test coverage of [\d.]+% not reached\b/;
/** pytest-timeout's thread method: it prints the stacks under this banner and ends the whole process with exit 1. */
const PYTEST_TIMEOUT_BANNER = /^\+{10,} Timeout \+{10,}$/;

/**
 * pytest prints its summary line at `-q` and louder, and none at `-qq` and quieter or with `-p
 * no:terminal` (which prints nothing at all); a config's addopts may set either. A run that ended
 * ends its output with a newline (its progress line `[100%]`, or `.` under `-s`); one cut short (a
 * test that called `os._exit(0)`: exit 0) stops mid-line or, when the header was printed, without the
 * summary that follows the header at the default verbosity. Empty output tells nothing.
 */
function pytestNeedsSummary(lines: readonly string[]): boolean {
  if (firstMatch(lines, PYTEST_HEADER)) return true;
  const last = lines[lines.length - 1];
  return last !== undefined && last.trim() !== '';
}

/**
 * The test pytest-timeout's thread method stopped in: the last frame of a stack it printed that is in a
 * test module (`File "/x/tests/test_slow.py", line 3, in test_slow`), else the banner.
 */
function pytestTimedOut(lines: readonly string[], banner: number): string {
  for (let i = banner - 1; i >= 0 && !PYTEST_TIMEOUT_BANNER.test(lines[i]!); i--) {
    if (/^\s*File "(?:.*\/)?(?:test_[^/"]*|[^/"]*_test)\.py", line \d+, in \w/.test(lines[i]!)) return lines[i]!.trim();
  }
  return lines[banner]!;
}

const pytest: RunnerProfile = {
  keep: anyOf(PYTEST_MISSING_FIXTURE, PYTEST_HEADER, XDIST_CRASH),
  exitProves: true,
  needsSummary: pytestNeedsSummary,
  cutShort: { cause: 'a test that called os._exit', next: 'run pytest -v to see the test that was running when it stopped (os._exit in a test, or a plugin that ends the process), and mend it' },
  read(lines) {
    const out: Reading = {};
    const s = lastMatch(lines, PYTEST_SUMMARY);
    const missingFixtures = lines.filter((l) => PYTEST_MISSING_FIXTURE.test(l));
    if (s) {
      const t = s.m[1]!;
      const failed = count(t, 'failed');
      const errors = count(t, 'errors?');
      const passed = count(t, 'passed');
      // A test that asks for a fixture no one defines (a plugin that is not installed: `mocker`) never ran: not a failure.
      const unset = Math.min(errors, missingFixtures.length);
      out.summary = { line: s.line.replace(/^=+\s*|\s*=+$/g, ''), failed: failed + errors - unset, passed, total: failed + errors - unset + passed + count(t, 'skipped') + count(t, 'xfailed') + count(t, 'xpassed'), skipped: count(t, 'skipped') };
      if (t === 'no tests ran') out.noTests = { line: out.summary.line };
    } else {
      // `-qq` prints no summary line, but its short test summary still names each failed test.
      const failedTests = lines.filter((l) => /^FAILED \S+::\S/.test(l));
      if (failedTests.length > 0) out.summary = { line: failedTests[0]!, failed: failedTests.length, passed: 0, total: failedTests.length };
      // pytest-timeout's thread method ends the process in the test that ran too long (exit 1): that test failed.
      const banners = lines.flatMap((l, i) => (PYTEST_TIMEOUT_BANNER.test(l) ? [i] : []));
      if (!out.summary && banners.length >= 2) out.summary = { line: `pytest-timeout stopped the run in ${pytestTimedOut(lines, banners[banners.length - 1]!)}`, failed: 1, passed: 0, total: 1 };
    }
    // A worker that died is counted as a failed test, but no assertion failed: the process did (a crash is no verdict on the test).
    const crashed = lines.filter((l) => XDIST_CRASH.test(l));
    if (crashed.length > 0 && out.summary) {
      out.summary = { ...out.summary, failed: Math.max(0, out.summary.failed - crashed.length) };
      if (out.summary.failed === 0) out.cannotRun = { what: 'a pytest-xdist worker died while running a test (os._exit, a segfault, out of memory), so that test gave no verdict (run it alone, without -n, to see why)', line: crashed[0]! };
    }
    const cov = s ? firstMatch(lines, PYTEST_COV_UNDER) : undefined;
    if (cov) out.failedBesides = { what: "coverage is below its threshold (pytest-cov's --cov-fail-under)", line: cov.line, next: 'cover the new code with a test, or give coverage a tier of its own' };
    if (missingFixtures.length > 0) out.cannotRun = { what: 'a test asks for a fixture that does not exist (a pytest plugin that is not installed?)', line: missingFixtures[0]!.replace(/^E\s+/, '') };
    const collection = firstMatch(lines, /^!+ Interrupted: \d+ errors? during collection/);
    if (collection) {
      // The exception (`E   ModuleNotFoundError: ...`), else the short summary's reason (`ERROR test_a.py - Failed: 'slow' not found in `markers``).
      const why = firstMatch(lines, /^E\s+\w+Error: /)?.line.replace(/^E\s+/, '') ?? firstMatch(lines, /^ERROR \S+ - \S/)?.line;
      // The file it could not collect: `ERROR tests/test_a.py` in the short summary, else its `ERROR collecting` banner.
      const file = (lastMatch(lines, /^ERROR (\S+\.py)\b/) ?? lastMatch(lines, /^_+ ERROR collecting (\S+) _+$/))?.m[1];
      out.cannotRun = { what: file ? `pytest could not collect the tests (${file})` : 'pytest could not collect the tests', line: why ?? collection.line };
    }
    // Exit 4: a bad option, or a conftest.py that cannot import; pytest then prints no summary (a test's own output may look alike).
    const usage = s ? undefined : firstMatch(lines, /^(?:\S+\.py|pytest|py\.test): error: /);
    if (usage) out.cannotRun = { what: 'a pytest usage error', line: usage.line };
    // `python3 -m pytest` where that python has no pytest (a virtualenv not active): python's exit 1, before pytest ran.
    const absent = s ? undefined : firstMatch(lines, /^\S.*: No module named pytest$/);
    if (absent) out.cannotRun = { what: 'this python cannot import pytest, so no test ran (push where the virtualenv that has pytest is active, or install pytest)', line: absent.line };
    const conftest = s ? undefined : firstMatch(lines, /^ImportError while loading conftest /);
    if (conftest) out.cannotRun = { what: 'pytest could not load a conftest.py', line: firstMatch(lines, /^E\s+\w+(?:Error|Exception)\b/, conftest.index)?.line.replace(/^E\s+/, '') ?? conftest.line };
    return out;
  },
};

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

/**
 * A cargo test binary that failed without a `test result:` line of its own: a `harness = false` test
 * whose main panicked, a test that aborted the process (SIGABRT, a stack overflow), a build script that
 * panicked. No test is known to have failed: the harness broke. The line that says why: the panic, the
 * signal, or cargo's own error.
 */
const CARGO_RESULT = /^test result: /;
const CARGO_BINARY = /^\s+(?:Running|Doc-tests) \S/;
/** Every cargo error line read starts so (`error: could not compile`, `error[E0308]:`, `error: test failed, to rerun pass`). */
const CARGO_ERROR = /^error/;
const CARGO_PANIC = /^thread '[^']*'(?: \(\d+\))? (?:panicked at|has overflowed)/;
const CARGO_DIED = /process didn't exit successfully: .*\((?:signal|exit status)/;

function cargoBinaryOutsideTests(lines: readonly string[]): { what: string; line: string } | undefined {
  const build = firstMatch(lines, /^error: failed to run custom build command for /);
  if (build) return { what: 'a build script failed', line: build.line };
  let start = -1;
  let result = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (CARGO_BINARY.test(l)) {
      start = i;
      result = false;
    } else if (CARGO_RESULT.test(l)) result = true;
    else if (start !== -1 && !result && /^error: (?:test|doctest) failed, to rerun pass /.test(l)) {
      const section = lines.slice(start, i + 4);
      const why = section.find((x) => CARGO_PANIC.test(x)) ?? section.find((x) => CARGO_DIED.test(x));
      return { what: 'a test binary stopped before its test result', line: why ?? `${l} (${lines[start]!.trim()} printed no test result)` };
    }
  }
  return undefined;
}

const cargo: RunnerProfile = {
  keep: anyOf(CARGO_RESULT, CARGO_BINARY, CARGO_ERROR, CARGO_PANIC, CARGO_DIED),
  read(lines) {
    const out: Reading = {};
    const results = lines.filter((l) => /^test result: (?:ok|FAILED)\. \d+ passed; \d+ failed/.test(l));
    if (results.length > 0) {
      let failed = 0;
      let passed = 0;
      let ignored = 0;
      for (const r of results) {
        failed += count(r, 'failed');
        passed += count(r, 'passed');
        ignored += count(r, 'ignored');
      }
      out.summary = { line: results.find((r) => r.includes('FAILED')) ?? results[results.length - 1]!, failed, passed, total: failed + passed + ignored, skipped: ignored };
    }
    const compile = firstMatch(lines, /^error: could not compile/);
    if (compile) out.cannotRun = { what: 'a compile error', line: firstMatch(lines, /^error(?:\[E\d+\])?: (?!could not compile)/)?.line ?? compile.line };
    const usage = firstMatch(lines, /^error: no (?:test|bin|example|bench) target named|^error: could not find `Cargo\.toml`/);
    if (usage) out.cannotRun = { what: 'a cargo usage error', line: usage.line };
    const outside = cargoBinaryOutsideTests(lines);
    if (outside && !out.cannotRun) out.cannotRun = outside;
    return out;
  },
};

const nextest: RunnerProfile = {
  exitProves: true,
  read(lines) {
    const out: Reading = {};
    const s = lastMatch(lines, /^\s*Summary \[.*\] (\d+) tests? run: (.*)$/);
    if (s) out.summary = { line: s.line.trim(), failed: count(s.m[2]!, 'failed') + count(s.m[2]!, 'timed out'), passed: count(s.m[2]!, 'passed'), total: Number(s.m[1]) };
    const none = firstMatch(lines, /error: no tests to run/);
    if (none) out.noTests = { line: none.line };
    const compile = firstMatch(lines, /^error: could not compile/);
    if (compile) out.cannotRun = { what: 'a compile error', line: firstMatch(lines, /^error(?:\[E\d+\])?: (?!could not compile)/)?.line ?? compile.line };
    return out;
  },
};

/**
 * python -m unittest (its TextTestRunner): `Ran N tests in Xs`, then `OK`, `FAILED (failures=1,
 * errors=1, skipped=2, expected failures=1, unexpected successes=1)` or, on Python 3.12 and later,
 * `NO TESTS RAN`. A test module that cannot import (or whose load_tests raises, or a test name that
 * does not exist) is counted as a test that errored: `ERROR: test_a (unittest.loader._FailedTest...)`.
 * Those are not tests: they make the run an error. An exception inside a test, its setUp, or a
 * setUpClass / setUpModule fixture is the test failing on the patch (as pytest's `1 error`); so is an
 * unexpected success (the run is FAILED). Read off Python 3.10 to 3.13.
 */
const UNITTEST_LOAD_FAILURE = /^ERROR: \S+ \(unittest\.loader\.(?:_FailedTest|ModuleImportFailure|LoadTestsFailure)\b/;
/** The exception a Python traceback ends with: `ModuleNotFoundError: No module named 'nope'`, `SyntaxError: ...`. */
const PY_EXCEPTION = /^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)(?::|$)/;

/** The last exception line of the traceback that starts at `from` (before the next block's `====`/`----` rule). */
function pythonException(lines: readonly string[], from: number): string | undefined {
  let found: string | undefined;
  for (let i = from + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(?:=|-){20,}$/.test(l) && found !== undefined) break;
    if (PY_EXCEPTION.test(l)) found = l;
  }
  return found;
}

const unittest: RunnerProfile = {
  keep: UNITTEST_LOAD_FAILURE,
  failedExits: [5],
  // unittest prints `Ran N tests` at the end of every run, quiet or not: an exit 0 without it stopped early (os._exit).
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    let ranAt = -1;
    for (let i = lines.length - 1; i >= 0; i--) if (/^Ran \d+ tests? in [\d.]+s$/.test(lines[i]!)) { ranAt = i; break; }
    const loads: number[] = [];
    lines.forEach((l, i) => { if (UNITTEST_LOAD_FAILURE.test(l)) loads.push(i); });
    if (loads.length > 0) {
      out.cannotRun = { what: 'unittest could not load a test module', line: pythonException(lines, loads[0]!) ?? lines[loads[0]!]! };
    }
    if (ranAt !== -1) {
      const ranLine = lines[ranAt]!;
      const status = firstMatch(lines, /^(?:OK|FAILED|NO TESTS RAN)\b/, ranAt + 1);
      const detail = status ? (/\((.*)\)\s*$/.exec(status.line)?.[1] ?? '') : '';
      const n = (key: string) => Number(new RegExp(`(?:^|, )${key}=(\\d+)`).exec(detail)?.[1] ?? 0);
      const failures = n('failures');
      const errors = n('errors');
      const skipped = n('skipped');
      const expected = n('expected failures');
      const unexpected = n('unexpected successes');
      const ran = Math.max(0, Number(/^Ran (\d+)/.exec(ranLine)![1]) - loads.length);
      const failed = Math.max(0, failures + errors + unexpected - loads.length);
      // A setUpClass that failed runs no test but is counted; tests that were all skipped still exist.
      const total = Math.max(ran === 0 ? skipped : ran, failed);
      const passed = Math.max(0, ran - failed - skipped - expected);
      out.summary = { line: failed > 0 && status ? status.line : ranLine, failed, passed, total, skipped };
      if (total === 0 && loads.length === 0) out.noTests = { line: ranLine };
    } else if (!out.cannotRun) {
      // No summary: unittest stopped before running (a start folder that cannot be imported, a bad option).
      const usage = firstMatch(lines, /^\S*python[\d.]* -m unittest(?: discover)?: error: /);
      const crash = firstMatch(lines, /^Traceback \(most recent call last\):/);
      if (usage) out.cannotRun = { what: 'a unittest usage error', line: usage.line };
      else if (crash) out.cannotRun = { what: 'unittest could not start', line: pythonException(lines, crash.index) ?? crash.line };
    }
    return out;
  },
};

export const PROFILES: Readonly<Record<RunnerName, RunnerProfile>> = { jest, vitest, mocha, uvu, node, ava, jasmine, tap, tape, playwright, pytest, go, cargo, nextest, unittest };

/** Whether a line of a gate's raw output (colours and progress redraws in it) is one the runner's reading needs kept (RunnerProfile.keep). */
export function keepFor(runner: RunnerName | undefined, other?: RegExp): ((line: string) => boolean) | undefined {
  const profile = runner === undefined ? undefined : PROFILES[runner];
  const re = profile ? profile.keep : other;
  const next = profile?.keepNext;
  if (!re && !next) return undefined;
  // Lines left, after a `keepNext` line, in which its reason is looked for (as nextLine does): one keeper per gate, fed its lines in order.
  // The blank lines before the reason are kept too, so a reason further down than nextLine looks is not taken from whatever follows.
  let window = 0;
  return (raw) => {
    const line = outputLines(raw)[0]!;
    let kept = re?.test(line) === true;
    if (window > 0) {
      window--;
      kept = true;
      if (line.trim() !== '') window = 0;
    }
    if (next?.test(line)) {
      window = 5;
      kept = true;
    }
    return kept;
  };
}

/** A package manager's or the shell's own failure: the tier's command could not start its tests at all. */
export interface ManagerFailure {
  /** What failed, e.g. `npm: missing script "test:quick"`. */
  what: string;
  line: string;
}

const MANAGER_FAILURES: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^npm (?:error|ERR!) Missing script: "?([^"\s]+)"?/, (m) => `npm: missing script "${m[1]}"`],
  [/^npm (?:error|ERR!) enoent Could not read package\.json/, () => 'npm: no package.json'],
  [/^npm (?:error|ERR!) (?:npx canceled due to missing packages|could not determine executable to run)/, () => 'npx: the command is not installed'],
  // npm's banner before a script it runs: npm init's placeholder (in a workspace, where package.json here does not say it).
  [/^> echo (["']?)Error: no test specified\1 && exit 1$/, () => "npm: a test script is npm init's placeholder, which runs no test; put the test command in that package's \"test\" script"],
  [/ERR_PNPM_NO_SCRIPT\s+Missing script: (\S+)/, (m) => `pnpm: missing script "${m[1]}"`],
  [/ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\s+Command "([^"]+)" not found/, (m) => `pnpm: no script or command "${m[1]}"`],
  [/ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND/, () => 'pnpm: no package.json'],
  [/^error Command "([^"]+)" not found\./, (m) => `yarn: no script or command "${m[1]}"`],
  [/^error Couldn't find a package\.json file in/, () => 'yarn: no package.json'],
  [/^Usage Error: Couldn't find a script named "([^"]+)"/, (m) => `yarn: missing script "${m[1]}"`],
  [/^error: Script not found "([^"]+)"/, (m) => `bun: missing script "${m[1]}"`],
];

/**
 * A package manager's failure (missing script, no package.json), a command the shell could not find
 * (one of `words`, the command's and its scripts' words), or a node entry point that does not exist.
 */
export function managerFailure(lines: readonly string[], words: ReadonlySet<string>): ManagerFailure | undefined {
  for (const l of lines) {
    for (const [re, what] of MANAGER_FAILURES) {
      const m = re.exec(l);
      if (m) return { what: what(m), line: l };
    }
  }
  for (const l of lines) {
    const m = /^(?:\/bin\/)?sh: (?:\d+: )?(?:line \d+: )?([^:\s]+): (?:command )?not found/.exec(l);
    if (m && words.has(m[1]!.slice(m[1]!.lastIndexOf('/') + 1))) return { what: `command not found: ${m[1]}`, line: l };
  }
  // node's own "Cannot find module" for the script it was asked to run: nothing required it.
  const stack = lines.findIndex((l) => /^\s*requireStack: \[\]/.test(l));
  if (stack !== -1) {
    for (let i = stack; i >= 0 && i > stack - 12; i--) {
      const m = /^Error: Cannot find module '([^']+)'/.exec(lines[i]!);
      if (m) return { what: `the script to run does not exist: ${m[1]}`, line: lines[i]! };
    }
  }
  return undefined;
}
