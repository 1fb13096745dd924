/**
 * How a command is known to be each runner: the words, command shapes and packages that name it, in
 * one table, so that detection (detect.ts) reads no runner's record. A record (tests/, checks/: how the
 * runner's output and exit codes read) is loaded only for a runner a tier runs (index.ts). Pure.
 */
import { RUNNER_NAMES, type RunnerName } from '../config/runner-names.js';
import { base, djangoTest, goCommand, pythonModule } from './command-words.js';

export interface RunnerIdentity<N extends RunnerName = RunnerName> {
  /** The config's `runner` value, and the ledger's. */
  name: N;
  /** A test runner (its record reads its output with a profile), or a linter, formatter or type checker (a `check`). */
  kind: 'test' | 'check';
  /** Command names that are this runner (`mocha`, `_mocha`), as the command or one of its arguments (`npx jest`). */
  words?: readonly string[];
  /**
   * A test runner's: a command that is this runner by its shape rather than one word (`go test`, `python
   * -m pytest`, `node --test`), wrappers such as `npx` and `uv run` already dropped. A check's: the shape
   * its words must have to be a check (`prettier --check`, not `prettier --write`). `looks` is how it
   * looks, for docs/verdicts.md.
   */
  command?: { looks: string; is: (words: readonly string[]) => boolean };
  /** Its folders under node_modules (`jest-cli`): a path into one names it (`node node_modules/jest/bin/jest.js`). */
  packages?: readonly string[];
  /** Its words name it only as the command itself: as an argument they are often something else (`--reporter tap`, `eslint --env jasmine`). */
  commandOnly?: boolean;
  /**
   * Its summary cannot be mistaken for other output, so a script that runs it unnamed is read for it
   * (`nyc node test.js` calling mocha): the order in which such summaries are tried, from 1.
   */
  scriptSummary?: number;
}

/** A shape's test: its first word without its path is `command` and its second `sub` (`cargo test`). */
const firstTwo = (command: string, sub: string) => (words: readonly string[]) => base(words[0] ?? '') === command && words[1] === sub;

/** go's shape: `go test`, `go vet`, after go's `-C dir` too (`go -C backend test ./...`). */
const goSub = (sub: string) => (words: readonly string[]) => goCommand(words)?.sub === sub;

/** cargo's subcommand: its first word after `cargo` that is no toolchain (`+nightly`) nor option. */
const cargoSubcommand = (words: readonly string[]) => words.slice(1).find((w) => !w.startsWith('+') && !w.startsWith('-'));

/** Each runner's identity under its name: the type checks that every name of config/runner-names.ts has one, under its own name. */
export const IDENTITIES: { readonly [N in RunnerName]: RunnerIdentity<N> } = {
  pytest: {
    name: 'pytest',
    kind: 'test',
    words: ['pytest', 'py.test', 'pytest-3', 'py.test-3'],
    command: { looks: '`python -m pytest`', is: (words) => pythonModule(words) === 'pytest' },
    scriptSummary: 8,
  },
  jest: { name: 'jest', kind: 'test', words: ['jest'], packages: ['jest', 'jest-cli'], scriptSummary: 2 },
  vitest: { name: 'vitest', kind: 'test', words: ['vitest'], packages: ['vitest'], scriptSummary: 3 },
  mocha: { name: 'mocha', kind: 'test', words: ['mocha', '_mocha'], packages: ['mocha'], scriptSummary: 1 },
  node: {
    name: 'node',
    kind: 'test',
    command: {
      looks: '`node --test`, `tsx --test`, `borp`',
      is: (words) => {
        const b = base(words[0] ?? '');
        // tsx passes node's own flags on (`tsx --test`); borp runs node's test runner and prints its reporters' output.
        return (
          ((b === 'node' || b === 'nodejs' || b === 'tsx') &&
            words.some((w) => w === '--test' || w.startsWith('--test-reporter') || w.startsWith('--test-name-pattern'))) ||
          b === 'borp'
        );
      },
    },
    scriptSummary: 4,
  },
  uvu: { name: 'uvu', kind: 'test', words: ['uvu'], packages: ['uvu'] },
  go: { name: 'go', kind: 'test', command: { looks: '`go test`', is: goSub('test') }, scriptSummary: 10 },
  cargo: { name: 'cargo', kind: 'test', command: { looks: '`cargo test`', is: firstTwo('cargo', 'test') }, scriptSummary: 11 },
  nextest: { name: 'nextest', kind: 'test', command: { looks: '`cargo nextest`', is: firstTwo('cargo', 'nextest') }, scriptSummary: 12 },
  playwright: {
    name: 'playwright',
    kind: 'test',
    command: {
      looks: '`playwright test`',
      is: (words) =>
        (base(words[0] ?? '') === 'playwright' || words.some((w) => /node_modules\/(?:@playwright\/test|playwright)\//.test(w))) &&
        words.includes('test'),
    },
    packages: ['@playwright/test', 'playwright'],
  },
  unittest: {
    name: 'unittest',
    kind: 'test',
    command: {
      looks: "`python -m unittest`, `python manage.py test` (Django runs unittest's runner)",
      is: (words) => pythonModule(words) === 'unittest' || djangoTest(words),
    },
    scriptSummary: 9,
  },
  ava: { name: 'ava', kind: 'test', words: ['ava'], packages: ['ava'], commandOnly: true, scriptSummary: 6 },
  jasmine: { name: 'jasmine', kind: 'test', words: ['jasmine'], packages: ['jasmine'], commandOnly: true, scriptSummary: 5 },
  tap: { name: 'tap', kind: 'test', words: ['tap'], packages: ['tap'], commandOnly: true, scriptSummary: 7 },
  tape: { name: 'tape', kind: 'test', words: ['tape'], packages: ['tape'], commandOnly: true },
  tsc: { name: 'tsc', kind: 'check', words: ['tsc', 'vue-tsc', 'tsgo'], commandOnly: true },
  eslint: { name: 'eslint', kind: 'check', words: ['eslint'], commandOnly: true },
  prettier: {
    name: 'prettier',
    kind: 'check',
    words: ['prettier'],
    commandOnly: true,
    // `prettier --write` fixes and exits 0: a check only with --check or --list-different.
    command: {
      looks: '`prettier --check`, `prettier --list-different`',
      is: (words) => words.some((w) => w === '--check' || w === '-c' || w === '--list-different' || w === '-l'),
    },
  },
  biome: {
    name: 'biome',
    kind: 'check',
    words: ['biome'],
    commandOnly: true,
    command: {
      looks: '`biome check`, `biome lint`, `biome format`, `biome ci`',
      is: (words) => ['check', 'lint', 'format', 'ci'].includes(words[1] ?? ''),
    },
  },
  ruff: {
    name: 'ruff',
    kind: 'check',
    words: ['ruff'],
    commandOnly: true,
    command: {
      looks: '`ruff check`, `ruff format --check`',
      is: (words) => words[1] === 'check' || (words[1] === 'format' && words.includes('--check')),
    },
  },
  flake8: { name: 'flake8', kind: 'check', words: ['flake8'], commandOnly: true },
  // go's own linter: `go vet`, by its shape (`go` alone is go build, go test, ...).
  govet: { name: 'govet', kind: 'check', command: { looks: '`go vet`', is: goSub('vet') } },
  clippy: {
    name: 'clippy',
    kind: 'check',
    words: ['cargo'],
    commandOnly: true,
    command: { looks: '`cargo clippy`', is: (words) => cargoSubcommand(words) === 'clippy' },
  },
  'cargo-check': {
    name: 'cargo-check',
    kind: 'check',
    words: ['cargo'],
    commandOnly: true,
    command: { looks: '`cargo check`, `cargo build`', is: (words) => ['check', 'build'].includes(cargoSubcommand(words) ?? '') },
  },
  // `cargo fmt` alone rewrites the files and exits 0: a check only with --check.
  rustfmt: {
    name: 'rustfmt',
    kind: 'check',
    words: ['cargo', 'rustfmt'],
    commandOnly: true,
    command: {
      looks: '`cargo fmt --check`, `cargo fmt -- --check`, `rustfmt --check`',
      is: (words) => (base(words[0] ?? '') === 'rustfmt' || cargoSubcommand(words) === 'fmt') && words.includes('--check'),
    },
  },
};

/** The identities in the table's order (config/runner-names.ts): the order detection tries them in. */
export const IDENTITY_LIST: readonly RunnerIdentity[] = RUNNER_NAMES.map((n): RunnerIdentity => IDENTITIES[n]);

/**
 * The runners whose summaries a script that names no runner is read for, in their `scriptSummary`
 * order (verdict/script-output.ts): `55 failing`, `Tests:  1 failed, 2 total`, `= 1 failed in 0.1s =`.
 */
export const SCRIPT_SUMMARIES: readonly RunnerName[] = IDENTITY_LIST.filter((r) => r.scriptSummary !== undefined)
  .sort((a, b) => a.scriptSummary! - b.scriptSummary!)
  .map((r) => r.name);
