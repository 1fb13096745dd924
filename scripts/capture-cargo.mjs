#!/usr/bin/env node
/**
 * Captures what cargo (test, clippy, check, fmt) prints on a small crate in each case gate-ladder's
 * cargo readers must tell apart, for test/unit/cargo-captures.test.ts: a test binary that exits 0 in
 * the middle of its tests, failed doctests and `#[should_panic]` tests, `-q`, a crate tested from the
 * folder above with `--manifest-path`, clippy's findings and compile errors, a broken Cargo.toml, an
 * aborting test, a cargo subcommand that is not installed, rustfmt's diffs and its parse error. Each case: a crate `m` in a temporary folder
 * (the base files, with the case's own on top), its command run through a pipe as a gate runs it (both
 * streams in one), the output written to test/fixtures/runners/cargo/<case>.txt with the temporary
 * folder's path replaced by `/x`, the exit code on the file's first line (`# exit N`). cargo must be
 * installed (std-only crates: no network). Run it again after upgrading cargo:
 *
 *   node scripts/capture-cargo.mjs [case ...]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PROJECT, 'test', 'fixtures', 'runners', 'cargo');

const TOML = '[package]\nname = "m"\nversion = "0.1.0"\nedition = "2024"\n\n[dependencies]\n';
const LIB = (add = 'a + b', extra = '') => `//! A small crate.

pub mod shapes;

/// Adds two numbers.
///
/// \`\`\`
/// assert_eq!(m::add(2, 3), 5);
/// \`\`\`
pub fn add(a: i64, b: i64) -> i64 {
    ${add}
}
${extra}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0), 0);
    }

    #[test]
    fn adds_negative() {
        assert_eq!(add(-1, -2), -3);
    }
}
`;
const SHAPES = (area = 'self.w * self.h', doc = '6') => `/// A rectangle.
pub struct Rect {
    pub w: u32,
    pub h: u32,
}

impl Rect {
    /// Its area.
    ///
    /// \`\`\`
    /// let r = m::shapes::Rect { w: 2, h: 3 };
    /// assert_eq!(r.area(), ${doc});
    /// \`\`\`
    pub fn area(&self) -> u32 {
        ${area}
    }
}

#[cfg(test)]
mod tests {
    use super::Rect;

    #[test]
    fn area_works() {
        assert_eq!(Rect { w: 4, h: 5 }.area(), 20);
    }
}
`;
const INTEGRATION = `use m::add;

#[test]
fn add_is_commutative() {
    assert_eq!(add(4, 7), add(7, 4));
}

#[test]
fn add_large() {
    assert_eq!(add(1000, 2000), 3000);
}
`;
const BASE = { 'Cargo.toml': TOML, 'src/lib.rs': LIB(), 'src/shapes.rs': SHAPES(), 'tests/integration.rs': INTEGRATION };
const EXIT0 = { 'src/lib.rs': LIB('if a == 1 {\n        std::process::exit(0)\n    }\n    a + b') };
const SHOULD_PANIC = `
/// Divides, panicking on zero.
pub fn div(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    a / b
}

#[cfg(test)]
mod panics {
    use super::*;

    #[test]
    #[should_panic]
    fn div_zero_panics() {
        div(1, 0);
    }
}
`;
const WORKSPACE = {
  'Cargo.toml': '[workspace]\nmembers = ["crates/a", "crates/b"]\nresolver = "2"\n',
  'crates/a/Cargo.toml': TOML.replace('"m"', '"a"'),
  'crates/a/src/lib.rs':
    'pub fn one() -> i32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn one() {\n        assert_eq!(super::one(), 1);\n    }\n}\n',
  'crates/b/Cargo.toml': TOML.replace('"m"', '"b"'),
  'crates/b/src/lib.rs':
    'pub fn two(x: i32) -> i32 {\n    if x == 2 {\n        std::process::exit(0)\n    }\n    2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_two() {\n        assert_eq!(super::two(1), 2);\n    }\n\n    #[test]\n    fn b_two() {\n        assert_eq!(super::two(2), 2);\n    }\n}\n',
};
/** The crate in crates/rs of a repository whose root has no Cargo.toml: tested from the root. */
const nested = (files) => Object.fromEntries(Object.entries({ ...BASE, ...files }).map(([p, t]) => [`crates/rs/${p}`, t]));

/** Each case: the files on top of BASE (`null`: not there; `base: false`: none of BASE), the command, and what it shows. */
const CASES = {
  pass: { argv: ['cargo', 'test'] },
  'pass-q': { argv: ['cargo', 'test', '-q'] },
  'pass-filtered': { argv: ['cargo', 'test', 'adds_zero'] },
  exit0: { files: EXIT0, argv: ['cargo', 'test'] },
  'exit0-nff': { files: EXIT0, argv: ['cargo', 'test', '--no-fail-fast'] },
  'exit0-q': { files: EXIT0, argv: ['cargo', 'test', '-q'] },
  'exit0-workspace': { base: false, files: WORKSPACE, argv: ['cargo', 'test', '--workspace'] },
  'exit0-integration': {
    files: { 'tests/integration.rs': `${INTEGRATION}\n#[test]\nfn leaves() {\n    std::process::exit(0);\n}\n` },
    argv: ['cargo', 'test'],
  },
  'doctest-failed': { files: { 'src/shapes.rs': SHAPES(undefined, '7') }, argv: ['cargo', 'test'] },
  'should-panic': { files: { 'src/lib.rs': LIB(undefined, SHOULD_PANIC) }, argv: ['cargo', 'test'] },
  'caught-q': {
    files: { 'src/lib.rs': LIB('a + b + 1'), 'src/shapes.rs': SHAPES(undefined, '7') },
    argv: ['cargo', 'test', '-q', '--no-fail-fast'],
  },
  'should-panic-q': { files: { 'src/lib.rs': LIB(undefined, SHOULD_PANIC) }, argv: ['cargo', 'test', '-q'] },
  'manifest-path': {
    base: false,
    files: nested({ 'src/shapes.rs': SHAPES('self.w + self.h') }),
    argv: ['cargo', 'test', '--manifest-path', 'crates/rs/Cargo.toml'],
  },
  abort: {
    files: { 'tests/abort.rs': '#[test]\nfn aborts() {\n    if m::add(1, 1) == 2 {\n        std::process::abort();\n    }\n}\n' },
    argv: ['cargo', 'test'],
  },
  // A panic that cannot unwind (an extern "C" fn, as under panic = "abort") aborts the binary: its panic names the test's thread and the place.
  'abort-panic': {
    files: {
      'src/lib.rs': LIB(
        'a + b',
        '\n/// Halves; panics on an odd number.\npub extern "C" fn half(a: i64) -> i64 {\n    if a % 2 == 1 {\n        panic!("odd: {a}");\n    }\n    a / 2\n}\n',
      ),
      'tests/half.rs':
        'use m::half;\n\n#[test]\nfn halves() {\n    assert_eq!(half(4), 2);\n}\n\n#[test]\nfn halves_odd() {\n    assert_eq!(half(3), 1);\n}\n',
    },
    argv: ['cargo', 'test'],
  },
  // One test at a time: libtest names each test as it starts, so the aborting one is the unfinished line.
  'abort-serial': {
    files: { 'tests/abort.rs': '#[test]\nfn aborts() {\n    if m::add(1, 1) == 2 {\n        std::process::abort();\n    }\n}\n' },
    argv: ['cargo', 'test', '--test', 'abort', '--', '--test-threads=1'],
  },
  'compile-error': { files: { 'src/lib.rs': LIB('a + b + "x"') }, argv: ['cargo', 'test'] },
  'broken-toml': { files: { 'Cargo.toml': TOML.replace('"0.1.0"', '0.1.0"') }, argv: ['cargo', 'test'] },
  'no-such-command': { argv: ['cargo', 'nextest', 'run'] },
  'clippy-pass': { argv: ['cargo', 'clippy', '--', '-D', 'warnings'] },
  'clippy-finding': { files: { 'src/lib.rs': LIB('return a + b;') }, argv: ['cargo', 'clippy', '--', '-D', 'warnings'] },
  'clippy-findings': {
    files: { 'src/lib.rs': LIB('return a + b;'), 'src/shapes.rs': SHAPES('return self.w * self.h;') },
    argv: ['cargo', 'clippy', '--all-targets', '--', '-D', 'warnings'],
  },
  'clippy-warning': { files: { 'src/lib.rs': LIB('return a + b;') }, argv: ['cargo', 'clippy'] },
  'clippy-compile-error': { files: { 'src/lib.rs': LIB('a + b + "x"') }, argv: ['cargo', 'clippy', '--', '-D', 'warnings'] },
  'clippy-broken-toml': { files: { 'Cargo.toml': TOML.replace('"0.1.0"', '0.1.0"') }, argv: ['cargo', 'clippy', '--', '-D', 'warnings'] },
  'check-compile-error': { files: { 'src/lib.rs': LIB('a + b + "x"') }, argv: ['cargo', 'check', '--all-targets'] },
  'check-warning': { files: { 'src/lib.rs': LIB('a + b', '\nfn unused() {}\n') }, argv: ['cargo', 'check', '--all-targets'] },
  'fmt-check': { files: { 'src/lib.rs': LIB('a+b') }, argv: ['cargo', 'fmt', '--check'] },
  'fmt-check-args': {
    files: { 'src/lib.rs': LIB('a+b'), 'tests/integration.rs': INTEGRATION.replace('fn add_large()', 'fn  add_large()') },
    argv: ['cargo', 'fmt', '--', '--check'],
  },
  // Code rustfmt cannot parse: its own error, beside another file's diff.
  'fmt-error': {
    files: { 'src/lib.rs': LIB('a +'), 'tests/integration.rs': INTEGRATION.replace('fn add_large()', 'fn  add_large()') },
    argv: ['cargo', 'fmt', '--check'],
  },
};

const wanted = process.argv.slice(2);
mkdirSync(OUT, { recursive: true });
for (const [name, c] of Object.entries(CASES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const dir = mkdtempSync(join(tmpdir(), 'gl-capture-cargo-'));
  try {
    for (const [path, text] of Object.entries({ ...(c.base === false ? {} : BASE), ...c.files })) {
      if (text === null) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const env = { ...process.env, CARGO_NET_OFFLINE: 'true', CARGO_TERM_COLOR: 'never' };
    for (const k of ['FORCE_COLOR', 'NO_COLOR', 'CI', 'GITHUB_ACTIONS', 'RUST_BACKTRACE', 'CARGO_TARGET_DIR']) delete env[k];
    const got = spawnSync('bash', ['-c', 'set -o pipefail; "$@" 2>&1 | cat', 'bash', ...c.argv], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (got.error || got.status === 127) {
      process.stderr.write(`cargo/${name}: not captured (${got.error?.message ?? got.stdout.trim()})\n`);
      continue;
    }
    // Thread ids, hashes and timings are left as printed: the readers must not depend on them.
    const text = got.stdout.split(dir).join('/x');
    writeFileSync(join(OUT, `${name}.txt`), `# exit ${got.status}: ${c.argv.join(' ')}\n${text}`);
    process.stderr.write(`cargo/${name}: exit ${got.status}, ${text.split('\n').length} lines\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
