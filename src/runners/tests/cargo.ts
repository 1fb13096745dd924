/** cargo: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  cargoCannotBuild,
  count,
  type FailedTest,
  firstMatch,
  firstMessageLine,
  type Reading,
  type RunnerProfile,
} from '../read.js';
import { defineRunner } from '../record.js';

const CARGO_RESULT = /^test result: /;
/**
 * A test binary's section starts: `     Running unittests src/lib.rs (target/debug/deps/m-1a2b)`, `     Running
 * tests/it.rs (...)`, `   Doc-tests m`; cargo writes them to stderr, so one may follow a test's unfinished
 * line (`test a ...      Running tests/it.rs (...)`) when that binary stopped mid-line.
 */
const CARGO_BINARY = /(?:^|\s)(?:Running (?:unittests )?(\S+) \(.*\)|Doc-tests (\S+))\s*$/;
/** libtest's announcement of a binary's tests (quiet or not): its `test result:` line must follow. */
const CARGO_RUNNING = /^running (\d+) tests?$/;
/** Every cargo error line read starts so (`error: could not compile`, `error[E0308]:`, `error: test failed, to rerun pass`). */
const CARGO_ERROR = /^error/;
const CARGO_PANIC = /^thread '[^']*'(?: \(\d+\))? (?:panicked at|has overflowed)/;
const CARGO_DIED = /process didn't exit successfully: .*\((?:signal|exit status)/;

/** What a section line names: `src/lib.rs (unittests)`, `tests/it.rs`, `the doctests of m`. */
function binaryName(line: string): string | undefined {
  const m = CARGO_BINARY.exec(line);
  if (!m) return undefined;
  if (m[2] !== undefined) return `the doctests of ${m[2]}`;
  return /Running unittests /.test(line) ? `${m[1]} (unittests)` : m[1];
}

/** cargo's line after a binary that failed (mid-line, after a test's unfinished `test a ... `, when the binary stopped there). */
const RERUN = /(?:^|\s)error: (?:test|doctest) failed, to rerun pass `([^`]+)`/;

/**
 * The test a stopped binary was in, from its unfinished `test a ... ` line: only when libtest ran its
 * tests one at a time (`--test-threads=1` in the command cargo says failed, or one test), as it names a
 * test as it starts only then; run at once, it names each as it ends, so an unfinished line is a race.
 */
function unfinishedTest(section: readonly string[], died: string | undefined): string | undefined {
  const serial = section.some((l) => /^running 1 test$/.test(l)) || (died !== undefined && /--test-threads[= ]1\b/.test(died));
  if (!serial) return undefined;
  for (const l of section) {
    const m = /^test (\S+) \.\.\. ?(.*)$/.exec(l);
    if (m && !/^(?:ok|FAILED|ignored)\b/.test(m[2]!)) return m[1]!;
  }
  return undefined;
}

/** The source a section line names (`src/lib.rs`, `tests/it.rs`), without `(unittests)`; none for doctests. */
const sourceOf = (line: string) => CARGO_BINARY.exec(line)?.[1];

/** cargo's option that runs one binary's tests again: `--lib`, `--test it`, `--doc`, `--bin m` (its `to rerun pass` line's, else from the section). */
function rerunOf(section: readonly string[]): string | undefined {
  const said = section.map((l) => RERUN.exec(l)?.[1]).find((x) => x !== undefined);
  if (said !== undefined) return said;
  const head = section[0] ?? '';
  if (/Doc-tests /.test(head)) return '--doc';
  const src = sourceOf(head);
  if (src === undefined) return undefined;
  if (/Running unittests src\/lib\.rs /.test(head)) return '--lib';
  const test = /^tests\/([^/]+)\.rs$|^tests\/([^/]+)\/main\.rs$/.exec(src);
  return test ? `--test ${test[1] ?? test[2]}` : undefined;
}

/** How to find the test that ended a binary: its tests one at a time, each named as it starts. */
const oneByOne = (rerun: string | undefined, how: string) =>
  `\`cargo test ${rerun !== undefined ? `${rerun} ` : ''}-- --test-threads=1\` prints each test as it starts, so the last one printed is the one that ${how}`;

/**
 * A test binary's section that ended without its `test result:` (cargo's `process didn't exit
 * successfully`): how (aborted: SIGABRT, a panic that cannot unwind; killed by another signal; exited
 * with a code: a `harness = false` main that panicked), the test its panic names (libtest names each
 * test's thread after it), the line that says so, and where.
 */
function endedSection(section: readonly string[], errorLine: string): NonNullable<Reading['cannotRun']> {
  const head = section[0]!;
  const name = binaryName(head);
  const panics = section.filter((x) => CARGO_PANIC.test(x));
  const panic = panics[0];
  const died = section.find((x) => CARGO_DIED.test(x));
  const signal = died !== undefined ? /\(signal: \d+, (SIG\w+)/.exec(died)?.[1] : undefined;
  const thread = panic !== undefined ? /^thread '([^']*)'/.exec(panic)?.[1] : undefined;
  const test = thread !== undefined && thread !== 'main' && thread !== '<unnamed>' ? thread : unfinishedTest(section, died);
  const place = panic !== undefined ? /panicked at (?:'.*', )?(\S+?):\d+:\d+:?$/.exec(panic)?.[1] : undefined;
  // No libtest in it (`running N tests`): a `harness = false` test, its own main.
  const own = !section.some((l) => CARGO_RUNNING.test(l));
  const how =
    signal === 'SIGABRT' ? 'aborted' : signal !== undefined ? `was killed by ${signal}` : panic !== undefined ? 'panicked' : 'exited';
  const cause =
    signal === 'SIGABRT'
      ? 'std::process::abort, a panic that cannot unwind (panic = "abort", a panic in a drop or an extern "C" fn), or a crash'
      : signal !== undefined
        ? 'a crash, or a signal sent to it'
        : own
          ? 'its own main, a `harness = false` test, panicked or exited with a code'
          : 'a panic outside the tests, or an exit with a code';
  const rerun = rerunOf(section);
  const src = sourceOf(head);
  return {
    what: `the test binary${name !== undefined ? ` for ${name}` : ''} ${how}${test !== undefined ? ` in test ${test}` : ''} before its test result: the code under test (or the test) ended the process (${cause}); it says`,
    line: panic ?? died ?? `${errorLine} (${head.trim()} printed no test result)`,
    next:
      test !== undefined
        ? `\`cargo test ${rerun !== undefined ? `${rerun} ` : ''}${test} -- --exact\` runs that test alone`
        : own
          ? `\`cargo test${rerun !== undefined ? ` ${rerun}` : ''}\` runs it alone`
          : oneByOne(rerun, how),
    stopped: {
      ...(src !== undefined && { file: src }),
      ...(place !== undefined && !place.startsWith('/rustc/') && { at: place }),
      ...(test !== undefined && { test }),
    },
  };
}

/**
 * The `running N tests` lines of the section at `start` (ending in cargo's error at `error`) that came
 * out of place: cargo writes a section's line and its error to stderr, the binary its tests' lines to
 * stdout, so read through two pipes the binary's `running 1 test` may come just before its section
 * line, or after cargo's error (up to the next section).
 */
function announced(lines: readonly string[], start: number, error: number): string[] {
  let before = start - 1;
  while (before >= 0 && lines[before]!.trim() === '') before--;
  const after: string[] = [];
  for (let j = error + 1; j < lines.length && !CARGO_BINARY.test(lines[j]!); j++) if (CARGO_RUNNING.test(lines[j]!)) after.push(lines[j]!);
  return [...(before >= 0 && CARGO_RUNNING.test(lines[before]!) ? [lines[before]!] : []), ...after];
}

/** Whether cargo's error says the binary was ended by a signal (`process didn't exit successfully: ... (signal: 6, SIGABRT...)`). */
const signalled = (after: readonly string[]) => after.some((x) => CARGO_DIED.test(x) && /\(signal: \d+/.test(x));

/**
 * A cargo test binary that failed without a `test result:` line of its own: a `harness = false` test
 * whose main panicked, a test that aborted the process (SIGABRT, a stack overflow), a build script that
 * panicked. No test is known to have failed: the binary ended in the middle of its tests (endedSection).
 */
function cargoBinaryOutsideTests(lines: readonly string[]): Reading['cannotRun'] {
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
    else if (start !== -1 && RERUN.test(l) && (!result || signalled(lines.slice(i, i + 4)))) {
      // A `test result:` in the section may be the binary before it's, read late through its own pipe: a signal says this one ended.
      return endedSection([...lines.slice(start, i + 4), ...announced(lines, start, i)], l);
    }
  }
  return undefined;
}

/**
 * A test binary that announced its tests (`running 3 tests`) and printed no `test result:` before the
 * next binary's section (or its next `running`, under `-q`, which prints no sections) or the end: it
 * stopped in the middle of its tests, though cargo may exit 0 (a test, or the code under test, called
 * `std::process::exit(0)`). What it was (its section line) and how many tests it announced.
 */
function cargoUnreported(lines: readonly string[]): { head?: string; tests: number; last: string } | undefined {
  let head: string | undefined;
  let open: { head?: string; tests: number; last: string } | undefined;
  for (const l of lines) {
    const name = binaryName(l);
    const running = CARGO_RUNNING.exec(l);
    if (open && name !== undefined) {
      // The stopped binary's unfinished line, without the next section cargo wrote after it.
      const cut = l.slice(0, CARGO_BINARY.exec(l)!.index).trim();
      return cut === '' ? open : { ...open, last: cut };
    }
    if (open && running) return open;
    if (name !== undefined) head = l.trim();
    else if (running) {
      if (Number(running[1]) > 0) open = { ...(head !== undefined && { head }), tests: Number(running[1]), last: l };
      head = undefined;
    } else if (CARGO_RESULT.test(l)) open = undefined;
    else if (open && l.trim() !== '') open.last = l;
  }
  return open;
}

/** cargoUnreported as what could not run: the binary, its count, its last line, that the code under test ended it, and how to find the test. */
function unreported(lines: readonly string[]): Reading['cannotRun'] {
  const u = cargoUnreported(lines);
  if (!u) return undefined;
  const n = `${u.tests} test${u.tests === 1 ? '' : 's'}`;
  const name = u.head !== undefined ? binaryName(u.head) : undefined;
  const src = u.head !== undefined ? sourceOf(u.head) : undefined;
  return {
    what: `the test binary ${name !== undefined ? `for ${name} ` : ''}exited mid-run, before its test result (it ran ${n}, reported none): a test or the code under test ended the process (std::process::exit), so not every test is known to have passed; its last output`,
    line: u.last,
    next: oneByOne(u.head !== undefined ? rerunOf([u.head]) : undefined, 'exited'),
    stopped: { ...(src !== undefined && { file: src }) },
  };
}

/** A failed test's line: `test a::b ... FAILED`, `test a::b - should panic ... FAILED`, `-q`'s `a::b --- FAILED` (a doctest's name has spaces). */
const FAILED_LINE =
  /^(?:test (.+?)(?: - (?:should panic|compile fail))? \.\.\. FAILED|(.+?)(?: - (?:should panic|compile fail))? --- FAILED)$/;
/** A doctest's name: its file and the line its example starts at (`src/shapes.rs - shapes::Rect::area (line 10)`). */
const DOCTEST = /^(\S+\.rs) - .*\(line (\d+)\)$/;

/** The failed tests' names, each once, in the order printed: their `FAILED` lines, then (old `-q` printed dots) their `---- name stdout ----` blocks and the `failures:` list. */
function failedNames(lines: readonly string[]): string[] {
  const names = new Set<string>();
  for (const l of lines) {
    const m = FAILED_LINE.exec(l);
    if (m) names.add(m[1] ?? m[2]!);
  }
  // `--show-output` prints the passing tests' blocks too, under `successes:`.
  let passing = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === 'successes:' || lines[i] === 'failures:') passing = lines[i] === 'successes:';
    const block = /^---- (.+) stdout ----$/.exec(lines[i]!);
    if (block && !passing) names.add(block[1]!);
    // The list after the blocks: `failures:` then each name indented by four spaces.
    if (lines[i] === 'failures:') for (let j = i + 1; j < lines.length && /^ {4}\S/.test(lines[j]!); j++) names.add(lines[j]!.trim());
  }
  return [...names];
}

/** Where a failed test's block says it failed: its panic (or a `#[should_panic]` test's note that it did not), and the message. */
function failedAt(lines: readonly string[], name: string): { file?: string; line?: number; message?: string } {
  const block = lines.indexOf(`---- ${name} stdout ----`);
  for (let i = block + 1; block !== -1 && i < lines.length && !/^---- /.test(lines[i]!) && lines[i] !== 'failures:'; i++) {
    const l = lines[i]!;
    const now = /^thread '[^']*'(?: \(\d+\))? panicked at (\S+?):(\d+):\d+:$/.exec(l);
    if (now) return { file: now[1]!, line: Number(now[2]), ...(lines[i + 1] !== undefined && { message: lines[i + 1]! }) };
    const old = /^thread '[^']*' panicked at '(.*)', (\S+?):(\d+):\d+$/.exec(l);
    if (old) return { file: old[2]!, line: Number(old[3]), message: old[1]! };
    const noPanic = /^note: (test did not panic as expected)(?: at (\S+?):(\d+):\d+)?$/.exec(l);
    if (noPanic) return { ...(noPanic[2] !== undefined && { file: noPanic[2], line: Number(noPanic[3]) }), message: noPanic[1]! };
    // A doctest that does not compile; a test that returned an `Err`.
    const other = /^(?:error(?:\[E\d+\])?: .*|Error: .*)$/.exec(l);
    if (other) return { message: other[0] };
  }
  return {};
}

/**
 * cargo test's failed tests (`-q` too): each with its panic from the `---- name stdout ----` block below
 * (`thread 'name' panicked at src/lib.rs:11:9:` and the message on the next line; before Rust 1.73,
 * `panicked at 'message', src/lib.rs:11:9`). A doctest is at its example's file and line (its panic is in
 * a generated file); a `#[should_panic]` test that did not panic, at the test.
 */
function cargoFailures(lines: readonly string[]): FailedTest[] {
  return failedNames(lines).map((name) => {
    const at = failedAt(lines, name);
    const doc = DOCTEST.exec(name);
    const where = doc ? { file: doc[1]!, line: Number(doc[2]) } : at.file !== undefined ? { file: at.file, line: at.line! } : undefined;
    return { title: [name], ...where, message: firstMessageLine(at.message ?? 'failed') };
  });
}

const cargo: RunnerProfile = {
  failures: cargoFailures,
  keep: anyOf(CARGO_RESULT, CARGO_BINARY, CARGO_RUNNING, CARGO_ERROR, CARGO_PANIC, CARGO_DIED),
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
      out.summary = {
        line: results.find((r) => r.includes('FAILED')) ?? results[results.length - 1]!,
        failed,
        passed,
        total: failed + passed + ignored,
        skipped: ignored,
      };
    }
    const build = cargoCannotBuild(lines);
    if (build) out.cannotRun = build;
    const usage = firstMatch(lines, /^error: no (?:test|bin|example|bench) target named|^error: could not find `Cargo\.toml`/);
    if (usage) out.cannotRun = { what: 'a cargo usage error', line: usage.line };
    const outside = cargoBinaryOutsideTests(lines) ?? unreported(lines);
    if (outside && !out.cannotRun) out.cannotRun = outside;
    return out;
  },
};

export const record = defineRunner({
  name: 'cargo',
  exits: {
    1: 'cargo usage error',
  },
  ambiguousExit: 'cargo test exits 101 for failed tests and for a compile error',
  junitHint: 'cargo nextest with a [profile.NAME.junit] path, or a JUnit converter writing PATH',
  profile: cargo,
});
