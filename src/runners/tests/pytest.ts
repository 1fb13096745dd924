/** pytest: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  count,
  type FailedTest,
  firstMatch,
  firstMessageLine,
  lastMatch,
  PYTHON_LIBRARY,
  type Reading,
  type RunnerProfile,
} from '../read.js';
import { defineRunner } from '../record.js';

const PYTEST_SUMMARY =
  /^=*\s*((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|subtests? \w+)(?:, )?)+|no tests ran)\b.* in [\d.]+s/;

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

/**
 * A line of pytest's short test summary: `FAILED tests/test_a.py::TestK::test_x - assert 1 == 2` (`ERROR`
 * for a failed fixture; pytest-subtests' `SUBFAILED[case] tests/test_a.py::TestK::test_x - ...`, its
 * subtest's description after the word: `[msg]` or `(i=1)`).
 */
const PYTEST_FAILED = /^(FAILED|ERROR|SUBFAIL(?:ED)?)(\[[^\]]*\]|\([^)]*\))? ([^:]+?\.py)::(\S+?)(?: - (.*))?$/;
/** A failure's heading in the `FAILURES` section: `____ TestK.test_x ____`, `____ TestK.test_x [case] ____`, `____ [doctest] pkg.mod.f ____`. */
const PYTEST_HEADING = /^_{3,} (.+?) _{3,}$/;
/** A frame's place in a failure block: `tests/test_a.py:3: AssertionError`, or `tests/test_a.py:37: ` where the error came from further in; `--tb=line`'s `/p/tests/test_a.py:3: assert 1 == 2`. */
const PYTEST_WHERE = /^([^:]+?\.py):(\d+):(?: (.*)|$)/;

/**
 * What a failure block says of its test: each file's last line in it (the test file's: where the test's
 * own code failed), the first frame in the project's code, and the error: its `E` line, or a
 * doctest's `Expected:`/`Got:` (or `UNEXPECTED EXCEPTION: ...`).
 */
interface Block {
  /** The heading, without `ERROR at setup of ` and `[doctest] `; none for `--tb=line`'s one-line failures. */
  heading?: string;
  lines: Map<string, number>;
  first?: { file: string; line: number };
  error?: string;
  doctest?: { expected: string[]; got: string[]; part?: 'expected' | 'got' };
}

/** A doctest's output compared: `Expected 2.0, got 1.0` (each side's lines joined). */
const doctestMessage = (d: NonNullable<Block['doctest']>) =>
  `Expected ${d.expected.join(' ') || 'nothing'}, got ${d.got.join(' ') || 'nothing'}`;

/** One line of a heading's block: a frame's place, the `E` error, a doctest's comparison. */
function blockLine(block: Block, l: string): void {
  const at = PYTEST_WHERE.exec(l);
  if (at) {
    // A doctest that goes on after a failure (`--doctest-continue-on-failure`) says where each failed: its first is the one its message says.
    if (!(block.doctest && block.lines.has(at[1]!))) block.lines.set(at[1]!, Number(at[2]));
    if (block.first === undefined && !PYTHON_LIBRARY.test(at[1]!)) block.first = { file: at[1]!, line: Number(at[2]) };
    if (block.doctest) block.doctest.part = undefined;
    return;
  }
  // `E   ValueError: File must be opened in binary mode`: the error, whole, where the short summary cuts it at the terminal's width.
  const e = block.error === undefined ? /^E\s+(\S.*)$/.exec(l) : null;
  if (e) block.error = e[1]!.trimEnd();
  const unexpected = block.error === undefined ? /^UNEXPECTED EXCEPTION: (.+)$/.exec(l) : null;
  if (unexpected) block.error = `unexpected exception: ${unexpected[1]}`;
  const d = block.doctest;
  if (d === undefined) return;
  if (/^Expected(?::| nothing)$/.test(l)) d.part = 'expected';
  else if (/^Got(?::| nothing)$/.test(l)) d.part = 'got';
  else if (d.part !== undefined && /^\s+\S/.test(l)) d[d.part].push(l.trim());
  else d.part = undefined;
}

/** The blocks of pytest's `FAILURES` (and `ERRORS`) sections in order: each heading's, and each of `--tb=line`'s lines. */
function pytestBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let section = false;
  let block: Block | undefined;
  for (const l of lines) {
    if (/^=+ /.test(l)) {
      section = /^=+ (?:FAILURES|ERRORS) =+$/.test(l);
      block = undefined;
      continue;
    }
    if (!section) continue;
    const h = PYTEST_HEADING.exec(l);
    if (h) {
      const heading = h[1]!.replace(/^(?:ERROR at (?:setup|teardown) of )/, '');
      const doctest = heading.startsWith('[doctest] ');
      block = { heading: heading.replace(/^\[doctest\] /, ''), lines: new Map(), ...(doctest && { doctest: { expected: [], got: [] } }) };
      blocks.push(block);
    } else if (block) blockLine(block, l);
    else {
      // `--tb=line`: no headings, one `file:line: message` a failure, in the short summary's order.
      const at = PYTEST_WHERE.exec(l);
      if (at) blocks.push({ lines: new Map([[at[1]!, Number(at[2])]]), ...(at[3] && { error: at[3] }) });
    }
  }
  return blocks;
}

/** A file's line in a block: as printed, or printed absolute (a doctest's, `--tb=line`'s) where the summary has it relative. */
function lineIn(block: Block | undefined, file: string): number | undefined {
  if (block === undefined) return undefined;
  return block.lines.get(file) ?? [...block.lines].find(([f]) => f.endsWith(`/${file}`))?.[1];
}

/** `--tb=line`'s first failure left in `file` (its errors' section comes before its failures', the short summary lists failures first). */
function takeOneLine(oneLine: Block[], file: string): Block | undefined {
  const at = oneLine.findIndex((b) => lineIn(b, file) !== undefined);
  return at === -1 ? undefined : oneLine.splice(at, 1)[0];
}

/**
 * pytest's failed tests: its short test summary (printed by default, `-r f`), each `FAILED file::test -
 * message` (a subtest's `SUBFAILED[case] file::test - message`); from the failure's block above, the
 * test file's line (`tests/test_a.py:3: AssertionError`, its last in the block: where the test's own
 * code failed; else the first frame in the project's code: a fixture in conftest.py that raised), and
 * the error's first line whole (`E   ValueError: ...`; the summary's is cut to fit the terminal; a
 * doctest's `Expected`/`Got`). Without the short summary (`-rN`), the blocks' headings name them.
 */
function pytestFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  const blocks = pytestBlocks(lines);
  const headed = new Map(blocks.flatMap((b) => (b.heading !== undefined ? [[b.heading, b] as const] : [])));
  const oneLine = blocks.filter((b) => b.heading === undefined);
  for (const l of lines) {
    const m = PYTEST_FAILED.exec(l);
    if (!m) continue;
    const sub = m[1]!.startsWith('SUB') ? (m[2] ?? '') : '';
    const file = m[3]!;
    const test = m[4]! + (sub !== '' ? ` ${sub}` : '');
    // The heading names a test by its classes and name joined with dots, its parameters kept (`TestK.test_x[1]`), a subtest's description after a space.
    const block = headed.get(test.replace(/::/g, '.')) ?? headed.get(test) ?? takeOneLine(oneLine, file);
    const line = lineIn(block, file);
    // The test file has no line in it (a fixture that raised in conftest.py): the first frame of the project's code says where.
    const at =
      line === undefined && block?.first !== undefined ? { file: block.first.file, line: block.first.line, idFile: file } : undefined;
    const summary = m[5];
    const said = block?.error ?? (block?.doctest && doctestMessage(block.doctest));
    const message = said !== undefined && (summary === undefined || summary.endsWith('...')) ? said : (summary ?? m[1]!.toLowerCase());
    out.push({ title: [test], ...(at ?? { file, ...(line !== undefined && { line }) }), message: firstMessageLine(message) });
  }
  if (out.length > 0 || lines.some((l) => /^=+ short test summary info =+$/.test(l))) return out;
  // `-rN`: no short summary; each heading is a test, its file the block's first frame in the project (the test's own, printed first).
  for (const b of headed.values()) {
    const title = b.doctest ? b.heading! : b.heading!.replace(/\.(?![^[]*\])/g, '::');
    const message = b.error ?? (b.doctest ? doctestMessage(b.doctest) : 'failed');
    out.push({
      title: [title],
      ...(b.first && { file: b.first.file, line: lineIn(b, b.first.file)! }),
      message: firstMessageLine(message),
    });
  }
  return out;
}

const pytest: RunnerProfile = {
  failures: pytestFailures,
  keep: anyOf(PYTEST_MISSING_FIXTURE, PYTEST_HEADER, XDIST_CRASH),
  exitProves: true,
  needsSummary: pytestNeedsSummary,
  cutShort: {
    cause: 'a test that called os._exit',
    next: 'run pytest -v to see the test that was running when it stopped (os._exit in a test, or a plugin that ends the process), and mend it',
  },
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
      out.summary = {
        line: s.line.replace(/^=+\s*|\s*=+$/g, ''),
        failed: failed + errors - unset,
        passed,
        total: failed + errors - unset + passed + count(t, 'skipped') + count(t, 'xfailed') + count(t, 'xpassed'),
        skipped: count(t, 'skipped'),
      };
      if (t === 'no tests ran') out.noTests = { line: out.summary.line };
    } else {
      // `-qq` prints no summary line, but its short test summary still names each failed test.
      const failedTests = lines.filter((l) => /^FAILED \S+::\S/.test(l));
      if (failedTests.length > 0) out.summary = { line: failedTests[0]!, failed: failedTests.length, passed: 0, total: failedTests.length };
      // pytest-timeout's thread method ends the process in the test that ran too long (exit 1): that test failed.
      const banners = lines.flatMap((l, i) => (PYTEST_TIMEOUT_BANNER.test(l) ? [i] : []));
      if (!out.summary && banners.length >= 2)
        out.summary = {
          line: `pytest-timeout stopped the run in ${pytestTimedOut(lines, banners[banners.length - 1]!)}`,
          failed: 1,
          passed: 0,
          total: 1,
        };
    }
    // A worker that died is counted as a failed test, but no assertion failed: the process did (a crash is no verdict on the test).
    const crashed = lines.filter((l) => XDIST_CRASH.test(l));
    if (crashed.length > 0 && out.summary) {
      out.summary = { ...out.summary, failed: Math.max(0, out.summary.failed - crashed.length) };
      if (out.summary.failed === 0)
        out.cannotRun = {
          what: 'a pytest-xdist worker died while running a test (os._exit, a segfault, out of memory), so that test gave no verdict (run it alone, without -n, to see why)',
          line: crashed[0]!,
        };
    }
    const cov = s ? firstMatch(lines, PYTEST_COV_UNDER) : undefined;
    if (cov)
      out.failedBesides = {
        what: "coverage is below its threshold (pytest-cov's --cov-fail-under)",
        line: cov.line,
        next: 'cover the new code with a test, or give coverage a tier of its own',
      };
    if (missingFixtures.length > 0)
      out.cannotRun = {
        what: 'a test asks for a fixture that does not exist (a pytest plugin that is not installed?)',
        line: missingFixtures[0]!.replace(/^E\s+/, ''),
      };
    const collection = firstMatch(lines, /^!+ Interrupted: \d+ errors? during collection/);
    if (collection) {
      // The exception (`E   ModuleNotFoundError: ...`), else the short summary's reason (`ERROR test_a.py - Failed: 'slow' not found in `markers``).
      const why = firstMatch(lines, /^E\s+\w+Error: /)?.line.replace(/^E\s+/, '') ?? firstMatch(lines, /^ERROR \S+ - \S/)?.line;
      // The file it could not collect: `ERROR tests/test_a.py` in the short summary, else its `ERROR collecting` banner.
      const file = (lastMatch(lines, /^ERROR (\S+\.py)\b/) ?? lastMatch(lines, /^_+ ERROR collecting (\S+) _+$/))?.m[1];
      out.cannotRun = {
        what: file ? `pytest could not collect the tests (${file})` : 'pytest could not collect the tests',
        line: why ?? collection.line,
      };
    }
    // Exit 4: a bad option, or a conftest.py that cannot import; pytest then prints no summary (a test's own output may look alike).
    const usage = s ? undefined : firstMatch(lines, /^(?:\S+\.py|pytest|py\.test): error: /);
    if (usage) out.cannotRun = { what: 'a pytest usage error', line: usage.line };
    const conftest = s ? undefined : firstMatch(lines, /^ImportError while loading conftest /);
    if (conftest)
      out.cannotRun = {
        what: 'pytest could not load a conftest.py',
        line: firstMatch(lines, /^E\s+\w+(?:Error|Exception)\b/, conftest.index)?.line.replace(/^E\s+/, '') ?? conftest.line,
      };
    return out;
  },
};

export const record = defineRunner({
  name: 'pytest',
  exits: {
    2: 'pytest was interrupted or hit collection errors',
    3: 'pytest internal error',
    4: 'pytest usage error (bad option, or a conftest.py that fails to import)',
    5: 'pytest collected no tests',
    6: 'pytest stopped at its --max-warnings (pytest 9.2 and later)',
  },
  noTestsExits: [5],
  junitHint: 'pytest --junitxml=PATH',
  profile: pytest,
});
