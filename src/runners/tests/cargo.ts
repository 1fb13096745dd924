/** cargo: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { anyOf, count, type FailedTest, firstMatch, firstMessageLine, type Reading, type RunnerProfile } from '../read.js';
import { defineRunner } from '../record.js';

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

/**
 * cargo test's failed tests: each `test name ... FAILED`, with its panic from the `---- name stdout ----`
 * block below (`thread 'name' panicked at src/lib.rs:11:9:` and the message on the next line; before
 * Rust 1.73, `panicked at 'message', src/lib.rs:11:9`).
 */
function cargoFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    const m = /^test (\S+) \.\.\. FAILED$/.exec(l);
    if (!m || seen.has(m[1]!)) continue;
    seen.add(m[1]!);
    const name = m[1]!;
    const block = lines.indexOf(`---- ${name} stdout ----`);
    let at: { file: string; line: number; message?: string } | undefined;
    for (let i = block + 1; block !== -1 && i < lines.length && !/^---- /.test(lines[i]!) && lines[i] !== 'failures:'; i++) {
      const now = /^thread '[^']*'(?: \(\d+\))? panicked at (\S+?):(\d+):\d+:$/.exec(lines[i]!);
      const old = /^thread '[^']*' panicked at '(.*)', (\S+?):(\d+):\d+$/.exec(lines[i]!);
      if (now) at = { file: now[1]!, line: Number(now[2]), ...(lines[i + 1] !== undefined && { message: lines[i + 1]! }) };
      else if (old) at = { file: old[2]!, line: Number(old[3]), message: old[1]! };
      if (at) break;
    }
    out.push({ title: [name], ...(at && { file: at.file, line: at.line }), message: firstMessageLine(at?.message ?? 'failed') });
  }
  return out;
}

const cargo: RunnerProfile = {
  failures: cargoFailures,
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
      out.summary = {
        line: results.find((r) => r.includes('FAILED')) ?? results[results.length - 1]!,
        failed,
        passed,
        total: failed + passed + ignored,
        skipped: ignored,
      };
    }
    const compile = firstMatch(lines, /^error: could not compile/);
    if (compile)
      out.cannotRun = {
        what: 'a compile error',
        line: firstMatch(lines, /^error(?:\[E\d+\])?: (?!could not compile)/)?.line ?? compile.line,
      };
    const usage = firstMatch(lines, /^error: no (?:test|bin|example|bench) target named|^error: could not find `Cargo\.toml`/);
    if (usage) out.cannotRun = { what: 'a cargo usage error', line: usage.line };
    const outside = cargoBinaryOutsideTests(lines);
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
