/**
 * cargo (and rustfmt) on real pushes, where a Rust toolchain is installed: `cargo fmt --check` is a
 * check whose diff is caught, naming the file from the repository's root, and whose lines reach the
 * blocked screen without rustfmt's `ESC(B` shown as `\x1b(B` (before: a bare exit 1, no reason, the
 * escapes on screen); a test binary that aborts is an error saying so and how to find the test, the patch's,
 * naming the file it changed (before: "a test binary stopped", the file "cannot load").
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';
import { toolPresent } from '../helpers/system-tool.js';

const withCargo = toolPresent(
  'the cargo cases',
  spawnSync('cargo', ['fmt', '--version'], { encoding: 'utf8' }).status === 0,
  'rustup (https://rustup.rs) with rustfmt',
);

const LIB = (body: string) =>
  `pub fn add(a: i64, b: i64) -> i64 {\n    ${body}\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n`;
const ENV = "env: { CARGO_NET_OFFLINE: 'true', CARGO_TERM_COLOR: 'never' }";

if (withCargo)
  test('cargo fmt --check: a diff is caught naming the file, its colour resets not shown as escapes; a test binary that aborts is the patch’s error, saying how to find the test', () =>
    withRepo(
      {
        files: {
          '.gitignore': 'node_modules\ntarget\n',
          'Cargo.toml': '[package]\nname = "m"\nversion = "0.1.0"\nedition = "2021"\n',
          'src/lib.rs': LIB('a + b'),
          'tests/it.rs': '#[test]\nfn big() {\n    assert_eq!(m::add(1000, 2000), 3000);\n}\n',
          'gate-ladder.config.mjs': `export default { tiers: [\n  { name: 't1-fmt', run: 'cargo fmt --check', timeout: 120, ${ENV} },\n  { name: 't2-test', run: 'cargo test', timeout: 300, ${ENV} },\n] };\n`,
        },
      },
      (repo) => {
        repo.write('src/lib.rs', LIB('a+b'));
        repo.commit('not formatted');
        const fmt = repo.push();
        assert.is.not(fmt.code, 0, fmt.out);
        assert.match(fmt.out, 't1-fmt caught in');
        assert.match(fmt.out, 'rustfmt: 1 file not formatted: `src/lib.rs:1` (`cargo fmt` formats them)');
        assert.match(fmt.out, '  -    a+b\n');
        assert.not.match(fmt.out, '\\x1b');
        assert.not.match(fmt.out, '\x1b(B');

        repo.write('src/lib.rs', LIB('a + b'));
        repo.write('tests/it.rs', '#[test]\nfn big() {\n    if m::add(1, 1) == 2 {\n        std::process::abort();\n    }\n}\n');
        repo.commit('a test that aborts');
        const abort = repo.push();
        assert.is.not(abort.code, 0, abort.out);
        assert.match(abort.out, 't1-fmt pass');
        assert.match(abort.out, 't2-test error in');
        assert.match(
          abort.out,
          'the test binary for tests/it.rs aborted before its test result: the code under test (or the test) ended the process (std::process::abort',
        );
        // libtest names a test as it ends when it runs them at once: how to see which one it was.
        assert.match(
          abort.out,
          '`cargo test --test it -- --test-threads=1` prints each test as it starts, so the last one printed is the one that aborted',
        );
        assert.match(
          abort.out,
          '  The push changed tests/it.rs, and the code under test ended the test process before its tests reported (it exited or aborted, as said above): likely the patch, not the harness.',
        );
        assert.not.match(abort.out, 'cannot load');
        const row = repo.ledger().at(-1)!;
        assert.equal([row.tier, row.verdict, row.error_cause, row.error_file], ['t2-test', 'error', 'patch', 'tests/it.rs']);
      },
    ));

test.run();
