/**
 * A runner's record: everything gate-ladder knows of one test runner, linter or type checker, in its
 * own file beside this one. Adding a runner is one such file, a line in index.ts and its name (with its
 * default `caught` codes) in config/runner-names.ts (see src/runners/README.md). Pure.
 */
import type { RunnerName } from '../config/runner-names.js';
import type { RunnerProfile } from './read.js';

export interface RunnerRecord<N extends RunnerName = RunnerName> {
  /** The config's `runner` value, and the ledger's. */
  name: N;
  /** Command names that are this runner (`mocha`, `_mocha`), as the command or one of its arguments (`npx jest`). */
  words?: readonly string[];
  /**
   * A command that is this runner by its shape rather than one word (`go test`, `python -m pytest`,
   * `node --test`): how it looks, for docs/verdicts.md, and the test of a command's words (wrappers
   * such as `npx` and `uv run` already dropped).
   */
  command?: { looks: string; is: (words: readonly string[]) => boolean };
  /** Its folders under node_modules (`jest-cli`): a path into one names it (`node node_modules/jest/bin/jest.js`). */
  packages?: readonly string[];
  /** Its words name it only as the command itself: as an argument they are often something else (`--reporter tap`, `eslint --env jasmine`). */
  commandOnly?: boolean;
  /** What its other exit codes mean, for reasons (the README's table). */
  exits?: Readonly<Record<number, string>>;
  /** Exit codes with which it says it found no test (pytest's 5). */
  noTestsExits?: readonly number[];
  /** Why its failure exit code alone cannot tell a caught patch from a broken harness (a JUnit report can). */
  ambiguousExit?: string;
  /** How it writes a JUnit report to PATH, for the message when a report is missing (a test runner's). */
  junitHint?: string;
  /**
   * Its summary cannot be mistaken for other output, so a script that runs it unnamed is read for it
   * (`nyc node test.js` calling mocha): the order in which such summaries are tried, from 1.
   */
  scriptSummary?: number;
  /** How a test runner's output is read: its summary, what could not run, no tests. */
  profile?: RunnerProfile;
  /**
   * How a linter's, formatter's or type checker's failing output is read (exit code 1 to 125): a
   * finding in the code is a catch quoting the first one (file:line and rule); a missing or broken
   * config, or the tool's own crash, is an error quoting the tool's line and saying what to do.
   * `tool`: the command as written (`vue-tsc` for the type checker's record).
   */
  check?: (tool: string, lines: readonly string[], code: number) => Checked;
}

/** What a check's output says: a finding (a catch) or a failure of its setup (an error), in a reason. */
export interface Checked {
  verdict: 'caught' | 'error';
  reason: string;
}

/** A record with its name kept as a literal type: index.ts checks each record sits under its own name. */
export function defineRunner<const N extends RunnerName>(record: RunnerRecord<N>): RunnerRecord<N> {
  return record;
}
