/** tap: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, firstMatch, jsErrorLine, lastMatch, type Reading, type RunnerProfile, tapFailures } from '../read.js';
import { defineRunner } from '../record.js';

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
  [/(?:^| > )timeout!$/, "tap's timeout ended a test file: a test never finished (tap --timeout, 30 s by default)"],
  [
    /(?:^| > )test unfinished$|^child test left in queue: /,
    'a test file ended while a test was unfinished (process.exit in a test, a crash, or a promise that never settles)',
  ],
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
    if (TAP_YAML_START.test(lines[i + 1] ?? ''))
      for (let j = i + 2; j < lines.length && j < i + 80 && !TAP_YAML_END.test(lines[j]!); j++) yaml.push(lines[j]!);
    if (indent === 0) {
      // A test file's result (or tap's own timeout of a file).
      if (planNone) (failed ? out.failedFiles : out.empty).push(name);
      const signal = yaml.map((y) => TAP_SIGNAL.exec(y)?.[1]).find((x) => x !== undefined);
      if (failed && signal && signal !== 'SIGALRM') harness({ what: `a test file was killed by ${signal}`, line: l });
    }
    if (!failed) continue;
    const known = TAP_HARNESS.find(([re]) => re.test(name));
    if (known) harness({ what: known[1], line: l });
    else if (indent > 0 && yaml.some((y) => TAP_TEST_TAP.test(y)) && yaml.some((y) => TAP_CAUGHT.test(y)))
      harness({ what: 'an error thrown outside any test', line: l });
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
  const failedNone = new Set(
    lines
      .slice(from)
      .map((l) => / FAIL {2}(\S.*?) 0 [\d.]+m?s$/.exec(l)?.[1])
      .filter((f): f is string => f !== undefined && none.has(f)),
  );
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
  // Its raw TAP (into a pipe): each failed assertion under its subtests (the file's own subtest left out), with its `at:` fileName and lineNumber.
  failures: (lines) => (firstMatch(lines, TAP_VERSION) ? tapFailures(lines, { dropFile: true }) : []),
  // Raw TAP is read by its nesting: every subtest, result and plan line, and the YAML keys read after a result.
  keep: anyOf(
    TAP_VERSION,
    TAP_SUBTEST,
    TAP_RESULT,
    TAP_NO_TESTS_PLAN,
    TAP_YAML_START,
    TAP_YAML_END,
    TAP_SIGNAL,
    TAP_TEST_TAP,
    TAP_CAUGHT,
    TAP_NO_FILES,
    TAP_BASE_SKIP,
    TAP_BASE_NONE,
  ),
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
    if (total === 0 && f.empty.length > 0 && !noFiles)
      out.noTests = { line: lines.find((l) => /^ok \d+ - .* # SKIP no tests found$/.test(l)) ?? s.line };
    if (f.failedFiles.length > 0)
      out.cannotRun = {
        what: 'a test file failed before any test (it cannot load, or it threw before its tests)',
        line: jsErrorLine(lines) ?? `${f.failedFiles[0]} failed before any test`,
      };
    else if (f.harness)
      out.cannotRun = {
        ...f.harness,
        line: f.harness.what.startsWith('a test file ended') ? (jsErrorLine(lines) ?? f.harness.line) : f.harness.line,
      };
    else if (fail > failed)
      out.cannotRun = {
        what: 'tap counts a failure that is no failed assertion (a test file that could not run?)',
        line: jsErrorLine(lines) ?? s.line,
      };
    // Coverage: tap fails a run that covers nothing, or less than its thresholds (100% by default).
    const noCoverage = firstMatch(lines, /^# No coverage generated$/);
    const incomplete = firstMatch(lines, /^# ERROR: incomplete \w+ coverage/) ?? firstMatch(lines, /^All files\s*\|(?!(?:\s*100\s*\|){4})/);
    if (noCoverage)
      out.failedBesides = {
        what: 'no coverage was generated (tap fails such a run unless --allow-empty-coverage or --disable-coverage)',
        line: noCoverage.line,
      };
    else if (incomplete)
      out.failedBesides = {
        what: 'coverage is below its threshold (tap wants 100% unless --allow-incomplete-coverage)',
        line: incomplete.line,
      };
    return out;
  },
};

export const record = defineRunner({
  name: 'tap',
  ambiguousExit: 'tap exits 1 for failed tests and for a test file that cannot load, a timeout, or coverage below its threshold',
  junitHint: 'tap --reporter=junit --reporter-file=PATH',
  profile: tap,
});
