/** tape: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, firstMatch, lastMatch, type Reading, type RunnerProfile, tapFailures } from '../read.js';
import { defineRunner } from '../record.js';

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
    if (frame < lines.length && frame <= i + 20 && /^\s+at (?:.*\()?node:internal\/modules\//.test(lines[frame]!))
      return { line: lines[i]!, loading: true };
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
  // Its TAP: each `not ok` assertion under the `# test name` before it, its place the first frame of its `at:`/stack in the project's code.
  failures: (lines) => tapFailures(lines),
  // Counts at the end, and from anywhere before: each failure (and the process.exit frame below it), each test's header (a crash's test).
  keep: anyOf(TAPE_VERSION, TAPE_COUNT, TAPE_NOT_OK, TAPE_EXIT_FRAME, TAPE_HEADER, TAP_SPEC_COUNT, TAP_SPEC_NONE, TAP_SPEC_FAILED),
  needsSummary: true,
  reporterHint: 'run tape without a reporter pipe, or pipe its TAP into tap-spec or faucet (whose counts gate-ladder reads)',
  cutShort: {
    cause: 'a test file that called process.exit, or a reporter pipe that prints no counts',
    next: 'run tape without a reporter pipe, or pipe its TAP into tap-spec or faucet',
  },
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
      out.summary = {
        line: failed > 0 ? (f.firstFailed ?? fail?.line ?? tests.line) : tests.line,
        failed,
        passed: Number(lastMatch(lines, tapeCount('pass'))?.m[1] ?? 0),
        total: Number(tests.m[1]),
        skipped: todo,
      };
      return out;
    }
    const spec = new Map<string, { line: string; n: number }>();
    for (const l of lines) {
      const m = TAP_SPEC_COUNT.exec(l);
      if (m) spec.set(m[1]!, { line: l, n: Number(m[2]) });
    }
    if (spec.has('total')) {
      const failed = Math.max(0, (spec.get('failing')?.n ?? 0) - f.exited);
      out.summary = {
        line: failed > 0 ? (f.firstFailed ?? spec.get('failing')!.line) : spec.get('total')!.line,
        failed,
        passed: spec.get('passing')?.n ?? 0,
        total: spec.get('total')!.n,
      };
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

export const record = defineRunner({
  name: 'tape',
  ambiguousExit: "tape exits 1 for failed tests and for a test file that cannot load (node's own crash), and 0 when no test ran",
  junitHint: "a TAP-to-JUnit converter over tape's output, writing PATH",
  profile: tape,
});
