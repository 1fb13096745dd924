/**
 * cargo judged on what cargo 1.95 (and clippy, rustfmt) printed on a small crate here, one file per case in
 * test/fixtures/runners/cargo/ (scripts/capture-cargo.mjs: the case's command on its first line, the
 * temporary folder as /x, thread ids and hashes as printed). Each case: the verdict, a fragment of the
 * reason, and the failed tests the output names (id, repository-relative file, line, message) as the
 * ledger row, `run --json` and the blocked screen carry them.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runnerCaught } from '../../src/config/runner-names.js';
import { detectRunner } from '../../src/runners/detect.js';
import { allRecords, runnerRecord } from '../../src/runners/index.js';
import { rustErrors } from '../../src/runners/read.js';
import { failedTestsOf, keepFor, outputLines } from '../../src/verdict/runner-output.js';
import { errorFault } from '../../src/verdict/fault.js';
import { summarizeOutput } from '../../src/verdict/output-summary.js';
import { safeGateOutput } from '../../src/gates/gate-output.js';
import { shown } from '../../src/util/escape.js';
import { classify } from '../../src/verdict/verdict.js';
import type { RunnerName } from '../../src/types.js';

await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/cargo');

/** A capture: its exit code (from its first line) and what cargo printed. */
function capture(name: string): { code: number; text: string } {
  const raw = readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');
  const first = raw.indexOf('\n');
  return { code: Number(/^# exit (\d+)/.exec(raw)![1]), text: raw.slice(first + 1) };
}

/** As a tier that lists no `caught` judges it: the runner's own failure codes, else [1]. */
function judge(runner: RunnerName, name: string, allowNoTests = false) {
  const { code, text } = capture(name);
  return classify(
    { exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: text },
    runnerCaught(runner) ?? [1],
    30,
    {
      runner,
      output: { detection: { runner, words: [], managers: [] }, allowNoTests },
    },
  );
}

// [fixture, runner, verdict, reason fragment ('' for none)]
type Row = [string, RunnerName, 'pass' | 'caught' | 'error', string];

const ROWS: Row[] = [
  ['pass', 'cargo', 'pass', ''],
  ['pass-q', 'cargo', 'pass', ''],
  ['pass-filtered', 'cargo', 'pass', ''],
  // A test binary that exits 0 in the middle of its tests: cargo exits 0; its `running 4 tests` has no `test result:`.
  [
    'exit0',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) exited mid-run, before its test result (it ran 4 tests, reported none): a test or the code under test ended the process (std::process::exit), so not every test is known to have passed; its last output: `test shapes::tests::area_works ...`; `cargo test --lib -- --test-threads=1` prints each test as it starts, so the last one printed is the one that exited',
  ],
  [
    'exit0-nff',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) exited mid-run, before its test result (it ran 4 tests, reported none)',
  ],
  // -q prints no sections: the binary is not named, its count is.
  ['exit0-q', 'cargo', 'error', 'the test binary exited mid-run, before its test result (it ran 4 tests, reported none)'],
  [
    'exit0-workspace',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) exited mid-run, before its test result (it ran 2 tests, reported none)',
  ],
  [
    'exit0-integration',
    'cargo',
    'error',
    'the test binary for tests/integration.rs exited mid-run, before its test result (it ran 3 tests, reported none)',
  ],
  // A test binary that aborted: what happened, in which test when its panic (or, one test at a time, its unfinished line) says, and how to find it.
  [
    'abort',
    'cargo',
    'error',
    'the test binary for tests/abort.rs aborted before its test result: the code under test (or the test) ended the process (std::process::abort, a panic that cannot unwind (panic = "abort", a panic in a drop or an extern "C" fn), or a crash); it says: `process didn\'t exit successfully: `/x/target/debug/deps/abort-e1a54924da8cbb36` (signal: 6, SIGABRT: process abort signal)`; `cargo test --test abort -- --test-threads=1` prints each test as it starts, so the last one printed is the one that aborted',
  ],
  [
    'abort-panic',
    'cargo',
    'error',
    'the test binary for tests/half.rs aborted in test halves_odd before its test result: the code under test (or the test) ended the process (std::process::abort, a panic that cannot unwind',
  ],
  [
    'abort-panic',
    'cargo',
    'error',
    "it says: `thread 'halves_odd' (9343) panicked at src/lib.rs:17:9:`; `cargo test --test half halves_odd -- --exact` runs that test alone",
  ],
  ['abort-serial', 'cargo', 'error', 'the test binary for tests/abort.rs aborted in test aborts before its test result'],
  ['abort-serial', 'cargo', 'error', '`cargo test --test abort aborts -- --exact` runs that test alone'],
  // What stops cargo before any test: quoted with where it points, not a caret line nor a header without its place.
  ['compile-error', 'cargo', 'error', 'a compile error: `src/lib.rs:11:11: error[E0277]: cannot add `&str` to `i64``'],
  [
    'broken-toml',
    'cargo',
    'error',
    'cargo could not read its manifest: `Cargo.toml:3:14: error: invalid float, expected nothing`; fix Cargo.toml',
  ],
  [
    'no-such-command',
    'cargo',
    'error',
    'cargo has no such command: `error: no such command: `nextest``; install it (`cargo install cargo-nextest`), or fix the command',
  ],
  ['no-such-command', 'nextest', 'error', 'cargo has no such command: `error: no such command: `nextest``'],
  // clippy with `-D warnings` (install's starter writes it as a Rust crate's lint tier): a lint is a finding, a compile error an error.
  ['clippy-pass', 'clippy', 'pass', ''],
  ['clippy-warning', 'clippy', 'pass', ''],
  [
    'clippy-finding',
    'clippy',
    'caught',
    'clippy: 1 finding, the first: `src/lib.rs:11:5: unneeded `return` statement (clippy::needless_return)`',
  ],
  [
    'clippy-findings',
    'clippy',
    'caught',
    'clippy: 2 findings, the first: `src/shapes.rs:15:9: unneeded `return` statement (clippy::needless_return)`',
  ],
  [
    'clippy-compile-error',
    'clippy',
    'error',
    'a compile error, so clippy checked nothing: `src/lib.rs:11:11: error[E0277]: cannot add `&str` to `i64``',
  ],
  [
    'clippy-broken-toml',
    'clippy',
    'error',
    'exit 101: cargo could not read its manifest, so nothing was checked: `Cargo.toml:3:14: error: invalid float, expected nothing`; fix Cargo.toml',
  ],
  // rustfmt's check, as prettier's: a diff is the patch's (`caught`), naming the files; its own error (code it cannot parse) an `error`.
  ['fmt-check', 'rustfmt', 'caught', 'rustfmt: 1 file not formatted: `/x/src/lib.rs:8` (`cargo fmt` formats them)'],
  [
    'fmt-check-args',
    'rustfmt',
    'caught',
    'rustfmt: 2 files not formatted: `/x/src/lib.rs:8`, `/x/tests/integration.rs:6` (`cargo fmt` formats them)',
  ],
  [
    'fmt-error',
    'rustfmt',
    'error',
    'exit 1: rustfmt could not check the formatting: `/x/src/lib.rs:12:1: error: expected expression, found `}``; fix the file it names',
  ],
  ['check-warning', 'cargo-check', 'pass', ''],
  [
    'check-compile-error',
    'cargo-check',
    'error',
    'a compile error, so cargo-check checked nothing: `src/lib.rs:11:11: error[E0277]: cannot add',
  ],
];

for (const [name, runner, verdict, reason] of ROWS) {
  test(`${runner} ${name}: ${verdict}`, () => {
    const c = judge(runner, name);
    assert.is(c.verdict, verdict, c.reason);
    if (reason === '') assert.is(c.reason, undefined);
    else assert.ok((c.reason ?? '').includes(reason), c.reason);
  });
}

/** The failed tests as the ledger row carries them, the gate run in /x at the root: [id, file, line, message]. */
const failed = (name: string, base = '.') =>
  failedTestsOf('cargo', capture(name).text, { root: '/x', base }).map((f) => [f.id, f.file, f.line, f.message]);

test('a failed doctest is named at its example (file and line), with its panic message', () => {
  assert.is(judge('cargo', 'doctest-failed').verdict, 'caught');
  assert.equal(failed('doctest-failed'), [
    ['src/shapes.rs - shapes::Rect::area (line 10)', 'src/shapes.rs', 10, 'assertion `left == right` failed'],
  ]);
});

test('a #[should_panic] test that did not panic is named at the test, plain and under -q', () => {
  for (const name of ['should-panic', 'should-panic-q']) {
    assert.is(judge('cargo', name).verdict, 'caught', name);
    assert.equal(failed(name), [['panics::div_zero_panics', 'src/lib.rs', 28, 'test did not panic as expected']], name);
  }
});

test('cargo test -q --no-fail-fast: every failed test named from its `--- FAILED` line and its block', () => {
  assert.is(judge('cargo', 'caught-q').verdict, 'caught');
  assert.equal(failed('caught-q'), [
    ['tests::adds', 'src/lib.rs', 20, 'assertion `left == right` failed'],
    ['tests::adds_negative', 'src/lib.rs', 30, 'assertion `left == right` failed'],
    ['tests::adds_zero', 'src/lib.rs', 25, 'assertion `left == right` failed'],
    ['add_large', 'tests/integration.rs', 10, 'assertion `left == right` failed'],
    ['src/shapes.rs - shapes::Rect::area (line 10)', 'src/shapes.rs', 10, 'assertion `left == right` failed'],
    ['src/lib.rs - add (line 7)', 'src/lib.rs', 7, 'assertion `left == right` failed'],
  ]);
  // Before libtest printed names under -q (dots, `F`): the blocks and the `failures:` list name them; passing tests' blocks (`--show-output`) do not.
  const dots = capture('caught-q').text.replace(/^.* --- FAILED$/gm, 'F');
  assert.equal(failedTestsOf('cargo', dots, { root: '/x', base: '.' }).length, 6);
  const shown = `successes:\n\n---- tests::ok stdout ----\nhello\n\n${capture('should-panic').text}`;
  assert.equal(
    failedTestsOf('cargo', shown, { root: '/x', base: '.' }).map((f) => f.id),
    ['panics::div_zero_panics'],
  );
});

test("cargo test --manifest-path crates/rs/Cargo.toml from the root: the panic's file is made relative to the manifest folder, or left out when it is not there", () => {
  const text = capture('manifest-path').text;
  const there = new Set(['crates/rs/src/shapes.rs', 'crates/rs/src/lib.rs']);
  const at = (ctx: { manifestDir?: string; exists?: (f: string) => boolean }) =>
    failedTestsOf('cargo', text, { root: '/x', base: '.', ...ctx }).map((f) => [f.id, f.file ?? null, f.line ?? null]);
  assert.equal(at({ manifestDir: 'crates/rs', exists: (f) => there.has(f) }), [
    ['shapes::tests::area_works', 'crates/rs/src/shapes.rs', 25],
  ]);
  // A workspace's member: its panics name files from the workspace's root, where cargo ran.
  assert.equal(at({ manifestDir: 'crates/rs', exists: (f) => f === 'src/shapes.rs' }), [
    ['shapes::tests::area_works', 'src/shapes.rs', 25],
  ]);
  // `cd crates/rs && cargo test` (no manifest path): src/shapes.rs is not at the root, so no file is named.
  assert.equal(at({ exists: (f) => there.has(f) }), [['shapes::tests::area_works', null, null]]);
  // Detection reads the manifest's folder off the command (through a script too).
  const scripts = () => ({
    'test:rs': 'cargo test --manifest-path crates/rs/Cargo.toml',
    nt: 'cargo nextest run --manifest-path=crates/n/Cargo.toml',
  });
  assert.is(detectRunner('npm run test:rs', undefined, scripts).manifestDir, 'crates/rs');
  assert.is(detectRunner('npm run nt', undefined, scripts).manifestDir, 'crates/n');
  assert.is(detectRunner('cargo test --manifest-path Cargo.toml', undefined, scripts).manifestDir, undefined);
});

test('a binary that stopped, then a long output: its `running` line and its unfinished line are kept beyond the tail', () => {
  const { text } = capture('exit0');
  const many = Array.from({ length: 4000 }, (_, i) => `test case_${i} ... ok`).join('\n');
  const long = text.replace('running 2 tests\n', `running 4002 tests\n${many}\n`).replace('2 passed; 0 failed', '4002 passed; 0 failed');
  // As gate.ts keeps a long output: the lines `keep` matches out of what falls before the last 64 KiB, then those.
  const keep = keepFor('cargo')!;
  const cut = Buffer.byteLength(long) - 64 * 1024;
  let at = 0;
  const before: string[] = [];
  for (const line of long.split('\n')) {
    if (at < cut && keep(line)) before.push(line);
    at += Buffer.byteLength(line) + 1;
  }
  assert.ok(cut > 0);
  const kept = before.map((l) => `${l}\n`).join('') + Buffer.from(long).subarray(cut).toString('utf8');
  const r = runnerRecord('cargo').profile!.read(outputLines(kept));
  assert.ok(
    (r.cannotRun?.what ?? '').startsWith(
      'the test binary for src/lib.rs (unittests) exited mid-run, before its test result (it ran 4 tests',
    ),
    r.cannotRun?.what,
  );
});

/** rustc's own diagnostics as rustErrors reads them: [header, at, lint]. */
const errorsOf = (text: string) => rustErrors(outputLines(text)).map((e) => [e.line, e.at, e.lint]);

test("a lint beside a syntax error, and a lint's second occurrence that names no lint: told apart by message", () => {
  // clippy -- -D warnings on `let x = 1; let y = 2;` (two unused variables) and `let z = ;`, as rustc 1.95 printed them.
  const two = `error: unused variable: \`x\`\n --> src/lib.rs:2:9\n  |\n  = note: \`-D unused-variables\` implied by \`-D warnings\`\n\nerror: unused variable: \`y\`\n --> src/lib.rs:3:9\n  |\n\nerror: could not compile \`c1\` (lib) due to 2 previous errors\n`;
  assert.equal(errorsOf(two), [
    ['error: unused variable: `x`', 'src/lib.rs:2:9', 'unused_variables'],
    ['error: unused variable: `y`', 'src/lib.rs:3:9', 'unused_variables'],
  ]);
  const syntax = `error: expected expression, found \`;\`\n --> src/lib.rs:6:13\n  |\n6 |     let z = ;\n\nerror: unused variable: \`x\`\n --> src/lib.rs:2:9\n  |\n  = note: \`-D unused-variables\` implied by \`-D warnings\`\n\nerror: could not compile \`c1\` (lib) due to 2 previous errors\n`;
  assert.equal(errorsOf(syntax), [
    ['error: expected expression, found `;`', 'src/lib.rs:6:13', undefined],
    ['error: unused variable: `x`', 'src/lib.rs:2:9', 'unused_variables'],
  ]);
  const c = classify({ exitCode: 101, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: syntax }, [101], 30, {
    runner: 'clippy',
    output: { detection: { runner: 'clippy', words: [], managers: [] } },
  });
  assert.is(c.verdict, 'error');
  assert.ok((c.reason ?? '').includes('`src/lib.rs:6:13: error: expected expression, found `;``'), c.reason);
});

test("an aborted binary whose `running 1 test` came before its section line or after cargo's error (stdout and stderr read through two pipes, as a push reads them): still a libtest binary, the same reason", () => {
  const { code, text } = capture('abort');
  const raced = text.replace(
    '     Running tests/abort.rs (target/debug/deps/abort-e1a54924da8cbb36)\n\nrunning 1 test\n',
    'running 1 test\n     Running tests/abort.rs (target/debug/deps/abort-e1a54924da8cbb36)\n',
  );
  assert.ok(raced !== text);
  const as = (t: string) =>
    classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: t }, [101], 30, {
      runner: 'cargo',
      output: { detection: { runner: 'cargo', words: [], managers: [] } },
    }).reason;
  assert.is(as(raced), as(text));
  // Or after cargo's error.
  const late = text
    .replace('\nrunning 1 test\nerror: test failed', '\nerror: test failed')
    .replace(/SIGABRT: process abort signal\)\n$/, 'SIGABRT: process abort signal)\nrunning 1 test\n');
  assert.ok(late !== text && late.endsWith('running 1 test\n'), late);
  assert.is(as(late), as(text));
  assert.ok(as(raced)?.includes('`cargo test --test abort -- --test-threads=1` prints each test as it starts'), as(raced));
  // Or the binary before it printed its `test result:` (stdout) after cargo's next section line (stderr): a signal still says it ended.
  const result = 'test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n';
  const behind = text
    .replace(result, '')
    .replace(
      '(target/debug/deps/abort-e1a54924da8cbb36)\n\nrunning 1 test\n',
      `(target/debug/deps/abort-e1a54924da8cbb36)\n${result}running 1 test\n`,
    );
  assert.ok(behind !== text && behind.indexOf('test result: ok') > behind.indexOf('Running tests/abort.rs'), behind);
  assert.is(as(behind), as(text));
});

test("a test binary that aborted or exited mid-run: the patch's when the change touched Rust code, naming the changed file the stop points at (the panic's place, else the binary's source); never a file that \"cannot load\"", () => {
  const fault = (name: string, changed: string[], cwd = '.') => {
    const c = judge('cargo', name);
    return errorFault({
      reason: c.reason!,
      output: capture(name).text,
      changed,
      exited: true,
      cwd,
      ...(c.stopped && { stopped: c.stopped }),
    });
  };
  // The panic is in the code under test, src/lib.rs: that, though the test file changed too.
  assert.equal(fault('abort-panic', ['tests/half.rs', 'src/lib.rs']), { cause: 'patch', stopped: true, file: 'src/lib.rs' });
  assert.equal(fault('abort-panic', ['tests/half.rs']), { cause: 'patch', stopped: true, file: 'tests/half.rs' });
  // No panic: the binary's own source, when changed; else Rust code elsewhere, no file to name.
  assert.equal(fault('abort', ['tests/abort.rs']), { cause: 'patch', stopped: true, file: 'tests/abort.rs' });
  assert.equal(fault('abort', ['src/lib.rs']), { cause: 'patch', stopped: true });
  assert.equal(fault('exit0', ['src/lib.rs']), { cause: 'patch', stopped: true, file: 'src/lib.rs' });
  assert.equal(fault('exit0-integration', ['crates/rs/tests/integration.rs'], 'crates/rs'), {
    cause: 'patch',
    stopped: true,
    file: 'crates/rs/tests/integration.rs',
  });
  // No Rust code changed: the harness's.
  assert.equal(fault('abort', ['README.md']), { cause: 'harness' });
});

test("`cargo nextest` not installed, since the patch changed package.json's script to it: the patch's fault, naming the command", () => {
  const c = judge('nextest', 'no-such-command');
  assert.is(c.notFound, 'cargo nextest');
  const fault = (before: string) =>
    errorFault({
      reason: c.reason!,
      output: capture('no-such-command').text,
      changed: ['package.json'],
      exited: true,
      notFound: { command: c.notFound!, tierRun: 'npm test' },
      packageJsonAtBase: before,
    });
  assert.equal(fault('{"scripts":{"test":"cargo test"}}'), { cause: 'patch', file: 'package.json', command: 'cargo nextest' });
  // Named before the patch too: not installed here, the harness's.
  assert.equal(fault('{"scripts":{"test":"cargo nextest run"}}'), { cause: 'harness' });
});

test('detection: `cargo clippy -- -D warnings` (through an npm script too) is clippy, `cargo check`/`cargo build` cargo-check, as the whole command only', () => {
  const scripts = () => ({
    lint: 'cargo clippy --all-targets -- -D warnings',
    check: 'cargo +nightly check --all-targets',
    test: 'cargo test',
  });
  assert.is(detectRunner('npm run lint', undefined, scripts).runner, 'clippy');
  assert.ok(detectRunner('npm run lint', undefined, scripts).why.includes('a check (cargo clippy)'));
  assert.is(detectRunner('npm run check', undefined, scripts).runner, 'cargo-check');
  assert.is(detectRunner('cargo build --release', undefined, scripts).runner, 'cargo-check');
  assert.is(detectRunner('npm test', undefined, scripts).runner, 'cargo');
  assert.is(detectRunner('cargo clippy && ./run-more', undefined, scripts).runner, undefined);
  assert.is(detectRunner('cargo fmt', undefined, scripts).runner, undefined);
});

test('detection: `cargo fmt --check`, `cargo fmt -- --check` and `rustfmt --check` are rustfmt, as the whole command only; `cargo fmt` (which rewrites) is not a check', () => {
  const none = () => null;
  for (const run of ['cargo fmt --check', 'cargo fmt -- --check', 'cargo +nightly fmt --all --check', 'rustfmt --check src/lib.rs'])
    assert.is(detectRunner(run, undefined, none).runner, 'rustfmt', run);
  for (const run of ['cargo fmt', 'cargo fmt --all', 'rustfmt src/lib.rs', 'cargo fmt --check && cargo test'])
    assert.not.equal(detectRunner(run, undefined, none).runner, 'rustfmt', run);
  assert.is(detectRunner('npm run fmt', undefined, () => ({ fmt: 'cargo fmt -- --check' })).runner, 'rustfmt');
});

test("rustfmt's diff lines (`ESC[31m-    a+b` then `ESC(B ESC[m`): the blocked screen shows them with no escape left, and the stream passes the reset", () => {
  const { text } = capture('fmt-check');
  assert.ok(text.includes('\x1b(B'), 'the capture holds the charset reset');
  const screen = summarizeOutput({ text });
  assert.ok(screen.lines.length > 0);
  for (const l of screen.lines) assert.not.match(shown(l), '\\x1b', l);
  assert.ok(screen.lines.includes('-    a+b'), screen.lines.join('\n'));
  assert.is(outputLines('\x1b[31m-    a+b\n\x1b(B\x1b[m\x1b[32m+    a + b\n')[1], '+    a + b');
  // Other character sets (line drawing) and other controls are still removed or escaped.
  assert.is(outputLines('\x1b(0lqk\x1b(B')[0], 'lqk');
  assert.is(safeGateOutput(Buffer.from('\x1b[31m-x\n\x1b(B\x1b[m')).toString(), '\x1b[31m-x\n\x1b(B\x1b[m');
  assert.is(safeGateOutput(Buffer.from('\x1b(0q')).toString(), '\\x1b(0q');
});

test.run();
